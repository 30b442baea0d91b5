// One SQL dialect, two engines: the same migrations, inserts and parameterised queries against embedded chDB, and
// against a ClickHouse server when CLICKHOUSE_TEST_URL is set (e.g. http://default:@127.0.0.1:8123; skipped here,
// where no server runs).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../src/engine/chdb.engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { dropClickhouse, migrateClickhouse, MIGRATIONS_DIR } from '../../src/engine/migrate.js';
import { ServerEngine } from '../../src/engine/server.engine.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-engines-'));
const serverUrl = process.env.CLICKHOUSE_TEST_URL ?? '';
const log = createLogger('engines-test', 'silent');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const engines: [string, () => Engine, boolean][] = [
  ['chdb', () => new ChdbEngine(join(dir, 'chdb')), true],
  ['server', () => new ServerEngine(serverUrl), serverUrl !== ''],
];

const response = (n: number, version: number, deleted = 0) => ({
  project_id: 7,
  schema_id: 1,
  response_id: `r${n}`,
  version,
  user_id: 1,
  site_id: 1 + (n % 2),
  group_id: 0,
  team_id: 0,
  completed: n % 2,
  deleted,
  archived: 0,
  parent_id: '',
  time_created: '2026-01-01 00:00:00.000',
  time_updated: '2026-01-01 00:00:00.000',
  time_completed: null,
  time_uploaded: '2026-01-01 00:00:00.000',
  lng: null,
  lat: null,
});

describe.each(engines)('the %s engine', (_name, make, enabled) => {
  it.skipIf(!enabled)(
    'migrates, inserts, converges on versions and binds parameters',
    async () => {
      const engine = make();
      const db = `fieldwork_engines_${Date.now()}`;
      try {
        // Every file of clickhouse/, in name order, once.
        const files = readdirSync(fileURLToPath(MIGRATIONS_DIR))
          .filter((f) => f.endsWith('.sql'))
          .sort();
        expect(files).toEqual([
          '0001-responses-answers.sql',
          '0002-ingested-at.sql',
          '0003-aggregates.sql',
          '0010-project-marks.sql',
          '0011-durations.sql',
        ]);
        expect(await migrateClickhouse(engine, db, log)).toEqual(files);
        expect(await migrateClickhouse(engine, db, log)).toEqual([]);
        await engine.insert(
          `${db}.responses`,
          [1, 2, 3].map((n) => response(n, 1)),
        );
        await engine.insert(`${db}.responses`, [response(2, 2, 1), response(3, 1)]);
        const rows = await engine.query<{ n: string; deleted: string }>(
          `SELECT count() AS n, sum(deleted) AS deleted FROM ${db}.responses FINAL WHERE project_id = {p:UInt64}`,
          { p: 7 },
        );
        expect(rows.map((r) => [Number(r.n), Number(r.deleted)])).toEqual([[3, 1]]);
        const sites = await engine.query<{ site_id: string }>(
          `SELECT DISTINCT site_id FROM ${db}.responses WHERE response_id IN {ids:Array(String)} ORDER BY site_id`,
          { ids: ['r1', 'r2'] },
        );
        expect(sites.map((r) => Number(r.site_id))).toEqual([1, 2]);
        // A quote in a parameter stays data.
        expect(
          Number(
            (
              await engine.query<{ n: string }>(
                `SELECT count() AS n FROM ${db}.responses WHERE response_id = {id:String}`,
                { id: "r1' OR '1'='1" },
              )
            )[0]!.n,
          ),
        ).toBe(0);
        // FINAL keeps the newest version of each response, whatever the parts.
        const merged = await engine.query<{ n: string; deleted: string }>(
          `SELECT count() AS n, sum(deleted) AS deleted FROM ${db}.responses FINAL WHERE project_id = {p:UInt64}`,
          { p: 7 },
        );
        expect(merged.map((r) => [Number(r.n), Number(r.deleted)])).toEqual([[3, 1]]);
      } finally {
        await dropClickhouse(engine, db).catch(() => undefined);
        await engine.exec(`DROP DATABASE IF EXISTS ${db}`).catch(() => undefined);
        await engine.close();
      }
    },
    60_000,
  );
});
