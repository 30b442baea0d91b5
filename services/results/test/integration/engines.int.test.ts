// One SQL dialect, two engines: the same migrations, inserts and parameterised queries against embedded chDB, and
// against a ClickHouse server when CLICKHOUSE_TEST_URL is set (e.g. http://default:@127.0.0.1:8123; skipped here,
// where no server runs).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
          '0012-partitions.sql',
          '0013-rollups.sql',
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

  it.skipIf(!enabled)(
    'repartitions the answers tables of a deployment with data: every row kept, each month its own partition',
    async () => {
      const engine = make();
      const db = `fieldwork_upgrade_${Date.now()}`;
      // The deployment before 0012: the migrations up to 0010, with rows in both tables over two months.
      const before = join(dir, `before-${Date.now()}`);
      mkdirSync(before);
      const src = fileURLToPath(MIGRATIONS_DIR);
      for (const f of readdirSync(src).filter((f) => f.endsWith('.sql') && f < '0012'))
        copyFileSync(join(src, f), join(before, f));
      try {
        await migrateClickhouse(engine, db, log, before);
        const at = (n: number) => (n % 2 === 0 ? '2026-01-15 10:00:00.000' : '2026-02-15 10:00:00.000');
        const rows = (version: number, deleted = 0) =>
          [1, 2, 3, 4].map((n) => ({ ...response(n, version, deleted), time_created: at(n) }));
        await engine.insert(`${db}.responses`, rows(1));
        await engine.insert(`${db}.responses`, rows(2, 1).slice(0, 1));
        await engine.insert(
          `${db}.answers`,
          [1, 2, 3, 4].map((n) => ({
            project_id: 7,
            schema_id: 1,
            item_id: 5,
            response_id: `r${n}`,
            repeat: 0,
            version: 1,
            removed: 0,
            num: n * 10,
            text: '',
            choices: [],
            date: null,
            lng: null,
            lat: null,
            user_id: 1,
            site_id: 1,
            group_id: 0,
            team_id: 0,
            completed: 1,
            deleted: 0,
            time_created: at(n),
            time_updated: at(n),
            time_completed: null,
            time_uploaded: at(n),
          })),
        );
        // The upgrade: the migrations from 0012 on.
        expect(await migrateClickhouse(engine, db, log)).toEqual(['0012-partitions.sql', '0013-rollups.sql']);
        const kept = await engine.query<{ n: string; deleted: string }>(
          `SELECT count() AS n, sum(deleted) AS deleted FROM ${db}.responses FINAL WHERE project_id = 7`,
        );
        expect(kept.map((r) => [Number(r.n), Number(r.deleted)])).toEqual([[4, 1]]);
        const sum = await engine.query<{ s: number }>(
          `SELECT sum(num) AS s FROM ${db}.answers FINAL WHERE project_id = 7 AND item_id = 5`,
        );
        expect(Number(sum[0]!.s)).toBe(100);
        const partitions = await engine.query<{ table: string; partition: string }>(
          `SELECT DISTINCT table, partition FROM system.parts WHERE database = '${db}' AND active
             AND table IN ('responses', 'answers') ORDER BY table, partition`,
        );
        expect(partitions.map((p) => `${p.table} ${p.partition}`)).toEqual([
          'answers (0,202601)',
          'answers (0,202602)',
          'responses (0,202601)',
          'responses (0,202602)',
        ]);
        // No table is left behind.
        const left = await engine.query<{ name: string }>(
          `SELECT name FROM system.tables WHERE database = '${db}' AND name LIKE '%_next'`,
        );
        expect(left).toEqual([]);
      } finally {
        await dropClickhouse(engine, db).catch(() => undefined);
        await engine.exec(`DROP DATABASE IF EXISTS ${db}`).catch(() => undefined);
        await engine.close();
      }
    },
    60_000,
  );
});
