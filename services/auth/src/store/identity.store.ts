// All SQL of identity-provider sign-in: linked identities and the authorization requests in flight.
import type { Sql } from '@fieldwork/service-kit';

export interface OidcFlowRow {
  state: string;
  provider: string;
  nonce: string;
  code_challenge: string;
  expires_at: Date;
  used_at: Date | null;
}

export class IdentityStore {
  constructor(private readonly sql: Sql) {}

  async addFlow(f: { state: string; provider: string; nonce: string; code_challenge: string; expires_at: Date }) {
    await this.sql`
      insert into oidc_flows (state, provider, nonce, code_challenge, expires_at)
      values (${f.state}, ${f.provider}, ${f.nonce}, ${f.code_challenge}, ${f.expires_at})`;
  }

  /** Marks the flow used if it is unused and unexpired, and answers it; undefined otherwise (each state works once). */
  async takeFlow(state: string): Promise<OidcFlowRow | undefined> {
    const [row] = await this.sql<OidcFlowRow[]>`
      update oidc_flows set used_at = now()
      where state = ${state} and used_at is null and expires_at > now()
      returning *`;
    return row;
  }

  async pruneFlows(): Promise<void> {
    await this.sql`delete from oidc_flows where expires_at < now() - interval '1 day'`;
  }

  async userOf(provider: string, subject: string): Promise<number | undefined> {
    const [row] = await this.sql<{ user_id: number }[]>`
      update user_identities set last_used = now()
      where provider = ${provider} and subject = ${subject} returning user_id`;
    return row?.user_id;
  }

  async link(provider: string, subject: string, userId: number, email: string): Promise<void> {
    await this.sql`
      insert into user_identities (provider, subject, user_id, email, last_used)
      values (${provider}, ${subject}, ${userId}, ${email}, now())
      on conflict (provider, subject) do nothing`;
  }
}
