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
 * The statements for a ClickHouse cluster (CLICKHOUSE_CLUSTER): each data table becomes `<table>_local` on every node
 * (a MergeTree-family engine becomes its Replicated form, `{shard}` and `{replica}` from the servers' macros; a Null
 * table stays Null), with a Distributed table `<table>` over them, sharded by project so that every version of a
 * response, its state and its aggregates land on one shard (FINAL and the signed sums then work within the shard; a
 * table without project_id is spread at random). A materialized view reads and writes the local tables of its node.
 * ALTERs and DROPs go to both; EXCHANGE swaps the local tables (each Distributed table keeps pointing at its local
 * name, so it reads the swapped data). Every statement runs ON CLUSTER except INSERT ... SELECT (a copy or a
 * backfill), which cannot: it runs once, through the Distributed tables, waiting until every shard has its rows. Pure.
 */
export function clusterStatements(stmts: string[], cluster: string, db: string): string[] {
  const on = `ON CLUSTER ${quoteIdent(cluster)}`;
  const out: string[] = [];
  for (const s of stmts) {
    const create =
      /^CREATE TABLE IF NOT EXISTS (\S+)\.(\w+)\s*\(([\s\S]*)\)\s*ENGINE\s*=\s*(\w*MergeTree|Null)(?:\((\w*)\))?([\s\S]*)$/i.exec(
        s,
      );
    const view = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\S+)\.(\w+) TO (\S+)\.(\w+) AS([\s\S]*)$/i.exec(s);
    const alter = /^ALTER TABLE (\S+)\.(\w+)\s+([\s\S]*)$/i.exec(s);
    const exchange = /^EXCHANGE TABLES (\S+)\.(\w+) AND (\S+)\.(\w+)$/i.exec(s);
    const drop = /^DROP TABLE IF EXISTS (\S+)\.(\w+)$/i.exec(s);
    const insert = /^INSERT INTO (\S+(?:\s*\([^)]*\))?)\s+SELECT\b([\s\S]*)$/i.exec(s);
    if (create) {
      const [, database, table, columns, engine, args, rest] = create;
      const local =
        engine!.toLowerCase() === 'null'
          ? 'Null'
          : `Replicated${engine}('/clickhouse/tables/{shard}/${db}/${table}', '{replica}'${args ? `, ${args}` : ''})`;
      const shard = /^\s*project_id\s/m.test(columns!) ? 'cityHash64(project_id)' : 'rand()';
      out.push(
        `CREATE TABLE IF NOT EXISTS ${database}.${table}_local ${on} (${columns}) ENGINE = ${local}${rest}`,
        `CREATE TABLE IF NOT EXISTS ${database}.${table} ${on} AS ${database}.${table}_local ENGINE = Distributed(${quoteIdent(cluster)}, ${database}, ${table}_local, ${shard})`,
      );
    } else if (view) {
      const [, database, name, targetDb, target, select] = view;
      // The view's source and target are the node's local tables.
      const local = select!.replace(
        new RegExp(`\\b${database!.replace(/[.]/g, '\\.')}\\.(\\w+)\\b`, 'g'),
        `${database}.$1_local`,
      );
      out.push(
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.${name} ${on} TO ${targetDb}.${target}_local AS${local}`,
      );
    } else if (alter) {
      const [, database, table, change] = alter;
      out.push(
        `ALTER TABLE ${database}.${table}_local ${on} ${change}`,
        `ALTER TABLE ${database}.${table} ${on} ${change}`,
      );
    } else if (exchange) {
      const [, a, x, b, y] = exchange;
      out.push(`EXCHANGE TABLES ${a}.${x}_local AND ${b}.${y}_local ${on}`);
    } else if (drop) {
      const [, database, table] = drop;
      out.push(
        `DROP TABLE IF EXISTS ${database}.${table} ${on} SYNC`,
        `DROP TABLE IF EXISTS ${database}.${table}_local ${on} SYNC`,
      );
    } else if (insert) {
      const [, target, select] = insert;
      out.push(`INSERT INTO ${target} SETTINGS distributed_foreground_insert = 1 SELECT${select}`);
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
  dir: URL | string = MIGRATIONS_DIR,
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

/** The tables of the migrations (clickhouse/*.sql), and the materialized views among them. */
export const DATA_TABLES = [
  'answers',
  'responses',
  'response_state',
  'state_changes',
  'agg_values',
  'agg_sites',
  'agg_months',
  'agg_cube',
  'agg_responses',
  'agg_words',
  'agg_words_months',
  'agg_times',
  'agg_texts',
  'agg_durations',
  'agg_projects',
  'agg_journal',
  // Left by a repartitioning (0012-partitions.sql) that stopped halfway.
  'responses_next',
  'answers_next',
] as const;
export const DATA_VIEWS = [
  'agg_values_mv',
  'agg_sites_mv',
  'agg_months_mv',
  'agg_cube_mv',
  'agg_responses_mv',
  'agg_words_mv',
  'agg_words_months_mv',
  'agg_times_mv',
  'agg_texts_mv',
  'agg_durations_mv',
  'response_state_mv',
] as const;

/** Drops the data tables (the migrations run again afterwards): the first step of a rebuild. */
export async function dropClickhouse(engine: Engine, db: string, cluster = ''): Promise<void> {
  const on = cluster ? ` ON CLUSTER ${quoteIdent(cluster)} SYNC` : '';
  // Views first (they read the tables), then every table of the migrations.
  for (const v of DATA_VIEWS) await engine.exec(`DROP VIEW IF EXISTS ${db}.${v}${on}`);
  const tables = DATA_TABLES.flatMap((t) => (cluster ? [t, `${t}_local`] : [t]));
  for (const t of [...tables, 'fieldwork_migrations'])
    await engine.exec(`DROP TABLE IF EXISTS ${db}.${t}${t === 'fieldwork_migrations' ? '' : on}`);
}
