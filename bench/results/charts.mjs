#!/usr/bin/env node
// The cost of the charts' queries (issue 20) at N responses of the bench/results form (8 numbers, 7 choices, 4 open
// texts, 1 date): the whole form with and without its text questions (latest answers, top words), the text queries
// alone, and comparisons with and without capping. chDB only, compacted, p50 of 5 runs after a warm-up.
//   BENCH_RESPONSES=1000000 node bench/results/charts.mjs      (default 1,000,000; build first: pnpm run build)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { createLogger } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../services/results/dist/engine/chdb.engine.js';
import { migrateClickhouse } from '../../services/results/dist/engine/migrate.js';
import { ResultsService } from '../../services/results/dist/service/results.service.js';
import { ResultsStore } from '../../services/results/dist/store/results.store.js';
import { AggregatesStore } from '../../services/results/dist/store/aggregates.store.js';
import { STOP_WORDS } from '../../services/results/dist/domain/charts.js';
const N = Number(process.env.BENCH_RESPONSES ?? 1_000_000);
const log = createLogger('bench', 'silent');
let body = addBlock(newSchemaBody('S'), { en: 'Household' });
const blockId = body.id;
body = body.body;
const kinds = [...Array(8).fill('number'), ...Array(7).fill('choice'), ...Array(4).fill('open'), 'date'];
for (const [i, type] of kinds.entries()) body = addItem(body, blockId, type, 'en', `Q${i + 1}`).body;
for (let item = 9; item <= 15; item++)
  for (const label of ['A', 'B', 'C', 'D']) body = addChoice(body, item, 'en', label).body;
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-charts-'));
const engine = new ChdbEngine(dir);
const db = 'fieldwork';
await migrateClickhouse(engine, db, log);
const t0 = performance.now();
await engine.exec(`INSERT INTO ${db}.responses (project_id, schema_id, response_id, version, user_id, site_id, group_id, team_id, completed, deleted, archived, parent_id, time_created, time_updated, time_completed, time_uploaded)
  SELECT 1, 1, toString(number), 1, number % 500 + 1, number % 20 + 1, 0, 0, number % 3 = 0, 0, 0, '', t, t, NULL, t
  FROM (SELECT number, toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(number * ${Math.floor(31_536_000 / N)}) AS t FROM numbers(${N}))`);
await engine.exec(`INSERT INTO ${db}.answers (project_id, schema_id, item_id, response_id, repeat, version, removed, num, text, choices, date, user_id, site_id, group_id, team_id, completed, deleted, time_created, time_updated, time_completed, time_uploaded)
  SELECT 1, 1, item, toString(n), 0, 1, 0,
    if(item <= 8, (cityHash64(n, item) % 1000) / 10, NULL),
    if(item BETWEEN 16 AND 19, concat('text ', toString(n % 997), ' water pump broken near school ', toString(n % 13)), ''),
    if(item BETWEEN 9 AND 15, [toUInt32((item - 9) * 4 + 1 + cityHash64(n, item) % 4)], []),
    if(item = 20, toDate32('2025-01-01') + toInt32(n % 365), NULL),
    n % 500 + 1, n % 20 + 1, 0, 0, n % 3 = 0, 0, t, t, NULL, t
  FROM (SELECT number AS n, toDateTime64('2025-01-01 00:00:00', 3, 'UTC') + toIntervalSecond(number * ${Math.floor(31_536_000 / N)}) AS t FROM numbers(${N}))
  ARRAY JOIN range(1, 21) AS item`);
await engine.exec(`OPTIMIZE TABLE ${db}.answers FINAL`);
await engine.exec(`OPTIMIZE TABLE ${db}.responses FINAL`);
console.log('load+optimize s', ((performance.now() - t0) / 1000).toFixed(1));
const store = new ResultsStore(engine, db);
const service = new ResultsService(
  store,
  new AggregatesStore(engine, db),
  {
    getAccess: async () => ({ screens: ['results'], read_sites: [] }),
    // The project's sites (1-20, as loaded above): a filter naming a site is checked against them.
    getProject: async () => ({ sites: Array.from({ length: 20 }, (_, i) => ({ id: i + 1 })) }),
  },
  {
    listSchemas: async () => ({ results: [{ id: 1, name: 'Household', level: 0 }] }),
    getSchemaInternal: async () => ({ body_json: JSON.stringify(body) }),
  },
);
const where = store.where(
  1,
  1,
  {
    showDeleted: false,
    showOnlyCompleted: false,
    site: [],
    group: [],
    team: [],
    collector: [],
    createdBy: [],
    date_ranges: [],
    filters: [],
  },
  { all: true, userId: 1, sites: [] },
);
const p50 = async (label, fn, runs = 5) => {
  await fn();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(label, 'p50 ms', ms[Math.floor(runs / 2)].toFixed(1), 'min', ms[0].toFixed(1));
};
const ask = (extra) =>
  service.results(
    {
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
      aggregator: '',
      ...extra,
    },
    { requestId: 'bench' },
  );
const noTexts = [...Array(15).keys()].map((i) => i + 1).concat([20]);
const ev = Math.ceil(N / 5000);
await p50('whole form (20 questions)', () => ask({}));
await p50('whole form minus the 4 open questions', () => ask({ item_ids: noTexts }));
await p50('4 open questions (service)', () => ask({ item_ids: [16, 17, 18, 19] }));
await p50('textSamples 4', () => store.textSamples(where, [16, 17, 18, 19], 20));
await p50('topWords 4', () => store.topWords(where, [16, 17, 18, 19], [ev, ev, ev, ev], 30, 3, STOP_WORDS));
await p50('one number (stats, round-bin histogram)', () => ask({ item_ids: [3] }));
await p50('one number by site (20 groups: a count, no capping)', () =>
  ask({ item_ids: [3], comparisons_json: JSON.stringify([{ by: 'site' }]) }),
);
await p50('one number by collector (500 groups capped to 50)', () =>
  ask({ item_ids: [3], comparisons_json: JSON.stringify([{ by: 'collector' }]) }),
);
await engine.close();
rmSync(dir, { recursive: true, force: true });
