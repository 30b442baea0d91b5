// All SQL of known devices: the devices that signed in to an account (domain/login-throttle.ts says what they change).
import type { Sql } from '@fieldwork/service-kit';

export class KnownDeviceStore {
  constructor(private readonly sql: Sql) {}

  /** Whether the token (its hash) is a device of this user used within `days` days; a hit counts as a use. */
  async touch(userId: number, tokenHash: Buffer, days: number): Promise<boolean> {
    const rows = await this.sql`
      update known_devices set last_used_at = now()
      where token_hash = ${tokenHash} and user_id = ${userId} and last_used_at > now() - make_interval(days => ${days})
      returning 1`;
    return rows.length === 1;
  }

  /** Whether the token is a device of this user used within `days` days (read only: before the password check). */
  async known(userId: number, tokenHash: Buffer, days: number): Promise<boolean> {
    const rows = await this.sql`
      select 1 from known_devices
      where token_hash = ${tokenHash} and user_id = ${userId} and last_used_at > now() - make_interval(days => ${days})`;
    return rows.length === 1;
  }

  async add(userId: number, tokenHash: Buffer): Promise<void> {
    await this.sql`insert into known_devices (token_hash, user_id) values (${tokenHash}, ${userId})`;
  }

  /** Forgets devices unused for more than `days` days. */
  async prune(days: number): Promise<void> {
    await this.sql`delete from known_devices where last_used_at < now() - make_interval(days => ${days})`;
  }
}
