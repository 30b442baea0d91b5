// PostgreSQL for a service: one pool per process scoped to the service's own schema, and forward-only migrations.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import type { Logger } from './logger.js';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;
export { postgres };

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens a pool whose search_path is `schema`. int8 values come back as numbers (ids stay far below 2^53).
 */
export function createPool(url: string, options: { schema: string; max?: number; appName: string }): Sql {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`bad schema name: ${options.schema}`);
  return postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 60,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { search_path: options.schema, application_name: options.appName },
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (x: number | bigint) => x.toString(),
        parse: (x: string) => Number(x),
      },
    },
  });
}

export interface MigrationResult {
  applied: string[];
  total: number;
}

/**
 * Applies the `NNNN-name.sql` files of `dir` that `schema` has not recorded yet, each in its own transaction,
 * in order. An advisory lock keeps concurrent replicas from migrating at the same time. Forward-only: an applied
 * file is never run again, and a recorded version whose file disappeared is an error.
 */
export async function migrate(
  sql: Sql,
  options: { schema: string; dir: string; log: Logger },
): Promise<MigrationResult> {
  const { schema, dir, log } = options;
  if (!SCHEMA_NAME.test(schema)) throw new Error(`bad schema name: ${schema}`);
  const files = (await readdir(dir)).filter((f) => /^\d{4}-[\w-]+\.sql$/.test(f)).sort();
  const reserved = await sql.reserve();
  try {
    await reserved`select pg_advisory_lock(hashtext(${'fieldwork.migrate.' + schema}))`;
    await reserved.unsafe(`create schema if not exists ${schema}`);
    await reserved.unsafe(`create table if not exists ${schema}.schema_migrations (
      version int primary key,
      name text not null,
      applied_at timestamptz(3) not null default now()
    )`);
    const done = new Map(
      (
        await reserved.unsafe<{ version: number; name: string }[]>(
          `select version, name from ${schema}.schema_migrations`,
        )
      ).map((r) => [r.version, r.name]),
    );
    const known = new Map(files.map((f) => [Number.parseInt(f.slice(0, 4), 10), f]));
    // Two files with one number (branches merged, each adding "the next" migration): only one would ever run.
    if (known.size !== files.length) {
      const seen = new Set<number>();
      const twice = files.filter((f) => {
        const v = Number.parseInt(f.slice(0, 4), 10);
        return seen.has(v) || !seen.add(v);
      });
      throw new Error(`${schema}: two migrations share a number: ${twice.join(', ')}`);
    }
    for (const [version, name] of done) {
      const file = known.get(version);
      if (file === undefined) throw new Error(`${schema}: migration ${name} is recorded but its file is missing`);
      if (file !== name)
        throw new Error(`${schema}: migration ${version} was applied as ${name} but the file is now ${file}`);
    }
    const applied: string[] = [];
    for (const file of files) {
      const version = Number.parseInt(file.slice(0, 4), 10);
      if (done.has(version)) continue;
      const text = await readFile(join(dir, file), 'utf8');
      await reserved.unsafe('begin');
      try {
        await reserved.unsafe(`set local search_path to ${schema}`);
        await reserved.unsafe(text);
        await reserved.unsafe(`insert into ${schema}.schema_migrations (version, name) values ($1, $2)`, [
          version,
          file,
        ]);
        await reserved.unsafe('commit');
      } catch (err) {
        await reserved.unsafe('rollback');
        throw new Error(`${schema}: migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(file);
      log.info({ schema, migration: file }, 'migration applied');
    }
    return { applied, total: files.length };
  } finally {
    await reserved`select pg_advisory_unlock(hashtext(${'fieldwork.migrate.' + schema}))`.catch(() => {});
    reserved.release();
  }
}

/**
 * Runs `fn` in a transaction. The transaction handle is typed as a plain `Sql` so stores take either; stores only
 * use tagged queries on it (never begin/listen/end). Given a transaction's handle (a store made with one), `fn`
 * runs in a savepoint of that transaction, which has no begin.
 */
export function transaction<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  const outer = sql as unknown as { begin?: unknown; savepoint?: (f: (tx: unknown) => Promise<T>) => Promise<T> };
  if (typeof outer.begin !== 'function' && typeof outer.savepoint === 'function')
    return outer.savepoint((tx) => fn(tx as Sql));
  return sql.begin((tx) => fn(tx as unknown as Sql)) as Promise<T>;
}

/** Maps driver errors to what they mean for the domain (ODK's postgresErrorToProblem). */
export function pgErrorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_NOT_NULL_VIOLATION = '23502';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
