// All SQL of sessions and their rotating refresh tokens.
import type { Sql } from '@fieldwork/service-kit';

export interface RefreshLookup {
  session_id: string;
  user_id: number;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

export interface RefreshState extends RefreshLookup {
  replaced_by: Buffer | null;
  successor_used_at: Date | null;
}

export class SessionStore {
  constructor(private readonly sql: Sql) {}

  async create(id: string, userId: number, clientIp: string): Promise<void> {
    await this.sql`insert into sessions (id, user_id, client_ip) values (${id}, ${userId}, ${clientIp})`;
  }

  /** Adds a session's new refresh token; the tokens in `replacing` (already used) now name it as their successor. */
  async addRefreshToken(
    sessionId: string,
    tokenHash: Buffer,
    expiresAt: Date,
    replacing: Buffer[] = [],
  ): Promise<void> {
    await this.sql`
      insert into refresh_tokens (token_hash, session_id, expires_at) values (${tokenHash}, ${sessionId}, ${expiresAt})`;
    if (replacing.length > 0)
      await this.sql`update refresh_tokens set replaced_by = ${tokenHash} where token_hash in ${this.sql(replacing)}`;
    await this.sql`update sessions set last_refreshed_at = now() where id = ${sessionId}`;
  }

  /**
   * The refresh token with its session and its successor's use, locked until the transaction ends (call it in one):
   * a second use of the same token waits for the first to be decided.
   */
  async lockRefresh(tokenHash: Buffer): Promise<RefreshState | undefined> {
    const [row] = await this.sql<RefreshState[]>`
      select r.session_id, s.user_id, r.expires_at, r.used_at, s.revoked_at, r.replaced_by,
             (select n.used_at from refresh_tokens n where n.token_hash = r.replaced_by) as successor_used_at
      from refresh_tokens r join sessions s on s.id = r.session_id
      where r.token_hash = ${tokenHash}
      for update of r`;
    return row;
  }

  async lookup(tokenHash: Buffer): Promise<RefreshLookup | undefined> {
    const [row] = await this.sql<RefreshLookup[]>`
      select r.session_id, s.user_id, r.expires_at, r.used_at, s.revoked_at
      from refresh_tokens r join sessions s on s.id = r.session_id
      where r.token_hash = ${tokenHash}`;
    return row;
  }

  /** Marks a refresh token used; false when it already was (a concurrent or replayed use). */
  async markUsed(tokenHash: Buffer): Promise<boolean> {
    const rows = await this.sql`
      update refresh_tokens set used_at = now() where token_hash = ${tokenHash} and used_at is null returning 1`;
    return rows.length === 1;
  }

  /** Revokes a session; the revocation goes to the outbox (the gateways' revocation list) in the same statement. */
  async revoke(sessionId: string): Promise<void> {
    await this.sql`
      with revoked as (update sessions set revoked_at = now() where id = ${sessionId} and revoked_at is null returning id)
      insert into revocation_outbox (kind, ref) select 'session', id::text from revoked`;
    await this.sql`select pg_notify('auth_revocations', '')`;
  }

  async revokeAllOf(userId: number): Promise<void> {
    await this.sql`
      with revoked as (update sessions set revoked_at = now() where user_id = ${userId} and revoked_at is null returning id)
      insert into revocation_outbox (kind, ref) select 'session', id::text from revoked`;
    await this.sql`select pg_notify('auth_revocations', '')`;
  }

  async isActive(sessionId: string): Promise<boolean> {
    const rows = await this.sql`select 1 from sessions where id = ${sessionId} and revoked_at is null`;
    return rows.length === 1;
  }
}
