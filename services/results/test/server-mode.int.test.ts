// The results service's ClickHouse-server mode, run: the ServerEngine (@clickhouse/client, the engine a cluster is
// reached through) migrates, ingests and answers the results queries, and every answer equals the embedded chDB
// engine's on the same rows. No usable ClickHouse server installs here (Debian bookworm's clickhouse-server is
// 18.16.1: no {x:Type} parameters, DateTime64, Date32, now64, quantilesExactInclusive or ADD COLUMN IF NOT EXISTS;
// no npm package ships a server; docs/scaling.md), so the client's transport is chDB's (`chdb/connection`): the same
// SQL, the same parameter encoding (query_params formatted by the client) and the same JSONEachRow inserts a server
// gets. With CLICKHOUSE_TEST_URL set (e.g. http://default:@127.0.0.1:8123) a real server is compared as well.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChdbConnection } from 'chdb/connection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { filterModel } from '@fieldwork/sampler';
import { ChdbEngine } from '../src/engine/chdb.engine.js';
import type { Engine } from '../src/engine/engine.js';
import { dropClickhouse, migrateClickhouse, MIGRATIONS_DIR } from '../src/engine/migrate.js';
import { ServerEngine, type Transport } from '../src/engine/server.engine.js';
import { rowsOf, type ResponseEvent } from '../src/domain/rows.js';
import { CountStore } from '../src/store/count.store.js';
import { IngestStore } from '../src/store/ingest.store.js';
import { MarkStore } from '../src/store/marks.store.js';
import { ResultsStore } from '../src/store/results.store.js';
import { AggregatesStore } from '../src/store/aggregates.store.js';
import { StateStore } from '../src/store/state.store.js';
import { Aggregator } from '../src/ingest/aggregator.js';
import { ViewAggregatesStore } from '../src/store/view-aggregates.store.js';
import { ViewsStore } from '../src/store/views.store.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-server-mode-'));
// One chDB data directory per process: both engines open the same one, each in its own database.
const path = join(dir, 'chdb');
const log = createLogger('server-mode-test', 'silent');
const stamp = Date.now();
const serverUrl = process.env.CLICKHOUSE_TEST_URL ?? '';

function event(n: number, patch: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    response_id: `r${n}`,
    version: 1,
    project: 7,
    schema: 1,
    user: 1 + (n % 2),
    site: 1 + (n % 3),
    group: null,
    team: null,
    completed: n % 2 === 0,
    deleted: false,
    archived: false,
    parent_id: null,
    geotag: { coordinates: [2 + n / 10, 48 + n / 10] },
    time_created: new Date(Date.UTC(2026, 0, n)).toISOString(),
    time_updated: new Date(Date.UTC(2026, 0, n, 1)).toISOString(),
    time_completed: null,
    time_uploaded: new Date(Date.UTC(2026, 0, n, 2)).toISOString(),
    // 10: number, 11: choice (multi), 12: date, 13: text, 14: geotag.
    data: {
      '0': {
        10: n * 10,
        11: n % 4 === 0 ? [1, 2] : [1 + (n % 2)],
        12: `2026-02-${String(1 + (n % 3)).padStart(2, '0')}`,
        13: `text ${n}`,
        14: { type: 'Point', coordinates: [2 + n / 10, 48 + n / 10] },
      },
    },
    ...patch,
  };
}

/** Everything the results queries answer over the rows, on one engine. */
async function answers(engine: Engine, db: string) {
  const results = new ResultsStore(engine, db);
  const counts = new CountStore(engine, db);
  const ingest = new IngestStore(engine, db);
  // The service adds the time zone of the request to every query's parameters.
  const tz = (w: ReturnType<typeof results.where>) => ({ sql: w.sql, params: { ...w.params, tz: 'Europe/Paris' } });
  const all = tz(results.where(7, 1, filterModel.parse({}), { all: true, userId: 1, sites: [] }));
  const mine = results.where(7, 1, filterModel.parse({}), { all: false, userId: 2, sites: [] });
  const bySite = results.comparison({ by: 'site' }, 'time_created');
  const byMonth = results.comparison({ by: 'period', period: 'month' }, 'time_created');
  const sortBy = <T>(rows: T[], key: (r: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
  return {
    ids: await results.responseIds(all),
    mine: await results.responseIds(mine),
    restricted: await results.responseIds(results.restrict(all, ['r2', 'r9', 'nope'])),
    has: [await results.hasResponse(all, 'r1'), await results.hasResponse(mine, 'r2')],
    children: await results.childResponses(7, ['r1']),
    level: await results.level(all, 'time_created'),
    aggregates: sortBy(await results.itemAggregates(all, [10, 13]), (r) => String(r.item_id)),
    numbers: await results.numberStats(all, [10]),
    bins: sortBy(await results.histogramBins(all, [10], [0], [25], 4), (r) => `${r.item_id}-${r.bin}`),
    choices: await results.choiceCounts(all, [11]),
    dates: sortBy(await results.dateSeries(all, [12]), (r) => r.date),
    answered: sortBy(await results.answerCounts(all, [10, 11, 12, 13]), (r) => String(r.item_id)),
    geotags: [await results.geotagCount(all, 14), (await results.geotagPoints(all, 14, 1, 100)).length],
    lookups: sortBy(await results.lookupAnswers(all, [13]), (r) => r.response_id),
    comparedNumbers: await results.comparedNumbers(all, bySite, 10),
    comparedChoices: sortBy(await results.comparedChoices(all, bySite, 11), (r) => `${r.key}-${r.choice}`),
    comparedCounts: await results.comparedCounts(all, byMonth, 13),
    counts: sortBy(await counts.countsBySchemaAndSite(7), (r) => `${r.schema_id}-${r.site_id}`).map((r) => ({
      ...r,
      users: [...r.users].sort(),
    })),
    projects: await counts.countsByProject([7, 8]),
    status: (await ingest.responseStatus(7))?.responses,
    answerCount: await ingest.answerCount(7),
    aggregated: await aggregated(engine, db),
    views: {
      scan: await viewFigures(new ViewsStore(engine, db)),
      aggregates: await viewFigures(new ViewAggregatesStore(engine, db)),
    },
    // The results cache's marks: written (INSERT ... SETTINGS ... VALUES) and read back from the table, host left out.
    marks: await (async () => {
      const marks = new MarkStore(engine, db, '', { fromTable: true });
      await marks.touch([7, 8]);
      await marks.touch([7]);
      await marks.touchAll();
      return (await marks.read(7)).key.split(',').map((m) => m.slice(m.indexOf('/')));
    })(),
  };
}

/** The same statistics from the aggregates (kept by the Aggregator as the batches arrived). */
async function aggregated(engine: Engine, db: string) {
  const store = new AggregatesStore(engine, db);
  const none = filterModel.parse({});
  const scope = { all: true, userId: 1, sites: [] };
  const values = store.where(7, 1, none, scope, { path: 'aggregates', table: 'values', days: [] });
  const cube = store.where(7, 1, filterModel.parse({ site: [1, 2] }), scope, {
    path: 'aggregates',
    table: 'cube',
    days: [],
  });
  const sites = store.where(7, 1, filterModel.parse({ site: [1, 2] }), scope, {
    path: 'aggregates',
    table: 'sites',
    days: [],
  });
  const month = filterModel.parse({
    date_ranges: [
      {
        entity: 'response',
        dateType: 'time_created',
        startDateTime: Date.UTC(2026, 0, 1) / 1000,
        endDateTime: (Date.UTC(2026, 1, 1) - 1) / 1000,
      },
    ],
  });
  const months = store.where(7, 1, month, scope, {
    path: 'aggregates',
    table: 'months',
    days: [{ column: 'time_created', from: '2026-01-01', to: '2026-01-31' }],
  });
  const tz = <W extends { params: Record<string, unknown> }>(w: W) => ({ ...w, params: { ...w.params, tz: 'UTC' } });
  const bySite = store.comparison({ by: 'site' }, 'time_created');
  const out: Record<string, unknown> = { project: await store.project(7) };
  for (const [name, where] of [
    ['values', tz(values)],
    ['sites', tz(sites)],
    ['months', tz(months)],
    ['cube', tz(cube)],
  ] as const) {
    await store.prepare(where, [10, 11, 12, 13, 14]);
    out[name] = {
      level: await store.level(where, 'time_created'),
      numbers: await store.numberStats(where, [10]),
      choices: await store.choiceCounts(where, [11]),
      dates: await store.dateSeries(where, [12]),
      answered: await store.answerCounts(where, [10, 11, 12, 13]),
      samples: await store.textSamples(where, [13], 3),
      // A comparison is never planned on the per-value counts, which have no site.
      ...(name === 'values'
        ? {}
        : {
            compared: await store.comparedNumbers(where, bySite, 10),
            groups: await store.comparisonGroups(where, bySite),
          }),
    };
  }
  return out;
}

/** The figures of the views (summary, performance, tracking, pickers) from one of their two sources. */
async function viewFigures(store: ViewsStore | ViewAggregatesStore) {
  const none = { site: [], group: [], team: [], user: [] };
  const all = { all: true, userId: 1, sites: [] };
  const where = store.where(7, 0, none, all, { start: null, end: null }, 'UTC');
  const ranged = store.where(
    7,
    1,
    none,
    { all: false, userId: 2, sites: [1] },
    { start: '2026-01-01', end: '2026-12-31' },
    'UTC',
  );
  const page = { size: 2, offset: 0 };
  return {
    totals: await store.totals(where, 'UTC'),
    bySite: await store.grouped(where, 'site', 'UTC', page),
    byCollector: await store.grouped(ranged, 'collector', 'UTC', { size: 50, offset: 0 }),
    keyed: await store.grouped(ranged, 'site', 'UTC', page, [1, 2]),
    series: await store.series(where, 'month', 'UTC', 10),
    collectors: await store.collectors(where, 10),
  };
}

type Answers = Awaited<ReturnType<typeof answers>>;
const engines: [string, () => Engine][] = [
  ['chdb', () => new ChdbEngine(path)],
  // chdb declares the transport with its own copy of the client's types (client-common 1.23.0): the same shape.
  [
    'server mode over chDB',
    () => new ServerEngine('http://chdb', createChdbConnection({ path }) as unknown as Transport),
  ],
  ...(serverUrl ? ([['ClickHouse server', () => new ServerEngine(serverUrl)]] as [string, () => Engine][]) : []),
];
const got = new Map<string, Answers>();

beforeAll(async () => {
  // Sequentially: each engine migrates its own database, ingests the same rows in two batches (the second one
  // replaces versions and deletes one response), then answers.
  for (const [i, [name, make]] of engines.entries()) {
    const engine = make();
    const db = `fieldwork_server_mode_${stamp}_${i}`;
    try {
      // Every file of clickhouse/, in name order.
      expect(await migrateClickhouse(engine, db, log)).toEqual(
        readdirSync(MIGRATIONS_DIR)
          .filter((f) => f.endsWith('.sql'))
          .sort(),
      );
      const ingest = new IngestStore(engine, db);
      // The aggregates are kept as the results writer keeps them: each batch folded in before its rows are inserted.
      const aggregator = new Aggregator(new StateStore(engine, db), log);
      const first = [...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => event(n)), event(10, { parent_id: 'r1', schema: 2 })];
      const second = [
        event(3, { version: 2, data: { '0': { ...event(3).data['0'], 10: 999 } } }),
        event(5, { version: 2, deleted: true }),
      ];
      for (const batch of [first, second]) {
        await aggregator.write(batch);
        const rows = batch.map(rowsOf);
        await ingest.insertBatch(
          rows.map((r) => r.response),
          rows.flatMap((r) => r.answers),
        );
      }
      got.set(name, await answers(engine, db));
    } finally {
      await dropClickhouse(engine, db).catch(() => undefined);
      await engine.exec(`DROP DATABASE IF EXISTS ${db}`).catch(() => undefined);
      await engine.close();
    }
  }
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the results queries in ClickHouse-server mode', () => {
  it('answer what the figures of the rows are (versions replaced, the deleted response left out)', () => {
    const a = got.get('server mode over chDB')!;
    expect(a.ids).toEqual(['r1', 'r2', 'r3', 'r4', 'r6', 'r7', 'r8', 'r9']);
    expect(a.mine).toEqual(['r1', 'r3', 'r7', 'r9']);
    expect(a.restricted).toEqual(['r2', 'r9']);
    expect(a.has).toEqual([true, false]);
    expect(a.children).toEqual(['r10']);
    expect(Number(a.level?.n)).toBe(8);
    // Item 10: 10, 20, 999 (r3 replaced), 40, 60, 70, 80, 90.
    const [stats] = a.numbers;
    expect(Number(stats!.count)).toBe(8);
    expect(stats!.sum).toBe(10 + 20 + 999 + 40 + 60 + 70 + 80 + 90);
    expect([stats!.min, stats!.max]).toEqual([10, 999]);
    expect(a.answered.map((r) => [Number(r.item_id), Number(r.count)])).toEqual([
      [10, 8],
      [11, 8],
      [12, 8],
      [13, 8],
    ]);
    expect(a.geotags).toEqual([8, 8]);
    // Item 11: r1..r9 without r5; 1 + n % 2, and both choices when n % 4 = 0 (r4, r8).
    const [choices] = a.choices;
    expect(Number(choices!.answered)).toBe(8);
    expect(a.comparedChoices.reduce((s, r) => s + Number(r.count), 0)).toBe(10);
    expect(a.projects.map((r) => [r.project_id, Number(r.total), Number(r.complete)])).toEqual([['7', 9, 5]]); // r2, r4, r6, r8 and r10 (schema 2) complete
    expect(Number(a.status)).toBe(10);
    // The aggregates answer what the scans answer.
    const agg = a.aggregated as Record<string, Record<string, unknown>>;
    expect(agg.project).toEqual({ tz: 'UTC', ready: true });
    const v = agg.values!;
    expect(Number((v.level as { n: string }).n)).toBe(8);
    const [aggStats] = v.numbers as { count: number; sum: number; min: number; max: number }[];
    expect([aggStats!.count, aggStats!.sum, aggStats!.min, aggStats!.max]).toEqual([
      8,
      10 + 20 + 999 + 40 + 60 + 70 + 80 + 90,
      10,
      999,
    ]);
    expect((v.answered as { item_id: number; count: string }[]).map((r) => [r.item_id, Number(r.count)])).toEqual([
      [10, 8],
      [11, 8],
      [12, 8],
      [13, 8],
    ]);
    expect(Number((v.choices as { answered: string }[])[0]!.answered)).toBe(8);
    expect((v.samples as unknown[]).length).toBe(3);
    // By site: the rollups and the cube agree (sites 1 and 2 filtered; every response is of January 2026).
    expect(agg.sites!.groups).toBe(2);
    expect(agg.cube!.groups).toBe(2);
    expect(agg.sites!.level).toEqual(agg.cube!.level);
    expect(agg.sites!.compared).toEqual(agg.cube!.compared);
    expect(agg.months!.level).toEqual(v.level);
    expect(agg.months!.numbers).toEqual(v.numbers);
    expect(agg.months!.groups).toBe(3);
    // The views from the aggregates answer what their scans answer.
    expect(a.views.aggregates).toEqual(a.views.scan);
    expect(Number(a.views.scan.totals.n)).toBe(9);
    expect(a.marks).toEqual(['/0=1', '/7=2']);
  });

  it.each(engines.slice(1).map(([name]) => name))('%s answers exactly what chDB answers', (name) => {
    expect(got.get(name)).toEqual(got.get('chdb'));
  });
});
