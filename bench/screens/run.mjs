#!/usr/bin/env node
// Results screens at scale (issue 20 item 3): the profile picker's lookups and the advanced results, through the
// results service's code (ResultsService with the project's access, forms and advanced results answered here), over
// N responses (default 1,000,000) in chDB, a fifth of them with a second repeat instance. "Before" runs the queries
// the service ran until then, in the same run: the lookups read up to 100,000 answers into the service, and the
// advanced results loaded every answer of the formulas' questions (groupArray) and aggregated them in JavaScript.
//   full:  pnpm bench:screens            (records the figures in docs/benchmarks.md)
//   smoke: node bench/screens/run.mjs --smoke
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { createLogger } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';
import { ResultsService } from '../../services/results/dist/service/results.service.js';
import { ResultsStore } from '../../services/results/dist/store/results.store.js';
import { AggregatesStore } from '../../services/results/dist/store/aggregates.store.js';
import { recordSection } from '../record.mjs';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 20_000 : Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const RUNS = smoke ? 3 : Number(process.env.BENCH_RUNS ?? 10);
const log = createLogger('bench', 'silent');

// The form: Name (a lookup question), Adults and Age (numbers; Age is asked again in repeat 1 of every fifth response).
let made = addBlock(newSchemaBody('S'), { en: 'Household' });
const block = made.id;
let body = made.body;
made = addItem(body, block, 'open', 'en', 'Name');
body = made.body;
body.entities.items[made.id].options.isLookupQuestion = true;
for (const label of ['Adults', 'Age']) body = addItem(body, block, 'number', 'en', label).body;
const [NAME, ADULTS, AGE] = [1, 2, 3];

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
async function time(fn) {
  const ms = [];
  await fn();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return { p50: pct(ms, 0.5), p99: pct(ms, 0.99) };
}
const heap = () => process.memoryUsage().heapUsed;

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-screens-'));
const engine = new ChdbEngine(dir);
let exitCode = 0;
try {
  const db = 'fieldwork';
  await migrateClickhouse(engine, db, log);
  const t0 = performance.now();
  const t = `toDateTime64('2025-01-01 00:00:00', 3, 'UTC')`;
  await engine.exec(`INSERT INTO ${db}.responses (project_id, schema_id, response_id, version, user_id, site_id, group_id, team_id, completed, deleted, archived, parent_id, time_created, time_updated, time_completed, time_uploaded)
    SELECT 1, 1, toString(number), 1, 1, number % 20 + 1, 0, 0, 1, 0, 0, '', ${t}, ${t}, NULL, ${t} FROM numbers(${N})`);
  await engine.exec(
    `INSERT INTO ${db}.answers (project_id, schema_id, item_id, response_id, repeat, version, removed, num, text, choices, date, user_id, site_id, group_id, team_id, completed, deleted, time_created, time_updated, time_completed, time_uploaded)
    SELECT 1, 1, item, toString(n), rep, 1, 0,
      multiIf(item = ${ADULTS}, n % 7 + 1, item = ${AGE}, (n * 13 + rep * 5) % 90, NULL),
      if(item = ${NAME}, concat('Household ', toString(n)), ''), [], NULL,
      1, n % 20 + 1, 0, 0, 1, 0, ${t}, ${t}, NULL, ${t}
    FROM (SELECT number AS n FROM numbers(${N}))
    ARRAY JOIN [(${NAME}, 0), (${ADULTS}, 0), (${AGE}, 0), (${AGE}, 1)] AS pair
    WHERE pair.2 = 0 OR n % 5 = 0
    SETTINGS max_insert_threads = 2`
      .replace(/\bitem\b/g, 'pair.1')
      .replace(/\brep\b/g, 'pair.2'),
  );
  await engine.exec(`OPTIMIZE TABLE ${db}.answers FINAL`);
  await engine.exec(`OPTIMIZE TABLE ${db}.responses FINAL`);
  const loadS = (performance.now() - t0) / 1000;

  const defs = [
    { id: 1, name: 'Mean age', formula: `AVERAGE(Q${block}_${AGE})` },
    { id: 2, name: 'People per household', formula: `COUNT(Q${block}_${AGE}) / COUNT(Q${block}_${ADULTS})` },
    { id: 3, name: 'Oldest', formula: `MAX(Q${block}_*)` },
  ].map((d) => ({ ...d, project: 1, description: '', editor_state_json: '{}', deleted: false }));
  const store = new ResultsStore(engine, db);
  const service = new ResultsService(
    store,
    new AggregatesStore(engine, db),
    {
      getAccess: async () => ({ screens: ['results'], read_sites: [] }),
      listAdvancedResults: async () => ({ results: defs }),
    },
    {
      listSchemas: async () => ({ results: [{ id: 1, name: 'Household', level: 0 }] }),
      getSchemaInternal: async () => ({ body_json: JSON.stringify(body) }),
    },
  );
  const req = (extra) => ({
    caller: { user_id: 1 },
    project_id: 1,
    schema_id: 1,
    block_id: 0,
    item_ids: [],
    filters_json: '',
    timing_column: '',
    comparisons_json: '',
    buckets: 0,
    time_zone: '',
    profile_schema_id: 0,
    profile_response_id: '',
    lookup_query: '',
    limit: 0,
    offset: 0,
    ...extra,
  });
  const ctx = { requestId: 'bench' };
  const where = store.where(
    1,
    1,
    { filters: [], date_ranges: [], showDeleted: false, showOnlyCompleted: false },
    {
      all: true,
      userId: 1,
      sites: [],
    },
  );
  const filtered = JSON.stringify({ filters: [{ question: ADULTS, operator: '>', value: 3 }] });

  // What the service ran before this change, for the same screens.
  const oldLookups = async () => {
    const rows = await engine.query(
      `SELECT response_id, item_id, if(num IS NULL, text, toString(num)) AS value FROM ${db}.answers FINAL
         WHERE ${where.sql} AND item_id IN {keys:Array(UInt32)} AND removed = 0 ORDER BY response_id LIMIT 100000`,
      { ...where.params, keys: [NAME] },
    );
    const by = new Map();
    for (const r of rows) by.set(r.response_id, { ...by.get(r.response_id), [r.item_id]: r.value });
    return JSON.stringify([...by]).length;
  };
  const oldAdvanced = async (whereOf) => {
    const rows = await engine.query(
      `SELECT item_id, groupArray(if(num IS NULL, 1, num)) AS values FROM ${db}.answers FINAL
         WHERE ${whereOf.sql} AND item_id IN {items:Array(UInt32)} AND removed = 0 GROUP BY item_id`,
      { ...whereOf.params, items: [ADULTS, AGE] },
    );
    return rows.map((r) => r.values.reduce((a, b) => a + b, 0));
  };
  const whereFiltered = store.where(
    1,
    1,
    {
      filters: [{ question: ADULTS, operator: '>', value: 3 }],
      date_ranges: [],
      showDeleted: false,
      showOnlyCompleted: false,
    },
    { all: true, userId: 1, sites: [] },
  );

  // The new answers are right before they are timed.
  const first = JSON.parse((await service.lookups(req({}), ctx)).payload_json).results[0];
  if (first.count !== N || first.responses.length !== 50 || first.responses[1].display_name !== 'Household 1')
    throw new Error(`lookups: count ${first.count}, first page ${first.responses.length}`);
  const adv = JSON.parse((await service.advancedResults(req({}), ctx)).payload_json).results;
  const ages = N + Math.ceil(N / 5);
  if (adv[1].value !== ages / N) throw new Error(`advanced: people per household ${adv[1].value}, not ${ages / N}`);

  const h0 = heap();
  await oldAdvanced(where);
  const oldHeapMb = Math.max(0, heap() - h0) / 2 ** 20;
  const rows = [
    ['lookups, first page (before: up to 100,000 answers)', () => oldLookups(), () => service.lookups(req({}), ctx)],
    ['lookups, searched "household 99999"', null, () => service.lookups(req({ lookup_query: 'household 99999' }), ctx)],
    ['lookups, page 1,000 (offset 50,000)', null, () => service.lookups(req({ offset: 50_000 }), ctx)],
    ['advanced results, 3 formulas', () => oldAdvanced(where), () => service.advancedResults(req({}), ctx)],
    [
      'advanced results with a filter (Adults > 3)',
      () => oldAdvanced(whereFiltered),
      () => service.advancedResults(req({ filters_json: filtered }), ctx),
    ],
  ];
  const out = [];
  for (const [name, before, after] of rows)
    out.push({ name, before: before ? await time(before) : null, after: await time(after) });
  const f = (x) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());
  const table = [
    '| screen query | before p50 / p99 ms | now p50 / p99 ms |',
    '|---|---:|---:|',
    ...out.map(
      (r) =>
        `| ${r.name} | ${r.before ? `${f(r.before.p50)} / ${f(r.before.p99)}` : '—'} | ${f(r.after.p50)} / ${f(r.after.p99)} |`,
    ),
  ].join('\n');
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`;
  const command = smoke
    ? 'node bench/screens/run.mjs --smoke'
    : `BENCH_RESPONSES=${N} BENCH_RUNS=${RUNS} pnpm bench:screens`;
  const answers = (N * 3 + Math.ceil(N / 5)).toLocaleString('en');
  console.log(
    `\n${N.toLocaleString('en')} responses, ${answers} answer rows, load ${loadS.toFixed(1)} s; ${RUNS} runs each after a warm-up\n\n${table}\n\nbefore, advanced results held about ${Math.round(oldHeapMb)} MB of answers in the service's heap per call; now none\n${machine}\nreproduce: ${command}\n`,
  );
  if (!smoke) {
    const title = '## Results screens: lookups and advanced results';
    const date = new Date().toISOString().slice(0, 10);
    const section = `${title}\n\n${date}, ${machine}, on a machine shared with other engineers' work (figures are upper bounds). ${N.toLocaleString('en')} responses (a lookup question, two numbers; a fifth of the responses answer Age in a second repeat instance): ${answers} answer rows, loaded in ${loadS.toFixed(1)} s into chDB. Each query runs ${RUNS} times after a warm-up through ResultsService (the access, forms and advanced-result definitions answered in the process). "Before" is the SQL the service ran until issue 20 in the same run: the lookups read up to 100,000 answers into the service (and so never showed more than 100,000 profiles), and the advanced results loaded every answer of the formulas' questions with groupArray (about ${Math.round(oldHeapMb)} MB of the service's heap per call here) and aggregated them in JavaScript. Now the lookups are a page of 50 in natural order (searched in ClickHouse with \`q\`), and the advanced results are folded from count/sum/min/max computed in ClickHouse.\n\n${table}\n\nThe filtered advanced result is dominated by the filter itself (the response ids of the households with more than 3 adults, in both columns); on a shared machine the figures swing with its load.\n\nReproduce: \`${command}\`\n`;
    recordSection(title, section);
  }
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
