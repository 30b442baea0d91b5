// The aggregates are exact under change (docs/results.md "Aggregates"), property-based: random sequences of uploads,
// edits, deletions, restorations, site moves, completions, questions added to the form, duplicate and out-of-order
// deliveries go through the real ingestion path (events on the real RESPONSES stream, read by the results service's
// Ingestor into chDB); then every kind of results query is answered from the aggregates and from the scans (the
// same ResultsService, the planner sent to the scans when the project has no ready aggregates) and both are
// compared with a computation made here from the newest version of each response. The summary, performance and
// tracking views and the collector pickers are asked of both paths the same way (ViewsService, the scan path told the
// project has no aggregates) and must give the same replies, their totals those computed here. Access and the form
// come from the real projects and forms services. A deliberately broken retraction (the -1 rows dropped) must be
// caught.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { auth, forms, projects, type common, type results, type views } from '@fieldwork/proto';
import { addBlock, addChoice, addItem, newSchemaBody, type SchemaBody } from '@fieldwork/sampler';
import {
  createClient,
  createLogger,
  ensureStream,
  responseSubject,
  responsesStream,
  type CallContext,
} from '@fieldwork/service-kit';
import { newOwner, newProject, startPeers, type Peers } from '../../../projects/test/support/peers.js';
import { migrateResults } from '../../src/app.js';
import { loadResultsConfig } from '../../src/config.js';
import type { ResponseEvent } from '../../src/domain/rows.js';
import type { ChangeRow, StateRow } from '../../src/domain/state.js';
import { ChdbEngine } from '../../src/engine/chdb.engine.js';
import { Ingestor } from '../../src/ingest/consumer.js';
import type { ViewPlan } from '../../src/domain/planner.js';
import { ResultsService } from '../../src/service/results.service.js';
import { ViewsService, type ViewPart } from '../../src/service/views.service.js';
import { AggregatesStore } from '../../src/store/aggregates.store.js';
import { ResultsStore } from '../../src/store/results.store.js';
import { StateStore } from '../../src/store/state.store.js';
import { ViewAggregatesStore } from '../../src/store/view-aggregates.store.js';
import { ViewsStore } from '../../src/store/views.store.js';

const log = createLogger('aggregates-property-test', 'silent');
const ctx = { requestId: 'aggregates-property', log, headers: {} } as unknown as CallContext;
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-aggregates-'));
const DB = 'fieldwork';

let peers: Peers;
let engine: ChdbEngine;
let ingestor: Ingestor;
let nc: NatsConnection;
let js: JetStreamClient;
let owner: common.Caller;
const connectClients = () => ({
  projects: createClient(projects.ProjectsServiceClient, peers.address('projects'), { secret: peers.contextSecret }),
  forms: createClient(forms.FormsServiceClient, peers.address('forms'), { secret: peers.contextSecret }),
  auth: createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret }),
});
let clients: ReturnType<typeof connectClients>;
let aggregated: ResultsService;
let scanned: ResultsService;
let viewsAggregated: ViewsService;
let viewsScanned: ViewsService;
/** The plans of the views from the aggregates, latest last. */
const viewPlans: [ViewPart, ViewPlan][] = [];

/** The scans only: the planner is told the project has no aggregates. */
class NoAggregates extends AggregatesStore {
  override project(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}

beforeAll(async () => {
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadResultsConfig({ ...peers.env('results'), CLICKHOUSE_PATH: join(dir, 'chdb') });
  engine = new ChdbEngine(config.CLICKHOUSE_PATH);
  await migrateResults(engine, config, log);
  nc = await connect({ servers: peers.infra.natsUrl.replace(/^nats:\/\//, '') });
  js = jetstream(nc);
  await ensureStream(await jetstreamManager(nc), responsesStream(peers.infra.natsPrefix));
  ingestor = new Ingestor(engine, { natsUrl: peers.infra.natsUrl, prefix: peers.infra.natsPrefix, db: DB, log });
  ingestor.start();
  clients = connectClients();
  aggregated = new ResultsService(
    new ResultsStore(engine, DB),
    new AggregatesStore(engine, DB),
    clients.projects,
    clients.forms,
    peers.contextSecret,
  );
  scanned = new ResultsService(
    new ResultsStore(engine, DB),
    new NoAggregates(engine, DB),
    clients.projects,
    clients.forms,
    peers.contextSecret,
  );
  const viewsOf = (counted: AggregatesStore, observe?: (part: ViewPart, plan: ViewPlan) => void) =>
    new ViewsService(
      new ViewsStore(engine, DB),
      new ViewAggregatesStore(engine, DB),
      counted,
      clients.projects,
      clients.forms,
      clients.auth,
      peers.contextSecret,
      observe,
    );
  viewsAggregated = viewsOf(new AggregatesStore(engine, DB), (part, plan) => viewPlans.push([part, plan]));
  viewsScanned = viewsOf(new NoAggregates(engine, DB));
  owner = (await newOwner(peers)).caller;
}, 120_000);

afterAll(async () => {
  await ingestor?.stop();
  clients?.projects.close();
  clients?.forms.close();
  clients?.auth.close();
  await nc?.close();
  await peers?.stop();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------------
// The form: two numbers (one whole), a single and a multiple choice, a date, an open text; a number added later.

interface Form {
  body: SchemaBody;
  num: number;
  whole: number;
  single: number;
  multi: number;
  date: number;
  text: number;
  choices: Record<number, number[]>;
}

function makeForm(): Form {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  let body = b.body;
  const item = (type: string, name: string) => {
    const r = addItem(body, b.id, type as never, 'en', name);
    body = r.body;
    return r.id;
  };
  const num = item('number', 'Income');
  const whole = item('number', 'People');
  const single = item('choice', 'Water');
  const multi = item('choice', 'Fuels');
  const date = item('date', 'Visit');
  const text = item('open', 'Notes');
  const choices: Record<number, number[]> = { [single]: [], [multi]: [] };
  for (const [q, names] of [
    [single, ['Piped', 'Well', 'River']],
    [multi, ['Wood', 'Gas', 'Solar', 'Coal']],
  ] as const)
    for (const n of names) {
      const c = addChoice(body, q, 'en', n);
      body = c.body;
      choices[q]!.push(c.id);
    }
  body.entities.items[String(multi)]!.options.multiselect = true;
  return { body, num, whole, single, multi, date, text, choices };
}

const WORDS = ['water', 'river', 'school', 'clinic', 'road', 'market', 'rain', 'goats'];

/** A random answer set for the form (some questions left blank; `extra` answered once the form has it). */
function answersArb(f: Form, extra: number | null) {
  return fc
    .record({
      num: fc.option(
        fc.integer({ min: -50, max: 400 }).map((n) => n / 4),
        { nil: undefined },
      ),
      whole: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
      single: fc.option(fc.constantFrom(...f.choices[f.single]!), { nil: undefined }),
      multi: fc.option(fc.subarray(f.choices[f.multi]!, { minLength: 0 }), { nil: undefined }),
      date: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
      text: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), { nil: undefined }),
      extra: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      repeat: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
    })
    .map((a) => {
      const d: Record<string, unknown> = {};
      if (a.num !== undefined) d[f.num] = a.num;
      if (a.whole !== undefined) d[f.whole] = a.whole;
      if (a.single !== undefined) d[f.single] = [a.single];
      if (a.multi !== undefined) d[f.multi] = a.multi;
      if (a.date !== undefined) d[f.date] = new Date(Date.UTC(2026, 0, 1 + a.date)).toISOString().slice(0, 10);
      if (a.text !== undefined) d[f.text] = a.text.join(' ');
      if (extra !== null && a.extra !== undefined) d[extra] = a.extra;
      const data: Record<string, Record<string, unknown>> = { '0': d };
      // A repeated instance answering the whole number again (repeats count in results).
      if (a.repeat !== undefined) data['1'] = { [f.whole]: a.repeat };
      return data;
    });
}

type Op =
  | {
      kind: 'upload';
      data: Record<string, Record<string, unknown>>;
      site: number;
      user: number;
      day: number;
      complete: boolean;
    }
  | { kind: 'edit'; target: number; data: Record<string, Record<string, unknown>> }
  | { kind: 'delete' | 'restore' | 'complete' | 'uncomplete'; target: number }
  | { kind: 'move'; target: number; site: number }
  | { kind: 'addQuestion' };

// ---------------------------------------------------------------------------------------------------------------
// The model: the newest version of each response, as the responses service would publish it.

interface Model {
  project: number;
  schema: number;
  sites: number[];
  users: number[];
  form: Form;
  extra: number | null;
  latest: Map<string, ResponseEvent>;
  /** Every event published, in publication order (duplicates and reorderings included). */
  published: ResponseEvent[];
}

const BASE = Date.UTC(2026, 0, 5, 12, 0, 0);

function apply(m: Model, op: Op, step: number): ResponseEvent | null {
  const ids = [...m.latest.keys()];
  const at = (offsetMin: number) => new Date(BASE + step * 3_600_000 * 5 + offsetMin * 60_000).toISOString();
  if (op.kind === 'upload') {
    const id = `${m.project}-${m.schema}-${op.user}-d-${step}`;
    const created = new Date(BASE + op.day * 86_400_000 + (step % 24) * 3_600_000 + 59_999).toISOString();
    const e: ResponseEvent = {
      response_id: id,
      version: 1,
      project: m.project,
      schema: m.schema,
      user: op.user,
      site: op.site,
      group: null,
      team: null,
      completed: op.complete,
      deleted: false,
      archived: false,
      parent_id: null,
      geotag: null,
      time_created: created,
      time_updated: created,
      time_completed: op.complete ? created : null,
      time_uploaded: at(1),
      data: op.data,
    };
    m.latest.set(id, e);
    return e;
  }
  if (op.kind === 'addQuestion') return null;
  if (ids.length === 0) return null;
  const prev = m.latest.get(ids[op.target % ids.length]!)!;
  const next: ResponseEvent = {
    ...prev,
    version: prev.version + 1,
    time_updated: at(2),
    time_uploaded: at(3),
    removed: [],
  };
  if (op.kind === 'edit') {
    next.data = op.data;
    // Answers given before and not now are sent as removed, as the responses service does.
    const keys = (d: Record<string, Record<string, unknown>>) =>
      Object.entries(d).flatMap(([r, v]) => Object.keys(v).map((i) => `${r}.${i}`));
    const now = new Set(keys(op.data));
    next.removed = keys(prev.data).filter((k) => !now.has(k));
  } else if (op.kind === 'delete') next.deleted = true;
  else if (op.kind === 'restore') next.deleted = false;
  else if (op.kind === 'complete') {
    next.completed = true;
    next.time_completed = prev.time_completed ?? at(2);
  } else if (op.kind === 'uncomplete') {
    next.completed = false;
    next.time_completed = null;
  } else if (op.kind === 'move') next.site = m.sites[op.site % m.sites.length]!;
  m.latest.set(next.response_id, next);
  return next;
}

// ---------------------------------------------------------------------------------------------------------------
// The expected results, computed here from the model.

const quantile = (sorted: number[], p: number) => {
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (pos - lo) * (sorted[hi]! - sorted[lo]!);
};

function numberExpect(values: number[]) {
  if (values.length === 0) return { count: 0 };
  const s = [...values].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  const avg = sum / s.length;
  const v = s.length > 1 ? s.reduce((a, x) => a + (x - avg) ** 2, 0) / (s.length - 1) : null;
  return {
    count: s.length,
    sum,
    avg,
    min: s[0],
    max: s.at(-1),
    var: v,
    quartiles: [quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75)],
  };
}

interface Selection {
  sites?: number[];
  users?: number[];
  completedOnly?: boolean;
  showDeleted?: boolean;
  createdFrom?: string;
  createdTo?: string;
}

function selected(m: Model, sel: Selection): ResponseEvent[] {
  return [...m.latest.values()].filter(
    (e) =>
      (sel.showDeleted || !e.deleted) &&
      (!sel.completedOnly || e.completed) &&
      (!sel.sites || sel.sites.includes(e.site ?? 0)) &&
      (!sel.users || sel.users.includes(e.user ?? 0)) &&
      (!sel.createdFrom || e.time_created.slice(0, 10) >= sel.createdFrom) &&
      (!sel.createdTo || e.time_created.slice(0, 10) <= sel.createdTo),
  );
}

const answersOf = (rs: ResponseEvent[], item: number) =>
  rs.flatMap((e) =>
    Object.values(e.data)
      .map((v) => v[String(item)])
      .filter((v) => v !== undefined && v !== null && v !== ''),
  );

function expected(m: Model, sel: Selection) {
  const rs = selected(m, sel);
  const f = m.form;
  const choiceCounts = (item: number) => {
    const answers = answersOf(rs, item) as number[][];
    return {
      count: answers.filter((a) => a.length > 0).length,
      per: Object.fromEntries(f.choices[item]!.map((c) => [c, answers.filter((a) => a.includes(c)).length])),
    };
  };
  const dates = (answersOf(rs, f.date) as string[]).sort();
  const times = rs.map((e) => e.time_created).sort();
  return {
    total: rs.length,
    first: times[0] ?? null,
    last: times.at(-1) ?? null,
    num: numberExpect(answersOf(rs, f.num) as number[]),
    whole: numberExpect(answersOf(rs, f.whole) as number[]),
    extra: m.extra === null ? null : numberExpect(answersOf(rs, m.extra) as number[]),
    single: choiceCounts(f.single),
    multi: choiceCounts(f.multi),
    date: { count: dates.length, min: dates[0] ?? null, max: dates.at(-1) ?? null },
    text: { count: answersOf(rs, f.text).length },
    bySite: Object.fromEntries(
      [...new Set(rs.map((e) => e.site ?? 0))].map((s) => [
        String(s),
        answersOf(
          rs.filter((e) => e.site === s),
          f.num,
        ).length,
      ]),
    ),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Publishing and asking.

/** Publishes the events in order; a duplicate is published without a message id (so the stream keeps both). */
async function publish(m: Model, events: ResponseEvent[], duplicates: Set<number>): Promise<number> {
  let n = 0;
  for (const [i, e] of events.entries()) {
    const subject = responseSubject(peers.infra.natsPrefix, e.project);
    await js.publish(subject, JSON.stringify(e), { msgID: `${e.response_id}:${e.version}` });
    n++;
    if (duplicates.has(i)) {
      await js.publish(subject, JSON.stringify(e));
      n++;
    }
  }
  return n;
}

let totalPublished = 0;
async function ingested(): Promise<void> {
  const end = Date.now() + 60_000;
  while (ingestor.stats.messages < totalPublished || (await ingestor.pending()) > 0) {
    if (Date.now() > end) throw new Error(`ingestion stuck at ${ingestor.stats.messages} of ${totalPublished}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const request = (m: Model, fields: Partial<results.ResultsRequest>): results.ResultsRequest => ({
  caller: owner,
  project_id: m.project,
  schema_id: m.schema,
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
  aggregator: '',
  ...fields,
});

interface Payload {
  items: { item_id: number; stats: Record<string, unknown>; [k: string]: unknown }[];
  levels: { total_filtered_responses: number; first_response: string | null; last_response: string | null }[];
  meta: { path: string; scan?: string[]; tables?: string[] };
}
const ask = async (s: ResultsService, req: results.ResultsRequest) =>
  JSON.parse((await s.results(req, ctx)).payload_json) as Payload;

/** Numbers equal to 1e-9 relative (sums in another order), everything else exactly. */
function close(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)) ? [] : [`${path}: ${a} != ${b}`];
  if (Array.isArray(a) && Array.isArray(b))
    return a.length !== b.length
      ? [`${path}: length ${a.length} != ${b.length}`]
      : a.flatMap((x, i) => close(x, b[i], `${path}[${i}]`));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`),
    );
  }
  return a === b || (a == null && b == null) ? [] : [`${path}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`];
}

/** Every kind of results query, from both paths, against the model; the differences found. */
async function check(m: Model): Promise<string[]> {
  const problems: string[] = [];
  const sel = (s: Selection) => {
    const filters: Record<string, unknown> = {};
    if (s.sites) filters.site = s.sites;
    if (s.users) filters.collector = s.users;
    if (s.completedOnly) filters.showOnlyCompleted = true;
    if (s.showDeleted) filters.showDeleted = true;
    if (s.createdFrom || s.createdTo)
      filters.date_ranges = [
        {
          entity: 'response',
          dateType: 'time_created',
          startDateTime: s.createdFrom ? Date.parse(`${s.createdFrom}T00:00:00Z`) / 1000 : null,
          endDateTime: s.createdTo ? Date.parse(`${s.createdTo}T23:59:59.999Z`) / 1000 : null,
        },
      ];
    return JSON.stringify(filters);
  };
  // Each with the aggregate table that must serve it (the smallest that holds its dimensions).
  const selections: [Selection, string][] = [
    [{}, 'values'],
    [{ showDeleted: true }, 'values'],
    [{ completedOnly: true }, 'values'],
    [{ sites: [m.sites[0]!] }, 'sites'],
    [{ sites: m.sites.slice(1), completedOnly: true }, 'sites'],
    [{ users: [m.users[1]!] }, 'cube'],
    [{ createdFrom: '2026-01-07', createdTo: '2026-01-12' }, 'cube'],
    [{ createdFrom: '2026-02-01', createdTo: '2026-02-28' }, 'months'],
    [{ sites: [m.sites[1]!], createdFrom: '2026-01-01', createdTo: '2026-01-31', completedOnly: true }, 'months'],
    [{ sites: [m.sites[2]!], createdFrom: '2026-01-01', createdTo: '2026-02-14' }, 'cube'],
  ];
  const comparisons: [Record<string, string>[], string][] = [
    [[{ by: 'site' }], 'sites'],
    [[{ by: 'group' }], 'sites'],
    [[{ by: 'collector' }], 'cube'],
    [[{ by: 'period', period: 'day' }], 'cube'],
    [[{ by: 'period', period: 'week' }], 'cube'],
    [[{ by: 'period', period: 'month' }], 'months'],
    [[{ by: 'period', period: 'quarter' }], 'months'],
  ];
  const f = m.form;
  for (const [s, table] of selections) {
    const req = request(m, { filters_json: sel(s) });
    const [a, b] = [await ask(aggregated, req), await ask(scanned, req)];
    const label = `selection ${JSON.stringify(s)}`;
    if (a.meta.path !== 'aggregates') problems.push(`${label}: served by ${a.meta.path} (${a.meta.scan?.join(', ')})`);
    else if (a.meta.tables?.join() !== table) problems.push(`${label}: read ${a.meta.tables?.join()}, not ${table}`);
    if (b.meta.path !== 'scan') problems.push(`${label}: the scan was not used`);
    const strip = (p: Payload) => ({ ...p, meta: undefined });
    problems.push(...close(strip(a), strip(b), `${label} aggregates vs scan`));
    const e = expected(m, s);
    const item = (id: number) => a.items.find((i) => i.item_id === id)!;
    const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());
    problems.push(
      ...close(
        [a.levels[0]!.total_filtered_responses, iso(a.levels[0]!.first_response), iso(a.levels[0]!.last_response)],
        [e.total, e.first, e.last],
        `${label} level`,
      ),
    );
    for (const [name, id, exp] of [
      ['num', f.num, e.num],
      ['whole', f.whole, e.whole],
      ...(m.extra !== null ? [['extra', m.extra, e.extra]] : []),
    ] as [string, number, ReturnType<typeof numberExpect>][]) {
      const st = item(id).stats;
      const got =
        exp.count === 0
          ? { count: st.count }
          : {
              count: st.count,
              sum: st.sum,
              avg: st.avg,
              min: st.min,
              max: st.max,
              var: st.var,
              quartiles: st.quartiles,
            };
      problems.push(...close(got, exp, `${label} ${name}`));
    }
    for (const [name, id, exp] of [
      ['single', f.single, e.single],
      ['multi', f.multi, e.multi],
    ] as const) {
      const it = item(id);
      const per = Object.fromEntries(
        (it.answers as { choice_id: number; count: number }[]).map((x) => [x.choice_id, x.count]),
      );
      problems.push(...close({ count: it.stats.count, per }, exp, `${label} ${name}`));
    }
    problems.push(...close(item(f.date).stats, e.date, `${label} date`));
    problems.push(...close({ count: item(f.text).stats.count }, e.text, `${label} text`));
  }
  for (const [c, table] of comparisons) {
    const req = request(m, { comparisons_json: JSON.stringify(c), item_ids: [f.num, f.single, f.date, f.text] });
    const [a, b] = [await ask(aggregated, req), await ask(scanned, req)];
    const label = `comparison ${JSON.stringify(c)}`;
    if (a.meta.path !== 'aggregates') problems.push(`${label}: served by ${a.meta.path}`);
    else if (a.meta.tables?.join() !== table) problems.push(`${label}: read ${a.meta.tables?.join()}, not ${table}`);
    problems.push(...close({ ...a, meta: undefined }, { ...b, meta: undefined }, `${label} aggregates vs scan`));
    if (c[0]!.by === 'site') {
      const groups = (
        a.items.find((i) => i.item_id === f.num)!.comparison as { groups: { key: string; stats: { count: number } }[] }
      ).groups;
      const got = Object.fromEntries(groups.map((g) => [g.key, g.stats.count]).filter(([, n]) => n !== 0));
      const exp = Object.fromEntries(Object.entries(expected(m, {}).bySite).filter(([, n]) => n !== 0));
      problems.push(...close(got, exp, `${label} counts per site`));
    }
  }
  problems.push(...(await checkViews(m)));
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------

const noViewFilters = { site: [], group: [], team: [], collector: [], created_by: [] };
const viewRequest = (m: Model, fields: Partial<views.ViewRequest>): views.ViewRequest => ({
  caller: owner,
  project_id: m.project,
  schema_id: 0,
  filters: undefined,
  page: 0,
  page_size: 0,
  period: '',
  time_zone: '',
  start_date: '',
  end_date: '',
  ...fields,
});

/**
 * The views and the collector pickers from both paths: the same replies to the bit (the aggregates' durations are the
 * scan's whole milliseconds), the aggregates' plan used (`tz`, when set, is the aggregates' time zone), and the totals
 * as computed here from the newest versions. The differences found.
 */
async function checkViews(m: Model, tz = ''): Promise<string[]> {
  const problems: string[] = [];
  const advanced = (req: results.ResultsRequest, c: CallContext) => aggregated.advancedResults(req, c);
  const site = m.sites[0]!;
  const req = (fields: Partial<views.ViewRequest>) => viewRequest(m, { time_zone: tz, ...fields });
  const asks: [string, (s: ViewsService) => Promise<unknown>][] = [
    ['summary', (s) => s.summary(req({}), ctx, advanced)],
    [
      'summary of a site and a schema',
      (s) => s.summary(req({ schema_id: m.schema, filters: { ...noViewFilters, site: [site] } }), ctx, advanced),
    ],
    [
      'summary of a collector, second page',
      (s) =>
        s.summary(
          req({ filters: { ...noViewFilters, collector: [m.users[1]!] }, page: 2, page_size: 1 }),
          ctx,
          advanced,
        ),
    ],
    ...(['day', 'week', 'month'] as const).map((period): [string, (s: ViewsService) => Promise<unknown>] => [
      `performance per ${period}`,
      (s) => s.performance(req({ period }), ctx),
    ]),
    [
      'performance of two sites, pages of two',
      (s) =>
        s.performance(
          req({ period: 'week', filters: { ...noViewFilters, site: m.sites.slice(1) }, page_size: 2 }),
          ctx,
        ),
    ],
    ['tracking', (s) => s.tracking(req({}), ctx)],
    [
      'tracking from the 7th to the 12th',
      (s) => s.tracking(req({ start_date: '2026-01-07', end_date: '2026-01-12' }), ctx),
    ],
    [
      'collector pickers',
      (s) => s.collectors({ caller: owner, project_id: m.project, q: '', limit: 100, offset: 0 }, ctx),
    ],
  ];
  for (const [label, ask] of asks) {
    const before = viewPlans.length;
    const [a, b] = [await ask(viewsAggregated), await ask(viewsScanned)];
    const scans = viewPlans.slice(before).filter(([, p]) => p.path !== 'aggregates');
    if (scans.length > 0) problems.push(`views ${label}: scanned ${JSON.stringify(scans)}`);
    if (JSON.stringify(a) !== JSON.stringify(b))
      problems.push(...close(a, b, `views ${label} aggregates vs scan`), `views ${label}: not the same bits`);
  }
  // The totals, computed here (every schema: the model has one).
  const rs = [...m.latest.values()];
  const live = rs.filter((e) => !e.deleted);
  const created = live.map((e) => new Date(e.time_created).toISOString()).sort();
  const { totals } = await viewsAggregated.summary(viewRequest(m, {}), ctx, advanced);
  problems.push(
    ...close(
      totals,
      {
        responses: live.length,
        completed: live.filter((e) => e.completed).length,
        in_progress: live.filter((e) => !e.completed).length,
        deleted: rs.length - live.length,
        first_response: created[0] ?? '',
        last_response: created.at(-1) ?? '',
        collectors: new Set(live.map((e) => e.user ?? 0)).size,
        sites: new Set(live.map((e) => e.site ?? 0)).size,
      },
      'views totals',
    ),
  );
  return problems;
}

async function newModel(): Promise<Model> {
  const project = await newProject(peers, owner, `Aggregates ${Date.now()}`);
  const schema = project.project_hierarchy[0]!.schema_id;
  const form = makeForm();
  const doc = await clients.forms.getSchemaDocument({ caller: owner, schema_id: schema });
  await clients.forms.saveSchemaDocument({
    caller: owner,
    schema_id: schema,
    body_json: JSON.stringify(form.body),
    revision: doc.revision,
    name: '',
  });
  const sites: number[] = [];
  for (const name of ['North', 'South', 'East']) {
    const s = await clients.projects.createSite(
      projects.SiteRequest.fromPartial({
        caller: owner,
        project_id: project.id,
        name,
        geotag: { latitude: -1.3, longitude: 36.8 },
        geotag_given: true,
      }),
    );
    sites.push(s.id);
  }
  return {
    project: project.id,
    schema,
    sites,
    users: [11, 12, 13, 0],
    form,
    extra: null,
    latest: new Map(),
    published: [],
  };
}

async function addQuestion(m: Model): Promise<void> {
  const doc = await clients.forms.getSchemaDocument({ caller: owner, schema_id: m.schema });
  const body = JSON.parse(doc.body_json) as SchemaBody;
  const blockId = Object.keys(body.entities.blocks)[0]!;
  const r = addItem(body, Number(blockId), 'number', 'en', 'Rooms');
  await clients.forms.saveSchemaDocument({
    caller: owner,
    schema_id: m.schema,
    body_json: JSON.stringify(r.body),
    revision: doc.revision,
    name: '',
  });
  m.form = { ...m.form, body: r.body };
  m.extra = r.id;
}

function opArb(m: Model): fc.Arbitrary<Op> {
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('upload' as const),
        data: answersArb(m.form, m.extra),
        site: fc.constantFrom(...m.sites),
        user: fc.constantFrom(...m.users),
        // 5 January to 14 February: whole months and parts of months.
        day: fc.integer({ min: 0, max: 40 }),
        complete: fc.boolean(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('edit' as const), target: fc.nat(), data: answersArb(m.form, m.extra) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constantFrom('delete' as const, 'restore' as const, 'complete' as const, 'uncomplete' as const),
        target: fc.nat(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), target: fc.nat(), site: fc.nat() }) },
  );
}

/**
 * One run: `n` random operations (a question added to the form half way), their events published in `chunks`
 * with some reordered and some duplicated, ingested, then checked.
 */
async function run(n: number, seed: number): Promise<{ model: Model; problems: string[] }> {
  const m = await newModel();
  const rand = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed, numRuns: n * 3 });
  const events: ResponseEvent[] = [];
  for (let step = 0; step < n; step++) {
    if (step === Math.floor(n / 2)) await addQuestion(m);
    const [op] = fc.sample(opArb(m), { seed: rand[step]!, numRuns: 1 });
    const e = apply(m, op!, step);
    if (e) events.push(structuredClone(e));
  }
  // Out of order: swap some neighbours (an older version may then arrive after a newer one).
  for (let i = 0; i + 1 < events.length; i++)
    if (rand[n + i]! % 4 === 0) [events[i], events[i + 1]] = [events[i + 1]!, events[i]!];
  const duplicates = new Set(events.map((_, i) => i).filter((i) => rand[2 * n + (i % n)]! % 7 === 0));
  const chunk = Math.max(1, Math.ceil(events.length / 3));
  for (let i = 0; i < events.length; i += chunk) {
    totalPublished += await publish(
      m,
      events.slice(i, i + chunk),
      new Set([...duplicates].filter((d) => d >= i && d < i + chunk).map((d) => d - i)),
    );
    await ingested();
  }
  m.published = events;
  return { model: m, problems: await check(m) };
}

describe('aggregates under change', () => {
  it('answer every kind of results query as the scans and as computed from the newest versions (small runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), async (seed) => {
        const { problems } = await run(40, seed);
        expect(problems).toEqual([]);
      }),
      { numRuns: 4, seed: 20261207 },
    );
  }, 600_000);

  it('stay exact over a medium run of 600 changes', async () => {
    const { model, problems } = await run(600, 7);
    expect(problems).toEqual([]);
    expect(model.latest.size).toBeGreaterThan(100);
  }, 600_000);

  it('count days in the time zone set for the project, and scan other time zones', async () => {
    const { model: m, problems } = await run(60, 11);
    expect(problems).toEqual([]);
    await ingestor.setTimeZone(m.project, 'Asia/Tokyo');
    // Whole days in Tokyo (UTC+9): 7 to 12 January.
    const days = JSON.stringify({
      date_ranges: [
        {
          entity: 'response',
          dateType: 'time_created',
          startDateTime: Date.parse('2026-01-07T00:00:00+09:00') / 1000,
          endDateTime: (Date.parse('2026-01-13T00:00:00+09:00') - 1) / 1000,
        },
      ],
    });
    const inTokyo = request(m, {
      time_zone: 'Asia/Tokyo',
      filters_json: days,
      comparisons_json: JSON.stringify([{ by: 'period', period: 'day' }]),
    });
    const [a, b] = [await ask(aggregated, inTokyo), await ask(scanned, inTokyo)];
    expect(a.meta.path).toBe('aggregates');
    expect(close({ ...a, meta: undefined }, { ...b, meta: undefined })).toEqual([]);
    const tokyo = (e: ResponseEvent) => new Date(Date.parse(e.time_created) + 9 * 3_600_000).toISOString().slice(0, 10);
    const want = [...m.latest.values()].filter(
      (e) => !e.deleted && tokyo(e) >= '2026-01-07' && tokyo(e) <= '2026-01-12',
    );
    expect(a.levels[0]!.total_filtered_responses).toBe(want.length);
    // UTC days are not the aggregates' days any more: scanned, and still right.
    const inUtc = await ask(
      aggregated,
      request(m, { comparisons_json: JSON.stringify([{ by: 'period', period: 'day' }]) }),
    );
    expect(inUtc.meta).toEqual({
      ...inUtc.meta,
      path: 'scan',
      scan: ['the time zone UTC (the aggregates count days in Asia/Tokyo)'],
    });
    // The views in Tokyo: series and date ranges from the aggregates' days there, the same as the scan.
    expect(await checkViews(m, 'Asia/Tokyo')).toEqual([]);
    // In UTC the series scans (its days are not the aggregates'); the tables still come from the aggregates.
    const before = viewPlans.length;
    await viewsAggregated.performance(viewRequest(m, { period: 'day' }), ctx);
    expect(viewPlans.slice(before)).toEqual([
      ['performance', { path: 'aggregates' }],
      [
        'performance series',
        { path: 'scan', reasons: ['the time zone UTC (the aggregates count days in Asia/Tokyo)'] },
      ],
    ]);
  }, 600_000);

  it('are caught by the check when the retraction is broken', async () => {
    const store = (ingestor.aggregator as unknown as { store: StateStore }).store;
    const apply = store.apply.bind(store);
    // The old state is never retracted: edits, deletions and moves then count twice.
    store.apply = (changes: readonly ChangeRow[], states: readonly StateRow[]) =>
      apply(
        changes.filter((c) => c.sign > 0),
        states,
      );
    try {
      const { problems } = await run(40, 99);
      expect(problems.length).toBeGreaterThan(0);
      // The views' check catches it too.
      expect(problems.filter((p) => p.startsWith('views')).length).toBeGreaterThan(0);
    } finally {
      store.apply = apply;
    }
  }, 600_000);
});
