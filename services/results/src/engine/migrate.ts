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

export async function migrateClickhouse(engine: Engine, db: string, log: Logger, dir = MIGRATIONS_DIR): Promise<string[]> {
  await engine.exec(`CREATE DATABASE IF NOT EXISTS ${db}`);
  await engine.exec(`CREATE TABLE IF NOT EXISTS ${db}.fieldwork_migrations (name String, applied_at DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY name`);
  const done = new Set((await engine.query<{ name: string }>(`SELECT name FROM ${db}.fieldwork_migrations`)).map((r) => r.name));
  const path = dir instanceof URL ? dir.pathname : dir;
  const files = (await readdir(path)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const f of files) {
    if (done.has(f)) continue;
    for (const s of statements(await readFile(join(path, f), 'utf8'), db)) await engine.exec(s);
    await engine.insert(`${db}.fieldwork_migrations`, [{ name: f }]);
    applied.push(f);
    log.info({ migration: f }, 'clickhouse migration applied');
  }
  return applied;
}

/** Drops the data tables (the migrations run again afterwards): the first step of a rebuild. */
export async function dropClickhouse(engine: Engine, db: string): Promise<void> {
  for (const t of ['answers', 'responses', 'fieldwork_migrations']) await engine.exec(`DROP TABLE IF EXISTS ${db}.${t}`);
}
