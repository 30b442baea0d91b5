// Migration 0011 on a deployment whose aggregates were counted before it (docs/results.md "Summary, performance and
// tracking", Durations): agg_durations is filled from the counted states, so the views' durations from the
// aggregates equal the scan's at once, and the changes after it are counted through the view as any other aggregate.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { rowsOf, type ResponseEvent } from '../../src/domain/rows.js';
import { ChdbEngine } from '../../src/engine/chdb.engine.js';
import { migrateClickhouse, MIGRATIONS_DIR } from '../../src/engine/migrate.js';
import { Aggregator } from '../../src/ingest/aggregator.js';
import { IngestStore } from '../../src/store/ingest.store.js';
import { StateStore } from '../../src/store/state.store.js';
import { ViewAggregatesStore } from '../../src/store/view-aggregates.store.js';
import { ViewsStore } from '../../src/store/views.store.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-durations-'));
const log = createLogger('durations-backfill-test', 'silent');
const db = 'fieldwork';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Response n: site 1 + n % 2, created at n hours, completed n × 7 s + 0.25 s later when n is odd. */
function event(n: number, patch: Partial<ResponseEvent> = {}): ResponseEvent {
  const created = Date.UTC(2026, 0, 5) + n * 3_600_000;
  return {
    response_id: `r${n}`,
    version: 1,
    project: 7,
    schema: 1,
    user: 1,
    site: 1 + (n % 2),
    group: null,
    team: null,
    completed: n % 2 === 1,
    deleted: false,
    archived: false,
    parent_id: null,
    geotag: null,
    time_created: new Date(created).toISOString(),
    time_updated: new Date(created).toISOString(),
    time_completed: n % 2 === 1 ? new Date(created + n * 7_000 + 250).toISOString() : null,
    time_uploaded: new Date(created).toISOString(),
    data: { '0': { 10: n } },
    ...patch,
  };
}

describe('migration 0011 (agg_durations)', () => {
  it('counts the durations of the states counted before it, then the changes after it', async () => {
    const engine = new ChdbEngine(join(dir, 'chdb'));
    try {
      // The deployment before 0011: the migrations up to 0010, responses ingested and counted.
      const before = join(dir, 'before');
      const all = fileURLToPath(MIGRATIONS_DIR);
      mkdirSync(before);
      for (const f of readdirSync(all).filter((f) => f.endsWith('.sql') && f < '0011'))
        copyFileSync(join(all, f), join(before, f));
      await migrateClickhouse(engine, db, log, pathToFileURL(`${before}/`));
      const aggregator = new Aggregator(new StateStore(engine, db), log);
      const ingest = new IngestStore(engine, db);
      const write = async (events: ResponseEvent[]) => {
        await aggregator.write(events);
        const rows = events.map(rowsOf);
        await ingest.insertBatch(
          rows.map((r) => r.response),
          rows.flatMap((r) => r.answers),
        );
      };
      await write([1, 2, 3, 4, 5, 6, 7].map((n) => event(n)));
      // r5 deleted, r3 reopened: their durations no longer count.
      await write([
        event(5, { version: 2, deleted: true }),
        event(3, { version: 2, completed: false, time_completed: null }),
      ]);

      // The upgrade to 0011 (the later migrations have their own tests).
      copyFileSync(join(all, '0011-durations.sql'), join(before, '0011-durations.sql'));
      expect(await migrateClickhouse(engine, db, log, pathToFileURL(`${before}/`))).toEqual(['0011-durations.sql']);
      const none = { site: [], group: [], team: [], user: [] };
      const figures = async () => {
        const out = [];
        for (const store of [new ViewsStore(engine, db), new ViewAggregatesStore(engine, db)]) {
          const where = store.where(7, 0, none, { all: true, userId: 1, sites: [] }, { start: null, end: null }, 'UTC');
          const rows = await store.grouped(where, 'site', 'UTC', { size: 10, offset: 0 });
          out.push(rows.map((r) => [r.key, r.avg_s, r.median_s]));
        }
        return out;
      };
      // Site 2 (odd n): r1 and r7 completed (7.25 s and 49.25 s); site 1 has none completed.
      let [scan, aggregates] = await figures();
      expect(aggregates).toEqual(scan);
      expect(scan).toEqual([
        ['1', null, null],
        ['2', 28.25, 28.25],
      ]);
      // After the migration the view counts: r3 completed again.
      await write([event(3, { version: 3 })]);
      [scan, aggregates] = await figures();
      expect(aggregates).toEqual(scan);
      expect(scan).toEqual([
        ['1', null, null],
        ['2', (7_250 + 21_250 + 49_250) / 3 / 1000, 21.25],
      ]);
    } finally {
      await engine.close();
    }
  });
});
