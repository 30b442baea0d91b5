// A deployment whose aggregates were counted before the rollups existed (clickhouse/0013-rollups.sql): the migration
// marks its projects to be counted again, the results writer counts them at its start (their counted states made
// again from the answers' tables), and the rollups then answer exactly what the cube answers; until then the project
// is not ready (its requests scan).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { filterModel } from '@fieldwork/sampler';
import { ChdbEngine } from '../../src/engine/chdb.engine.js';
import { migrateClickhouse, MIGRATIONS_DIR } from '../../src/engine/migrate.js';
import { rowsOf, type ResponseEvent } from '../../src/domain/rows.js';
import { Aggregator } from '../../src/ingest/aggregator.js';
import { AggregatesStore } from '../../src/store/aggregates.store.js';
import { IngestStore } from '../../src/store/ingest.store.js';
import { StateStore } from '../../src/store/state.store.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-rollups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = createLogger('rollups-upgrade-test', 'silent');

const event = (n: number, patch: Partial<ResponseEvent> = {}): ResponseEvent => ({
  response_id: `r${n}`,
  version: 1,
  project: 3,
  schema: 1,
  user: 1 + (n % 2),
  site: 1 + (n % 3),
  group: null,
  team: null,
  completed: n % 2 === 0,
  deleted: false,
  archived: false,
  parent_id: null,
  geotag: null,
  time_created: new Date(Date.UTC(2026, n % 2, 1 + n)).toISOString(),
  time_updated: new Date(Date.UTC(2026, 2, 1)).toISOString(),
  time_completed: null,
  time_uploaded: new Date(Date.UTC(2026, 2, 1)).toISOString(),
  data: { '0': { 10: n, 11: [1 + (n % 2)] } },
  ...patch,
});

it('counts the projects of an upgraded deployment again, and the rollups then answer what the cube answers', async () => {
  const engine = new ChdbEngine(join(dir, 'chdb'));
  const db = 'fieldwork_rollups';
  try {
    const before = join(dir, 'before');
    mkdirSync(before);
    const src = fileURLToPath(MIGRATIONS_DIR);
    for (const f of readdirSync(src).filter((f) => f.endsWith('.sql') && f < '0013'))
      copyFileSync(join(src, f), join(before, f));
    await migrateClickhouse(engine, db, log, before);
    // Counted and stored as the results writer did before the rollups: two batches, an edit and a deletion.
    const ingest = new IngestStore(engine, db);
    const old = new Aggregator(new StateStore(engine, db), log);
    for (const batch of [
      Array.from({ length: 12 }, (_, i) => event(i + 1)),
      [event(4, { version: 2, site: 3, data: { '0': { 10: 400, 11: [2] } } }), event(5, { version: 2, deleted: true })],
    ]) {
      await old.write(batch);
      const rows = batch.map(rowsOf);
      await ingest.insertBatch(
        rows.map((r) => r.response),
        rows.flatMap((r) => r.answers),
      );
    }
    const store = new AggregatesStore(engine, db);
    expect(await store.project(3)).toEqual({ tz: 'UTC', ready: true });

    expect(await migrateClickhouse(engine, db, log)).toEqual(['0013-rollups.sql']);
    // Not ready: the project's requests scan until it is counted again.
    expect(await store.project(3)).toEqual({ tz: 'UTC', ready: false });
    // The writer's start (before its first batch).
    const writer = new Aggregator(new StateStore(engine, db), log);
    await writer.repair();
    expect(await store.project(3)).toEqual({ tz: 'UTC', ready: true });

    const scope = { all: true, userId: 1, sites: [] };
    const sites = filterModel.parse({ site: [1, 3] });
    const january = filterModel.parse({
      date_ranges: [
        {
          entity: 'response',
          dateType: 'time_created',
          startDateTime: Date.UTC(2026, 0, 1) / 1000,
          endDateTime: (Date.UTC(2026, 1, 1) - 1) / 1000,
        },
      ],
    });
    const days = [{ column: 'time_created' as const, from: '2026-01-01', to: '2026-01-31' }];
    const read = async (f: ReturnType<typeof filterModel.parse>, table: 'sites' | 'months' | 'cube', d = days) => {
      const w = store.where(3, 1, f, scope, { path: 'aggregates', table, days: table === 'sites' ? [] : d });
      const where = { ...w, params: { ...w.params, tz: 'UTC' } };
      const bySite = store.comparison({ by: 'site' }, 'time_created');
      return {
        level: (await store.level(where, 'time_created'))?.n,
        numbers: (await store.numberStats(where, [10])).map((r) => [r.count, r.sum, r.min, r.max]),
        choices: await store.choiceCounts(where, [11]),
        compared: await store.comparedNumbers(where, bySite, 10),
      };
    };
    // Sites 1 and 3 (site 1 + n % 3; response 4 moved from site 2 to site 3, response 5 deleted), by hand: 2, 3,
    // 4 (400), 6, 8, 9, 11, 12.
    const bySites = await read(sites, 'sites');
    expect(bySites.level).toBe('8');
    expect(bySites.numbers).toEqual([[8, 2 + 3 + 400 + 6 + 8 + 9 + 11 + 12, 2, 400]]);
    expect(bySites).toEqual(await read(sites, 'cube', []));
    // January: the even responses (time_created in January), 5 deleted is odd: 2, 4 (400), 6, 8, 10, 12.
    const inJanuary = await read(january, 'months');
    expect(inJanuary.numbers).toEqual([[6, 2 + 400 + 6 + 8 + 10 + 12, 2, 400]]);
    expect(inJanuary).toEqual(await read(january, 'cube'));
  } finally {
    await engine.close();
  }
}, 120_000);
