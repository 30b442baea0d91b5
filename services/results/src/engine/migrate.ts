// ClickHouse schema migrations: the files of clickhouse/ in name order, each applied once and recorded in
// {db}.fieldwork_migrations. Statements are separated by a semicolon at the end of a line; {db} is the database.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@fieldwork/service-kit';
import type { Engine } from './engine.js';

export const MIGRATIONS_DIR = new URL('../../clickhouse/', import.meta.url);

export function statements(text: string, db: string): string[] {
  return text
    .replace(/^--.*$/gm, '')
    .split(/;\s*$/m)
    .map((s) => s.trim().replaceAll('{db}', db))
    .filter((s) => s !== '');
}

/**
 * The statements for a ClickHouse cluster (CLICKHOUSE_CLUSTER): each data table becomes `<table>_local`, a
 * ReplicatedReplacingMergeTree (ReplicatedSummingMergeTree for the results cache's marks) on every node (`{shard}`
 * and `{replica}` come from the servers' macros), with a Distributed table `<table>` over them, sharded by project so
 * that every version of a response lands on one shard (FINAL then deduplicates within the shard). ALTERs go to both.
 * Every statement runs ON CLUSTER. Pure.
 */
export function clusterStatements(stmts: string[], cluster: string, db: string): string[] {
  const on = `ON CLUSTER ${quoteIdent(cluster)}`;
  const out: string[] = [];
  for (const s of stmts) {
    const create =
      /^CREATE TABLE IF NOT EXISTS (\S+)\.(\w+)\s*\(([\s\S]*)\)\s*ENGINE\s*=\s*(Replacing|Summing)MergeTree\((\w*)\)([\s\S]*)$/i.exec(
        s,
      );
    const alter = /^ALTER TABLE (\S+)\.(\w+)\s+([\s\S]*)$/i.exec(s);
    if (create) {
      const [, database, table, columns, kind, version, rest] = create;
      out.push(
        `CREATE TABLE IF NOT EXISTS ${database}.${table}_local ${on} (${columns}) ENGINE = Replicated${kind}MergeTree('/clickhouse/tables/{shard}/${db}/${table}', '{replica}'${version ? `, ${version}` : ''})${rest}`,
        `CREATE TABLE IF NOT EXISTS ${database}.${table} ${on} AS ${database}.${table}_local ENGINE = Distributed(${quoteIdent(cluster)}, ${database}, ${table}_local, cityHash64(project_id))`,
      );
    } else if (alter) {
      const [, database, table, change] = alter;
      out.push(
        `ALTER TABLE ${database}.${table}_local ${on} ${change}`,
        `ALTER TABLE ${database}.${table} ${on} ${change}`,
      );
    } else {
      out.push(s);
    }
  }
  return out;
}

const quoteIdent = (s: string) => (/^\w+$/.test(s) ? s : `\`${s.replace(/`/g, '')}\``);

export async function migrateClickhouse(
  engine: Engine,
  db: string,
  log: Logger,
  dir = MIGRATIONS_DIR,
  cluster = '',
): Promise<string[]> {
  const on = cluster ? ` ON CLUSTER ${quoteIdent(cluster)}` : '';
  await engine.exec(`CREATE DATABASE IF NOT EXISTS ${db}${on}`);
  await engine.exec(
    `CREATE TABLE IF NOT EXISTS ${db}.fieldwork_migrations (name String, applied_at DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY name`,
  );
  const done = new Set(
    (await engine.query<{ name: string }>(`SELECT name FROM ${db}.fieldwork_migrations`)).map((r) => r.name),
  );
  const path = dir instanceof URL ? dir.pathname : dir;
  const files = (await readdir(path)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const f of files) {
    if (done.has(f)) continue;
    const list = statements(await readFile(join(path, f), 'utf8'), db);
    for (const s of cluster ? clusterStatements(list, cluster, db) : list) await engine.exec(s);
    await engine.insert(`${db}.fieldwork_migrations`, [{ name: f }]);
    applied.push(f);
    log.info({ migration: f }, 'clickhouse migration applied');
  }
  return applied;
}

/** Drops the data tables (the migrations run again afterwards): the first step of a rebuild. */
export async function dropClickhouse(engine: Engine, db: string, cluster = ''): Promise<void> {
  const on = cluster ? ` ON CLUSTER ${quoteIdent(cluster)} SYNC` : '';
  const tables = cluster ? ['answers', 'answers_local', 'responses', 'responses_local'] : ['answers', 'responses'];
  for (const t of [...tables, 'fieldwork_migrations'])
    await engine.exec(`DROP TABLE IF EXISTS ${db}.${t}${t === 'fieldwork_migrations' ? '' : on}`);
}
