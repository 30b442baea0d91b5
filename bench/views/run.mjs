#!/usr/bin/env node
// Views benchmark (issue 20): N responses (default 1,000,000) over 200 sites, 2,000 collectors, 400 groups and 800
// teams in the results store (chDB, the results service's tables, loaded with INSERT ... SELECT), and the ClickHouse
// queries of the summary, performance and tracking views run through the service's own store (ViewsStore), for a
// caller who reads everything and for one with read_sites.
//   full:  node bench/views/run.mjs          (records the figures in docs/benchmarks.md)
//   smoke: node bench/views/run.mjs --smoke
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';
import { ViewsStore, viewWhere } from '../../services/results/dist/store/views.store.js';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 20_000 : Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const RUNS = smoke ? 3 : Number(process.env.BENCH_RUNS ?? 10);
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
    SELECT 1, 1, toString(number), 1, number % 2000 + 1, number % 200 + 1, number % 400 + 1, number % 800 + 1,
           number % 3 = 0, number % 100 = 7, 0, '', t, t,
           if(number % 3 = 0, t + toIntervalSecond(300 + number % 1500), NULL), t
    FROM (SELECT number, toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(number * ${Math.floor(31_536_000 / N)}) AS t FROM numbers(${N}))`);
  const loadMs = performance.now() - t0;
  const store = new ViewsStore(engine, db);
  const none = { site: [], group: [], team: [], user: [] };
  const all = viewWhere(1, 0, none, { all: true, userId: 1, sites: [] });
  const some = viewWhere(1, 0, none, { all: false, userId: 1, sites: [1, 2, 3, 4, 5] });
  const ranged = viewWhere(1, 0, none, { all: true, userId: 1, sites: [] }, { start: '2025-03-01', end: '2025-05-31' });
  const page = { size: 50, offset: 0 };
  const sites = Array.from({ length: 50 }, (_, i) => i + 1);
  const cases = [
    ['totals (summary, performance)', () => store.totals(all, 'UTC')],
    ['per site, page of 50 (summary)', () => store.grouped(all, 'site', 'UTC', page)],
    ['per collector, page of 50 of 2,000 (performance)', () => store.grouped(all, 'collector', 'UTC', page)],
    ['series by day, 365 periods (performance)', () => store.series(all, 'day', 'UTC', 1000)],
    ['series by week, Europe/Paris', () => store.series(all, 'week', 'Europe/Paris', 1000)],
    ['50 sites counted by id, 3-month range (tracking)', () => store.grouped(ranged, 'site', 'UTC', page, sites)],
    ['totals, read_sites caller (5 sites + own)', () => store.totals(some, 'UTC')],
    ['per collector, read_sites caller', () => store.grouped(some, 'collector', 'UTC', page)],
  ];
  const rows = [];
  for (const [name, fn] of cases) {
    const r = await time(fn);
    rows.push(`| ${name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`);
    console.log(`${name}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`);
  }
  const title = '## Views: summary, performance, tracking (issue 20)';
  const section = [
    title,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Linux ${release()}, chDB, load average ${loadavg()[0].toFixed(1)} at the end (other work on the machine adds to these figures).`,
    `${N.toLocaleString('en')} responses (200 sites, 2,000 collectors, 400 groups, 800 teams; a third completed), loaded in ${(loadMs / 1000).toFixed(1)} s; ${RUNS} runs after a warm-up, each query alone, through ViewsStore (no gRPC hop). Reproduce: \`pnpm run build && node bench/views/run.mjs\`.`,
    '',
    '| query | p50 ms | p99 ms |',
    '|---|---|---|',
    ...rows,
    '',
    'A summary is totals + one page per site (+ the advanced results flagged for it); performance is totals, two pages and a series; tracking is totals, a read_sites pass when the caller has a scope, and three keyed counts (sites, groups, teams).',
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
