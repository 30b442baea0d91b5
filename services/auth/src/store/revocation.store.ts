// All SQL of the revocation outbox: revocations are written with the change that causes them (session.store.ts,
// credential.store.ts) and published to the revocation list afterwards by the relay.
import type { Revocation } from '@fieldwork/service-kit';
import type { Sql } from '@fieldwork/service-kit';

export class RevocationStore {
  constructor(private readonly sql: Sql) {}

  /** A user's share links issued until now are void (a password change or reset). */
  async revokeShares(userId: number): Promise<void> {
    await this.sql`insert into revocation_outbox (kind, ref) values ('user', ${String(userId)})`;
    await this.notify();
  }

  async notify(): Promise<void> {
    await this.sql`select pg_notify('auth_revocations', '')`;
  }

  /** Publishes unpublished revocations through `publish`, oldest first, skipping rows another replica holds. */
  async drain(publish: (r: Revocation) => Promise<void>, limit = 500): Promise<number> {
    return this.sql.begin(async (tx) => {
      const rows = await tx<{ id: number; kind: Revocation['kind']; ref: string; at: Date }[]>`
        select id, kind, ref, at from revocation_outbox where published_at is null
        order by id limit ${limit} for update skip locked`;
      for (const r of rows) await publish({ kind: r.kind, ref: r.ref, at: r.at });
      if (rows.length > 0)
        await tx`update revocation_outbox set published_at = now() where id = any(${rows.map((r) => r.id)})`;
      // Published rows are kept a day for the record, then dropped.
      await tx`delete from revocation_outbox where published_at < now() - interval '1 day'`;
      return rows.length;
    });
  }

  async listen(onRevocation: () => void): Promise<() => Promise<void>> {
    const sub = await this.sql.listen('auth_revocations', onRevocation);
    return () => sub.unlisten();
  }
}
