// The results service's stores against embedded chDB: rows written with IngestStore are read back by ResultsStore and
// CountStore through the WHERE clause built from the filter model and the caller's scope, and the compactor's part
// count and merge work. (Figures through the whole service are in gateway/test/results.e2e.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { filterModel } from '@fieldwork/sampler';
import { ChdbEngine } from '../../src/engine/chdb.engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { migrateClickhouse } from '../../src/engine/migrate.js';
import { rowsOf, type ResponseEvent } from '../../src/domain/rows.js';
import { PurgeService } from '../../src/service/purge.service.js';
import { CountStore } from '../../src/store/count.store.js';
import { IngestStore } from '../../src/store/ingest.store.js';
import { PurgeStore } from '../../src/store/purge.store.js';
import { ResultsStore } from '../../src/store/results.store.js';
import { MarkStore } from '../../src/store/marks.store.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-stores-'));
const db = `fieldwork_stores_${Date.now()}`;
const engine = new ChdbEngine(join(dir, 'chdb'));
const ingest = new IngestStore(engine, db);
const results = new ResultsStore(engine, db);
const counts = new CountStore(engine, db);
const all = { all: true, userId: 1, sites: [] };

function event(n: number, patch: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    response_id: `r${n}`,
    version: 1,
    project: 7,
    schema: 1,
    user: 1 + (n % 2),
    site: 1 + (n % 2),
    group: null,
    team: null,
    completed: true,
    deleted: false,
    archived: false,
    parent_id: null,
    geotag: null,
    time_created: new Date(Date.UTC(2026, 0, n)).toISOString(),
    time_updated: new Date(Date.UTC(2026, 0, n, 1)).toISOString(),
    time_completed: null,
    time_uploaded: new Date(Date.UTC(2026, 0, n, 2)).toISOString(),
    data: { '0': { 10: n * 10, 11: [1 + (n % 2)] } },
    ...patch,
  };
}

beforeAll(async () => {
  await migrateClickhouse(engine, db, createLogger('stores-test', 'silent'));
  const rows = [1, 2, 3, 4].map((n) => rowsOf(event(n)));
  await ingest.insertBatch(
    rows.map((r) => r.response),
    rows.flatMap((r) => r.answers),
  );
  const child = rowsOf(event(5, { parent_id: 'r1', schema: 2 }));
  await ingest.insertBatch([child.response], child.answers);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(ResultsStore.name, () => {
  it('reads responses, levels, numbers, choices and profiles through the filters and the scope', async () => {
    const where = results.where(7, 1, filterModel.parse({}), all);
    expect(await results.responseIds(where)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(Number((await results.level(where, 'time_created'))?.n)).toBe(4);
    const [stats] = await results.numberStats(where, [10]);
    expect([Number(stats!.count), stats!.sum, stats!.min, stats!.max]).toEqual([4, 100, 10, 40]);
    const choices = await results.choiceCounts(where, [11]);
    expect(Number(choices[0]!.answered)).toBe(4);
    // A read_sites caller sees their own responses and those of their sites.
    const mine = results.where(7, 1, filterModel.parse({}), { all: false, userId: 2, sites: [] });
    expect(await results.responseIds(mine)).toEqual(['r1', 'r3']);
    expect(await results.responseIds(results.restrict(where, ['r2', 'r4']))).toEqual(['r2', 'r4']);
    expect(await results.hasResponse(where, 'r1')).toBe(true);
    expect(await results.childResponses(7, ['r1'])).toEqual(['r5']);
    const bySite = await results.comparedNumbers(where, results.comparison({ by: 'site' }, 'time_created'), 10);
    expect(bySite.map((r) => [r.key, Number(r.count)])).toEqual([
      ['1', 2],
      ['2', 2],
    ]);
  });
});

describe('ResultsStore numbers', () => {
  it('answers exact quartiles, the sample variance, and the same histogram from the kept distribution as in SQL', async () => {
    const where = results.where(7, 1, filterModel.parse({}), all);
    // Answers 10, 20, 30, 40: quartiles interpolated at (n - 1) p = 0.75, 1.5, 2.25; variance 500 / 3.
    const [stats] = await results.numberStats(where, [10]);
    expect(stats!.q).toEqual([17.5, 25, 32.5]);
    expect(stats!.var).toBeCloseTo(500 / 3, 9);
    expect(stats!.stddev).toBeCloseTo(Math.sqrt(500 / 3), 9);
    expect(stats!.avg).toBe(25);
    // Three bins of 10 from 10: 10 | 20 | 30 and 40 (the last bin holds the maximum).
    const expected = [
      { item_id: 10, bin: 0, count: '1' },
      { item_id: 10, bin: 1, count: '1' },
      { item_id: 10, bin: 2, count: '2' },
    ];
    expect(await results.histogramBins(where, [10], [10], [10], 3)).toEqual(expected);
    // A store that read no distribution counts the bins in ClickHouse.
    const fresh = new ResultsStore(engine, db);
    expect(await fresh.histogramBins(where, [10], [10], [10], 3)).toEqual(expected);
    const [choices] = await results.choiceCounts(where, [11]);
    expect(choices).toEqual({
      item_id: 11,
      answered: '4',
      m: [
        [1, 2],
        ['2', '2'],
      ],
    });
  });
});

describe(CountStore.name, () => {
  it('counts per schema and site', async () => {
    const rows = await counts.countsBySchemaAndSite(7);
    expect(rows.map((r) => [r.schema_id, r.site_id, Number(r.total)]).sort()).toEqual([
      ['1', '1', 2],
      ['1', '2', 2],
      ['2', '2', 1],
    ]);
  });
});

describe(IngestStore.name, () => {
  it('reports what it holds', async () => {
    expect(Number((await ingest.responseStatus(7))?.responses)).toBe(5);
    expect(await ingest.answerCount(0)).toBe(10);
  });
});

describe(`${ResultsStore.name} lookupPage`, () => {
  it('pages the profiles in natural order of their answer, searched case-insensitively, with the count of matches', async () => {
    const names = ['Household 10', 'household 2', 'Household 1', 'Apple'];
    const rows = names.map((name, i) => rowsOf(event(20 + i, { project: 8, data: { '0': { 20: name } } })));
    await ingest.insertBatch(
      rows.map((r) => r.response),
      rows.flatMap((r) => r.answers),
    );
    const where = results.where(8, 1, filterModel.parse({}), all);
    const page = async (q: string, limit: number, offset: number) => {
      const p = await results.lookupPage(where, [20], q, limit, offset);
      const value = new Map(p.rows.map((r) => [r.response_id, r.value]));
      return [p.count, p.ids.map((id) => value.get(id))];
    };
    expect(await page('', 10, 0)).toEqual([4, ['Apple', 'Household 1', 'household 2', 'Household 10']]);
    expect(await page('HOUSE', 2, 1)).toEqual([3, ['household 2', 'Household 10']]);
    expect(await page('zebra', 2, 0)).toEqual([0, []]);
  });
});

describe(MarkStore.name, () => {
  // Read from the table, as with a ClickHouse server (with chDB, marks are read from the process by default: below).
  const marks = new MarkStore(engine, db, '', { fromTable: true });

  it("moves a project's mark when it is touched, and no other project's", async () => {
    const [seven, eight] = [await marks.read(7), await marks.read(8)];
    expect(seven.settled).toBe(true);
    expect(await marks.read(7)).toEqual(seven);
    await marks.touch([8]);
    expect((await marks.read(7)).key).toBe(seven.key);
    const touched = (await marks.read(8)).key;
    expect(touched).not.toBe(eight.key);
    // The same block again counts again (no insert deduplication), and a batch's projects count once each.
    await marks.touchRows([{ project_id: 8 }, { project_id: 8 }]);
    expect((await marks.read(8)).key).not.toBe(touched);
    expect((await marks.read(7)).key).toBe(seven.key);
  });

  it('keeps every key through merges, and moves them all when the whole store is touched', async () => {
    await marks.touch([7, 8]);
    await marks.touch([7]);
    const [seven, eight] = [await marks.read(7), await marks.read(8)];
    // A merge, forced here (in service ClickHouse's own background merges do it).
    await engine.exec(`OPTIMIZE TABLE ${db}.project_marks FINAL`);
    const [parts] = await engine.query<{ n: string }>(
      `SELECT count() AS n FROM system.parts WHERE database = {db:String} AND table = 'project_marks' AND active`,
      { db },
    );
    expect(Number(parts!.n)).toBe(1);
    expect([await marks.read(7), await marks.read(8)]).toEqual([seven, eight]);
    await marks.touchAll();
    expect((await marks.read(7)).key).not.toBe(seven.key);
    expect((await marks.read(8)).key).not.toBe(eight.key);
  });

  it("is moved by a purge, once the project's rows are gone", async () => {
    const other = rowsOf(event(6, { project: 8 }));
    await ingest.insertBatch([other.response], other.answers);
    const [seven, eight] = [await marks.read(7), await marks.read(8)];
    const purge = new PurgeService(new PurgeStore(engine, db), marks);
    await purge.purge({ project_id: 8, dry_run: true, limit: 0 });
    expect((await marks.read(8)).key).toBe(eight.key);
    expect(await purge.purge({ project_id: 8, dry_run: false, limit: 0 })).toMatchObject({ remaining: 0 });
    expect((await marks.read(8)).key).not.toBe(eight.key);
    expect((await marks.read(7)).key).toBe(seven.key);
  });

  it("with chDB, reads the process's own count of its writes: the same changes as the table's", async () => {
    const own = new MarkStore(engine, db);
    const [seven, eight] = [await own.read(7), await own.read(8)];
    expect(seven.settled).toBe(true);
    await marks.touch([8]);
    expect((await own.read(7)).key).toBe(seven.key);
    expect((await own.read(8)).key).not.toBe(eight.key);
    const touched = await own.read(8);
    await own.touchAll();
    expect((await own.read(8)).key).not.toBe(touched.key);
    expect((await own.read(7)).key).not.toBe(seven.key);
  });

  it('on a cluster, reads every replica and what is still on its way, in SQL ClickHouse parses', async () => {
    // No cluster runs here (docs/scaling.md): the statements are captured and parsed by chDB (EXPLAIN AST).
    const seen: { sql: string; params?: Record<string, unknown> }[] = [];
    const capture: Engine = {
      name: 'server',
      exec: async (sql) => void seen.push({ sql }),
      query: async <T>(sql: string, params?: Record<string, unknown>) => {
        seen.push({ sql, params });
        return [] as T[];
      },
      insert: async () => undefined,
      close: async () => undefined,
    };
    const onCluster = new MarkStore(capture, db, 'main');
    await onCluster.touch([7]);
    expect(await onCluster.read(7)).toEqual({ key: '', settled: true });
    expect(seen[0]!.sql).toContain('insert_distributed_sync = 1');
    expect(seen[1]!.sql).toContain(`clusterAllReplicas('main', ${db}.project_marks_local)`);
    expect(seen[1]!.sql).toContain("clusterAllReplicas('main', system.replicas)");
    expect(seen[1]!.sql).toContain("clusterAllReplicas('main', system.distribution_queue)");
    for (const { sql, params } of seen) await engine.query(`EXPLAIN AST ${sql}`, params);
    expect(() => new MarkStore(capture, db, "main'; DROP")).toThrow('unusable cluster name');
  });
});
