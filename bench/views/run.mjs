#!/usr/bin/env node
// Views benchmark (issues 20 and 29): N responses (default 1,000,000) over 200 sites, 2,000 collectors, 400 groups and
// 800 teams in the results store (chDB, the results service's tables, loaded with INSERT ... SELECT, the aggregates
// built from them as an upgraded deployment builds them), and the ClickHouse queries of the summary, performance and
// tracking views run through the service's own stores, both paths: the scan (ViewsStore) and the aggregates
// (ViewAggregatesStore), for a caller who reads everything and for one with read_sites.
//   full:  node bench/views/run.mjs          (records the figures in docs/benchmarks.md)
//   smoke: node bench/views/run.mjs --smoke
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';
import { StateStore } from '../../services/results/dist/store/state.store.js';
import { ViewAggregatesStore } from '../../services/results/dist/store/view-aggregates.store.js';
import { ViewsStore } from '../../services/results/dist/store/views.store.js';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 20_000 : Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const RUNS = smoke ? 3 : Number(process.env.BENCH_RUNS ?? 10);
// Collectors, each working at one site, in one group and one team. The aggregates count per collector and day, so
// they are small when collectors file many responses a day: 2,000 collectors file about 1.4 a day each at 1,000,000
// responses a year (the aggregates hardly smaller than the responses), 200 about 14.
const COLLECTORS = Number(process.env.BENCH_COLLECTORS ?? 2000);
const log = createLogger('bench', 'silent');

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
async function time(fn) {
  await fn(); // warm-up
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return { p50: pct(ms, 0.5), p99: pct(ms, 0.99) };
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-views-'));
const engine = new ChdbEngine(dir);
let exitCode = 0;
try {
  const db = 'fieldwork';
  await migrateClickhouse(engine, db, log);
  const t0 = performance.now();
  // One response every ~31 s over a year; a third completed 5 to 30 minutes after they were started; 1 % deleted.
  await engine.exec(`INSERT INTO ${db}.responses (project_id, schema_id, response_id, version, user_id, site_id, group_id, team_id, completed, deleted, archived, parent_id, time_created, time_updated, time_completed, time_uploaded)
    SELECT 1, 1, toString(number), 1, u + 1, u % 200 + 1, u % 400 + 1, u % 800 + 1,
           number % 3 = 0, number % 100 = 7, 0, '', t, t,
           if(number % 3 = 0, t + toIntervalSecond(300 + number % 1500), NULL), t
    FROM (SELECT number, number % ${COLLECTORS} AS u, toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(number * ${Math.floor(31_536_000 / N)}) AS t FROM numbers(${N}))`);
  const loadMs = performance.now() - t0;
  const t1 = performance.now();
  // The aggregates, as the results writer builds them for a project stored before them.
  const states = new StateStore(engine, db);
  await states.statesFromAnswers(1, 'UTC');
  await states.recount(1);
  const aggMs = performance.now() - t1;
  const none = { site: [], group: [], team: [], user: [] };
  const everything = { all: true, userId: 1, sites: [] };
  const readSites = { all: false, userId: 1, sites: [1, 2, 3, 4, 5] };
  const page = { size: 50, offset: 0 };
  const sites = Array.from({ length: 50 }, (_, i) => i + 1);
  const casesOf = (store) => {
    const where = (scope, range = { start: null, end: null }, tz = 'UTC') => store.where(1, 0, none, scope, range, tz);
    const all = where(everything);
    const some = where(readSites);
    const ranged = where(everything, { start: '2025-03-01', end: '2025-05-31' });
    return [
      [
        'summary: totals and a page of 50 sites',
        async () => {
          await store.totals(all, 'UTC');
          await store.grouped(all, 'site', 'UTC', page);
        },
      ],
      [
        'performance: totals, pages of 50 collectors and sites, series by day',
        async () => {
          await store.totals(all, 'UTC');
          await store.grouped(all, 'collector', 'UTC', page);
          await store.grouped(all, 'site', 'UTC', page);
          await store.series(all, 'day', 'UTC', 1000);
        },
      ],
      ['totals (summary, performance)', () => store.totals(all, 'UTC')],
      ['per site, page of 50 (summary)', () => store.grouped(all, 'site', 'UTC', page)],
      ['per collector, page of 50 (performance)', () => store.grouped(all, 'collector', 'UTC', page)],
      ['series by day, 365 periods (performance)', () => store.series(all, 'day', 'UTC', 1000)],
      ['50 sites counted by id, 3-month range (tracking)', () => store.grouped(ranged, 'site', 'UTC', page, sites)],
      ['totals, read_sites caller (5 sites + own)', () => store.totals(some, 'UTC')],
      ['per collector, read_sites caller', () => store.grouped(some, 'collector', 'UTC', page)],
      ['collector pickers', () => store.collectors(all, 10_000)],
    ];
  };
  const scan = casesOf(new ViewsStore(engine, db));
  const agg = casesOf(new ViewAggregatesStore(engine, db));
  const rows = [];
  for (const [i, [name, fn]] of scan.entries()) {
    const s = await time(fn);
    const a = await time(agg[i][1]);
    rows.push(
      `| ${name} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${a.p50.toFixed(1)} | ${a.p99.toFixed(1)} | ${(s.p50 / a.p50).toFixed(1)}x |`,
    );
    console.log(`${name}: scan p50 ${s.p50.toFixed(1)} ms, aggregates p50 ${a.p50.toFixed(1)} ms`);
  }
  const sizes = await engine.query(
    `SELECT table, toString(sum(rows)) AS rows FROM system.parts WHERE database = '${db}' AND active
       AND table IN ('agg_responses', 'agg_times', 'agg_durations') GROUP BY table ORDER BY table`,
  );
  const title = `## Views from the aggregates: summary, performance, tracking (issue 29), ${N.toLocaleString('en')} responses, ${COLLECTORS.toLocaleString('en')} collectors`;
  const section = [
    title,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Linux ${release()}, chDB, load average ${loadavg()[0].toFixed(1)} at the end (other work on the machine adds to these figures).`,
    `${N.toLocaleString('en')} responses (200 sites, ${COLLECTORS.toLocaleString('en')} collectors, 400 groups, 800 teams; a third completed, 1 % deleted), loaded in ${(loadMs / 1000).toFixed(1)} s, their aggregates built in ${(aggMs / 1000).toFixed(1)} s (${sizes.map((r) => `${r.table} ${Number(r.rows).toLocaleString('en')} rows`).join(', ')}); ${RUNS} runs after a warm-up, each case alone, through ViewsStore (the scan: responses FINAL) and ViewAggregatesStore (no gRPC hop, no names from the projects service). Reproduce: \`pnpm run build && BENCH_RESPONSES=${N} BENCH_COLLECTORS=${COLLECTORS} node bench/views/run.mjs\`.`,
    '',
    '| query | scan p50 ms | scan p99 ms | aggregates p50 ms | aggregates p99 ms | scan / aggregates (p50) |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'A summary is totals + one page per site (+ the advanced results flagged for it); performance is totals, two pages and a series; tracking is totals, a read_sites pass when the caller has a scope, and three keyed counts (sites, groups, teams). A page of groups from the aggregates is three reads (agg_responses, agg_times on the groups\' first and last days, agg_durations); the durations read grows with the completed responses of the page\'s groups (docs/results.md, "Summary, performance and tracking").',
    '',
  ].join('\n');
  if (!smoke) recordSection(title, section);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
