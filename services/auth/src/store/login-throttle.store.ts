// All SQL of login attempt counters (domain/login-throttle.ts says what they mean).
import type { Sql } from '@fieldwork/service-kit';
import type { Counter } from '../domain/login-throttle.js';

export class LoginThrottleStore {
  constructor(private readonly sql: Sql) {}

  /**
   * In one transaction: locks the counters of `keys` (in key order, so concurrent logins queue instead of
   * deadlocking), lets `decide` look at them, and saves the counters it returns. Two logins of one account never
   * read the same count: the second waits for the first to commit.
   */
  async withCounters<T>(
    keys: string[],
    decide: (counters: Map<string, Counter>) => { save: Map<string, Counter>; result: T },
  ): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    return (await this.sql.begin(async (tx) => {
      await tx`insert into login_attempts (key) select unnest(${sorted}::text[]) order by 1 on conflict (key) do nothing`;
      const rows = await tx<(Counter & { key: string })[]>`
        select key, attempts, last_at, started_at from login_attempts where key = any(${sorted}) order by key for update`;
      const { save, result } = decide(
        new Map(rows.map((r) => [r.key, { attempts: r.attempts, last_at: r.last_at, started_at: r.started_at }])),
      );
      for (const [key, c] of save)
        await tx`
          update login_attempts set attempts = ${c.attempts}, last_at = ${c.last_at}, started_at = ${c.started_at ?? null}
          where key = ${key}`;
      return result;
    })) as T;
  }

  /** Forgets counters (a device's, or an account's at one address, after a good password). */
  async clear(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.sql`delete from login_attempts where key = any(${keys})`;
  }

  /** Gives one attempt back to each counter (shared ones, after a good password: only failures count there). */
  async refund(keys: string[]): Promise<void> {
    if (keys.length > 0)
      await this.sql`update login_attempts set attempts = greatest(attempts - 1, 0) where key = any(${keys})`;
  }

  /** Forgets every counter of an account (a password reset). */
  async clearAccount(userId: number): Promise<void> {
    await this.sql`delete from login_attempts where key = ${`a:${userId}`} or key like ${`a:${userId}@%`}`;
  }

  /** Drops counters idle for longer than `ms`. */
  async prune(ms: number): Promise<void> {
    await this
      .sql`delete from login_attempts where last_at is null or last_at < now() - make_interval(secs => ${ms / 1000})`;
  }
}
