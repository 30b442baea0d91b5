#!/usr/bin/env node
// Results benchmark: N responses of 20 questions (default 1,000,000) in the results store (chDB, the tables of the
// results service's migrations, the answers' tables loaded with INSERT ... SELECT and the aggregates built from them
// as an upgraded deployment builds them), each results query type run through the results service's own code
// (ResultsService: planner, aggregates or scans, minus the gRPC hop) cold (no cache), the whole form through the
// scans and warm (through the results cache, CachedResultsService), and the same aggregates over PostgreSQL
// responses with a JSONB data column (the way comparable platforms store answers) in the same run, as the baseline
// (BENCH_PG=0 leaves it out).
//   full:  pnpm bench:results            (records the figures in docs/benchmarks.md)
//   10M:   BENCH_RESPONSES=10000000 BENCH_RUNS=5 BENCH_PG=0 pnpm bench:results
//   smoke: node bench/results/run.mjs --smoke
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { testInfra } from '@fieldwork/launcher';
import { createLogger } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';
import { StateStore } from '../../services/results/dist/store/state.store.js';
import { AggregatesStore } from '../../services/results/dist/store/aggregates.store.js';
import { CachedResultsService } from '../../services/results/dist/service/cached-results.service.js';
import { ResultsService } from '../../services/results/dist/service/results.service.js';
import { ResultsStore } from '../../services/results/dist/store/results.store.js';
import { MarkStore } from '../../services/results/dist/store/marks.store.js';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
// The machine's load when the run began: other work on it inflates wall times (the CPU column much less).
const loadAtStart = loadavg()[0];
const N = smoke ? 20_000 : Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const RUNS = smoke ? 3 : Number(process.env.BENCH_RUNS ?? 15);
const PG = process.env.BENCH_PG !== '0';
// BENCH_SCAN=0 skips the whole form through the scans (the path every request took before the aggregates).
const SCAN = process.env.BENCH_SCAN !== '0';
const log = createLogger('bench', 'silent');

// The form: 8 numbers, 7 choices of 4, 4 open texts, 1 date (item ids 1-20 in that order).
let body = addBlock(newSchemaBody('S'), { en: 'Household' });
const blockId = body.id;
body = body.body;
const kinds = [...Array(8).fill('number'), ...Array(7).fill('choice'), ...Array(4).fill('open'), 'date'];
for (const [i, type] of kinds.entries()) body = addItem(body, blockId, type, 'en', `Q${i + 1}`).body;
for (let item = 9; item <= 15; item++)
  for (const label of ['A', 'B', 'C', 'D']) body = addChoice(body, item, 'en', label).body;
const choiceIds = (item) => body.entities.items[item].options.choices;
if (choiceIds(9)[0] !== 1 || choiceIds(15)[3] !== 28) throw new Error('unexpected choice ids');

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
// Wall time, and the CPU time of this process (chDB runs in it), which the other work on a shared machine does not
// inflate as much.
async function time(fn) {
  const ms = [];
  const cpu = [];
  await fn(); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { p50: pct(ms, 0.5), p99: pct(ms, 0.99), cpu: pct(cpu, 0.5) };
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-results-'));
const infra = await testInfra();
const sql = postgres(infra.databaseUrl, { max: 2, onnotice: () => {} });
const engine = new ChdbEngine(dir);
let exitCode = 0;
try {
  // ClickHouse: the results service's tables, loaded in SQL.
  const db = 'fieldwork';
  await migrateClickhouse(engine, db, log);
  let t0 = performance.now();
  await engine.exec(`INSERT INTO ${db}.responses (project_id, schema_id, response_id, version, user_id, site_id, group_id, team_id, completed, deleted, archived, parent_id, time_created, time_updated, time_completed, time_uploaded)
    SELECT 1, 1, toString(number), 1, number % 500 + 1, number % 20 + 1, 0, 0, number % 3 = 0, 0, 0, '', t, t, NULL, t
    FROM (SELECT number, toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(number * ${Math.floor(31_536_000 / N)}) AS t FROM numbers(${N}))`);
  await engine.exec(`INSERT INTO ${db}.answers (project_id, schema_id, item_id, response_id, repeat, version, removed, num, text, choices, date, user_id, site_id, group_id, team_id, completed, deleted, time_created, time_updated, time_completed, time_uploaded)
    SELECT 1, 1, item, toString(n), 0, 1, 0,
      if(item <= 8, (cityHash64(n, item) % 1000) / 10, NULL),
      if(item BETWEEN 16 AND 19, concat('text ', toString(n % 997)), ''),
      if(item BETWEEN 9 AND 15, [toUInt32((item - 9) * 4 + 1 + cityHash64(n, item) % 4)], []),
      if(item = 20, toDate32('2025-01-01') + toInt32(n % 365), NULL),
      n % 500 + 1, n % 20 + 1, 0, 0, n % 3 = 0, 0, t, t, NULL, t
    FROM (SELECT number AS n, toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(number * ${Math.floor(31_536_000 / N)}) AS t FROM numbers(${N}))
    ARRAY JOIN range(1, 21) AS item`);
  const chLoadS = (performance.now() - t0) / 1000;
  // The aggregates, built as a deployment upgraded with data builds them (the results writer's backfill): the
  // counted states from the newest versions, then every state counted through the views.
  t0 = performance.now();
  const cpuAgg0 = process.cpuUsage();
  const states = new StateStore(engine, db);
  await states.setProject(1, 'UTC', false);
  await states.statesFromAnswers(1, 'UTC');
  await states.recount(1);
  await states.setProject(1, 'UTC', true);
  const aggLoadS = (performance.now() - t0) / 1000;
  const aggCpuS = ((c) => (c.user + c.system) / 1e6)(process.cpuUsage(cpuAgg0));

  const parts = await engine.query(
    `SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes, sum(data_uncompressed_bytes) AS raw, count() AS parts, uniqExact(partition) AS partitions
       FROM system.parts WHERE database = '${db}' AND active GROUP BY table ORDER BY table`,
  );
  const sizeOf = (names) => parts.filter((p) => names.includes(p.table));
  const gib = (rows, k) => rows.reduce((a, r) => a + Number(r[k]), 0) / 2 ** 30;
  const diskGiB = gib(sizeOf(['responses', 'answers']), 'bytes');
  const rawGiB = gib(sizeOf(['responses', 'answers']), 'raw');
  const partsOf = (t, k) => Number(parts.find((p) => p.table === t)?.[k] ?? 0);
  const aggTables = [
    'agg_values',
    'agg_sites',
    'agg_months',
    'agg_cube',
    'agg_responses',
    'agg_words',
    'agg_times',
    'response_state',
  ];
  const sizes = aggTables
    .map((t) => {
      const r = parts.find((p) => p.table === t);
      return `${t} ${Number(r?.rows ?? 0).toLocaleString('en')} rows, ${(Number(r?.bytes ?? 0) / 2 ** 20).toFixed(1)} MiB`;
    })
    .join('; ');

  // PostgreSQL: the same responses as JSONB documents.
  t0 = performance.now();
  if (PG) await sql`drop table if exists bench_responses`;
  if (PG) {
    await sql`create table bench_responses (id bigint primary key, project_id bigint not null, schema_id bigint not null, site_id bigint not null, user_id bigint not null, completed boolean not null, deleted boolean not null, time_created timestamptz not null, data jsonb not null)`;
    await sql.unsafe(`insert into bench_responses
    select n, 1, 1, n % 20 + 1, n % 500 + 1, n % 3 = 0, false, timestamptz '2025-01-01 00:00:00+00' + n * interval '${Math.floor(31_536_000 / N)} seconds',
      jsonb_build_object('0', jsonb_build_object(${Array.from({ length: 20 }, (_, k) => {
        const item = k + 1;
        const value =
          item <= 8
            ? `((hashint8(n * 31 + ${item}) & 1048575) % 1000) / 10.0`
            : item <= 15
              ? `jsonb_build_array(${(item - 9) * 4 + 1} + ((hashint8(n * 17 + ${item}) & 1048575) % 4))`
              : item <= 19
                ? `'text ' || (n % 997)`
                : `to_char(date '2025-01-01' + (n % 365)::int, 'YYYY-MM-DD')`;
        return `'${item}', ${value}`;
      }).join(', ')}))
    from generate_series(0, ${N - 1}) n`);
    await sql`create index on bench_responses (project_id, schema_id) where not deleted`;
    await sql`analyze bench_responses`;
  }
  const pgLoadS = (performance.now() - t0) / 1000;

  // The results service's code, with the project's access and form answered here.
  const peers = [
    {
      getAccess: async () => ({ screens: ['results'], read_sites: [] }),
      // The project's sites (1-20, as loaded above): a filter naming a site is checked against them.
      getProject: async () => ({ sites: Array.from({ length: 20 }, (_, i) => ({ id: i + 1 })) }),
    },
    {
      listSchemas: async () => ({
        results: [{ id: 1, name: 'Household', level: 0, version: '1', time_updated: '2025-01-01T00:00:00.000Z' }],
      }),
      getSchemaInternal: async () => ({ body_json: JSON.stringify(body) }),
    },
  ];
  const service = new ResultsService(new ResultsStore(engine, db), new AggregatesStore(engine, db), ...peers);
  // The same code sent to the scans (the planner is told the project has no aggregates): the path of every request
  // before the aggregates, and of the requests they cannot answer.
  class NoAggregates extends AggregatesStore {
    project() {
      return Promise.resolve(undefined);
    }
  }
  const scanning = new ResultsService(new ResultsStore(engine, db), new NoAggregates(engine, db), ...peers);
  const cached = new CachedResultsService(
    new ResultsStore(engine, db),
    new MarkStore(engine, db),
    64 * 2 ** 20,
    new AggregatesStore(engine, db),
    ...peers,
  );
  const caller = { user_id: 1 };
  const ask = (extra, via = service) =>
    via.results(
      {
        caller,
        project_id: 1,
        schema_id: 1,
        block_id: 0,
        item_ids: [],
        filters_json: '',
        timing_column: '',
        comparisons_json: '',
        buckets: 0,
        time_zone: '',
        ...extra,
      },
      { requestId: 'bench' },
    );
  const sites = JSON.stringify({
    site: [1, 2, 3, 4, 5],
    date_ranges: [
      {
        entity: 'response',
        dateType: 'time_created',
        // Six whole months: 1 March 00:00 to 31 August 23:59:59.999.
        startDateTime: Date.UTC(2025, 2, 1) / 1000,
        endDateTime: (Date.UTC(2025, 8, 1) - 1) / 1000,
      },
    ],
  });
  const num = `((data->'0'->>'3')::numeric)`;
  const pgWhere = `project_id = 1 and schema_id = 1 and not deleted`;
  const queries = [
    [
      'one number question: count, sum, avg, min, max, stddev, var, quartiles, histogram',
      () => ask({ item_ids: [3] }),
      () =>
        sql.unsafe(
          `select count(${num}), sum(${num}), avg(${num}), min(${num}), max(${num}), stddev_samp(${num}), var_samp(${num}), percentile_cont(array[0.25,0.5,0.75]) within group (order by ${num}), width_bucket(0,0,1,1) from bench_responses where ${pgWhere} and data->'0' ? '3'`,
        ),
    ],
    [
      'one choice question: counts per choice',
      () => ask({ item_ids: [10] }),
      () =>
        sql.unsafe(
          `select c, count(*) from bench_responses, jsonb_array_elements_text(data->'0'->'10') c where ${pgWhere} group by c`,
        ),
    ],
    [
      'one number question, filtered by 5 sites and 6 whole months',
      () => ask({ item_ids: [3], filters_json: sites }),
      () =>
        sql.unsafe(
          `select count(${num}), avg(${num}), stddev_samp(${num}), percentile_cont(array[0.25,0.5,0.75]) within group (order by ${num}) from bench_responses where ${pgWhere} and site_id in (1,2,3,4,5) and time_created >= '2025-03-01' and time_created < '2025-09-01' and data->'0' ? '3'`,
        ),
    ],
    [
      'one number question compared by site',
      () => ask({ item_ids: [3], comparisons_json: JSON.stringify([{ by: 'site' }]) }),
      () =>
        sql.unsafe(
          `select site_id, count(${num}), avg(${num}), stddev_samp(${num}), percentile_cont(array[0.25,0.5,0.75]) within group (order by ${num}) from bench_responses where ${pgWhere} and data->'0' ? '3' group by site_id`,
        ),
    ],
    [
      'monthly trend of a number question',
      () => ask({ item_ids: [3], comparisons_json: JSON.stringify([{ by: 'period', period: 'month' }]) }),
      () =>
        sql.unsafe(
          `select date_trunc('month', time_created), count(${num}), avg(${num}), stddev_samp(${num}) from bench_responses where ${pgWhere} and data->'0' ? '3' group by 1`,
        ),
    ],
    [
      'the whole form (20 questions)',
      () => ask({}),
      async () => {
        for (let item = 1; item <= 20; item++) {
          const v = `((data->'0'->>'${item}')::numeric)`;
          if (item <= 8)
            await sql.unsafe(
              `select count(${v}), avg(${v}), stddev_samp(${v}), percentile_cont(array[0.25,0.5,0.75]) within group (order by ${v}) from bench_responses where ${pgWhere} and data->'0' ? '${item}'`,
            );
          else if (item <= 15)
            await sql.unsafe(
              `select c, count(*) from bench_responses, jsonb_array_elements_text(data->'0'->'${item}') c where ${pgWhere} group by c`,
            );
          else await sql.unsafe(`select count(*) from bench_responses where ${pgWhere} and data->'0' ? '${item}'`);
        }
      },
    ],
    [
      'the whole form, filtered by 5 sites and 6 whole months',
      () => ask({ filters_json: sites }),
      async () => {
        for (let item = 1; item <= 20; item++) {
          const v = `((data->'0'->>'${item}')::numeric)`;
          const w = `${pgWhere} and site_id in (1,2,3,4,5) and time_created >= '2025-03-01' and time_created < '2025-09-01'`;
          if (item <= 8)
            await sql.unsafe(
              `select count(${v}), avg(${v}), stddev_samp(${v}), percentile_cont(array[0.25,0.5,0.75]) within group (order by ${v}) from bench_responses where ${w} and data->'0' ? '${item}'`,
            );
          else if (item <= 15)
            await sql.unsafe(
              `select c, count(*) from bench_responses, jsonb_array_elements_text(data->'0'->'${item}') c where ${w} group by c`,
            );
          else await sql.unsafe(`select count(*) from bench_responses where ${w} and data->'0' ? '${item}'`);
        }
      },
    ],
    [
      "one number question, filtered on another question's answer (the scans)",
      () =>
        ask({
          item_ids: [3],
          filters_json: JSON.stringify({ filters: [{ question: 9, operator: 'in', value: [1] }] }),
        }),
      () =>
        sql.unsafe(
          `select count(${num}), avg(${num}), stddev_samp(${num}), percentile_cont(array[0.25,0.5,0.75]) within group (order by ${num}) from bench_responses where ${pgWhere} and data->'0'->'9' @> '[1]' and data->'0' ? '3'`,
        ),
    ],
    ...(SCAN
      ? [['the whole form through the scans (every request before the aggregates)', () => ask({}, scanning), null]]
      : []),
    ['the whole form, warm (results cache hit: mark read, key, lookup)', () => ask({}, cached), null],
  ];
  // The results answer what PostgreSQL answers.
  const check = JSON.parse((await ask({ item_ids: [3] })).payload_json);
  if (check.items[0].stats.count !== N || check.levels[0].total_filtered_responses !== N)
    throw new Error(`the results store holds ${check.items[0].stats.count} answers, not ${N}`);

  // The aggregates answer what the scans answer (numbers to 12 significant digits; the scans count the words of
  // large questions in a sample, the aggregates in every answer).
  const skip = new Set(['meta', 'words', 'words_every']);
  const rounded = (json) =>
    JSON.stringify(
      JSON.parse(json, (k, v) => (skip.has(k) ? undefined : typeof v === 'number' ? Number(v.toPrecision(12)) : v)),
    );
  {
    const x = rounded((await ask({}, scanning)).payload_json);
    const y = rounded((await ask({})).payload_json);
    if (x !== y) {
      const i = [...x].findIndex((c, k) => c !== y[k]);
      throw new Error(
        `the aggregates answer differently from the scans:\n${x.slice(i - 300, i + 200)}\n${y.slice(i - 300, i + 200)}`,
      );
    }
  }
  const rows = [];
  for (const [name, ch, pg] of queries) {
    const path = JSON.parse((await ch()).payload_json).meta.path;
    const a = await time(ch);
    const b = PG && pg ? await time(pg) : null;
    rows.push({ name, path, ch: a, pg: b, ratio: b ? b.p50 / a.p50 : null });
  }
  // The cache answers what the service answers.
  if (rounded((await ask({}, cached)).payload_json) !== rounded((await ask({})).payload_json))
    throw new Error('the cached payload differs from the uncached one');
  const f = (x) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const command = smoke
    ? 'node bench/results/run.mjs --smoke'
    : `BENCH_RESPONSES=${N} BENCH_RUNS=${RUNS}${PG ? '' : ' BENCH_PG=0'}${SCAN ? '' : ' BENCH_SCAN=0'} pnpm bench:results`;
  const dash = (x, g) => (x ? g(x) : '–');
  const table = [
    '| query | path | results p50 ms | results p99 ms | results CPU ms (p50) | PostgreSQL JSONB p50 ms | PostgreSQL p99 ms | PostgreSQL / results (p50) |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.path} | ${f(r.ch.p50)} | ${f(r.ch.p99)} | ${f(r.ch.cpu)} | ${dash(r.pg, (x) => f(x.p50))} | ${dash(r.pg, (x) => f(x.p99))} | ${dash(r.ratio, (x) => `${x.toFixed(1)}x`)} |`,
    ),
  ].join('\n');
  const loads = `load: ClickHouse ${chLoadS.toFixed(1)} s${PG ? `, PostgreSQL ${pgLoadS.toFixed(1)} s` : ''}; the aggregates built from the answers' tables (the upgrade backfill) in ${aggLoadS.toFixed(1)} s (${aggCpuS.toFixed(1)} s CPU); answers' tables on disk ${diskGiB.toFixed(2)} GiB (${rawGiB.toFixed(2)} GiB uncompressed), answers in ${partsOf('answers', 'parts')} parts over ${partsOf('answers', 'partitions')} partitions; ${sizes}`;
  const targets =
    'targets (issue 29): at 1,000,000 whole form <= 60 ms p50 cold and >= 200x PostgreSQL JSONB, one question <= 10 ms, whole form filtered by 5 sites and 6 whole months <= 50 ms, one question compared by site <= 20 ms; at 10,000,000 whole form <= 300 ms, one question <= 30 ms; the scans no slower than before';
  console.log(
    `\n${N.toLocaleString('en')} responses x 20 questions; ${loads}; ${RUNS} runs each after a warm-up\n\n${table}\n\n${targets}\n${machine}\nreproduce: ${command}\n`,
  );
  if (!smoke) {
    const title =
      N === 1_000_000
        ? '## Results: ClickHouse (chDB) vs PostgreSQL JSONB'
        : `## Results at ${N.toLocaleString('en')} responses`;
    const date = new Date().toISOString().slice(0, 10);
    const section = `${title}\n\n${date}, ${machine}, load average ${loadAtStart.toFixed(1)} when the run began and ${loadavg()[0].toFixed(1)} at its end (other work on the machine adds to the wall times; the CPU column is this process's own CPU time, chDB's threads included). ${N.toLocaleString('en')} responses of 20 questions (8 numbers, 7 choices, 4 texts, 1 date), ${(N * 20).toLocaleString('en')} answer rows; ${loads}. Each query runs ${RUNS} times after a warm-up, through the results service's code (ResultsService: the planner, then the aggregates or the scans, one query per kind of question), cold (no cache), its path in the second column; "the whole form through the scans" is the same request sent to the scans (FINAL reads of the answers' tables: what every request cost before the aggregates); the warm row is the whole form again through CachedResultsService (a hit: the project's mark, the key, the lookup)${PG ? ', and the same aggregates in PostgreSQL over a JSONB data column' : ''}. The answers' tables are as loaded, merged only by ClickHouse's own background merges.\n\n${table}\n\nTargets (issue 29): ${targets.replace(/^targets \(issue 29\): /, '')}.\n\nReproduce: \`${command}\`\n`;
    recordSection(title, section);
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await engine.close();
  await sql.end();
  await infra.dispose();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
