// The summary, performance and tracking views (ViewsService, as the gRPC handlers call it) on the real ClickHouse
// engine (chDB), fed as in production: responses uploaded to the real responses service reach the stream through
// its outbox and the ingestor. The real projects service decides access and holds the sites and their targets.
// Every expected figure is counted by hand from the five responses below, and each view is asked of both paths: the
// aggregates (the project's are ready, in UTC) and the scan (a service told the project has no aggregates). After
// an edit, a deletion, a restoration and a site move, both are compared with figures computed here from the
// responses' newest versions.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auth, common, forms, projects, responses, type views } from '@fieldwork/proto';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { createClient, createLogger, type CallContext } from '@fieldwork/service-kit';
import { acceptInvitation, newOwner, newProject, startPeers, type Peers } from '../../projects/test/support/peers.js';
import { migrateResults } from '../src/app.js';
import { loadResultsConfig } from '../src/config.js';
import { ChdbEngine } from '../src/engine/chdb.engine.js';
import { Ingestor } from '../src/ingest/consumer.js';
import { CountService } from '../src/service/count.service.js';
import { ResultsService } from '../src/service/results.service.js';
import { ViewsService, type AdvancedResultsFn, type ViewPart } from '../src/service/views.service.js';
import type { ViewPlan } from '../src/domain/planner.js';
import { CountStore } from '../src/store/count.store.js';
import { ResultsStore } from '../src/store/results.store.js';
import { AggregatesStore } from '../src/store/aggregates.store.js';
import { ViewsStore } from '../src/store/views.store.js';
import { ViewAggregatesStore } from '../src/store/view-aggregates.store.js';

let peers: Peers;
let engine: ChdbEngine;
let ingestor: Ingestor;
/** The views from the aggregates (as in production once a project's are counted). */
let aggregated: ViewsService;
/** The views from the scan: the planner is told the project has no aggregates. */
let scanned: ViewsService;
/** The plans each service made, latest last (the replies do not say their path). */
const plans: { aggregates: [ViewPart, ViewPlan][]; scan: [ViewPart, ViewPlan][] } = { aggregates: [], scan: [] };
/** The advanced results use case the summary is given (as the gRPC handler gives it). */
let advanced: AdvancedResultsFn;
let counts: CountService;

/** The scans only: the project has no aggregates as far as the planner knows. */
class NoAggregates extends AggregatesStore {
  override project(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
}

const log = createLogger('views-service-test', 'silent');
const connect = () => {
  const secret = { secret: peers.contextSecret };
  return {
    projects: createClient(projects.ProjectsServiceClient, peers.address('projects'), secret),
    forms: createClient(forms.FormsServiceClient, peers.address('forms'), secret),
    responses: createClient(responses.ResponsesServiceClient, peers.address('responses'), secret),
    auth: createClient(auth.AuthServiceClient, peers.address('auth'), secret),
  };
};
let clients: ReturnType<typeof connect>;
const ctx = { requestId: 'views-service-test', log, headers: {} } as unknown as CallContext;

beforeAll(async () => {
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadResultsConfig({ ...peers.env('results'), CLICKHOUSE_PATH: join(peers.dataDir, 'chdb-views') });
  engine = new ChdbEngine(config.CLICKHOUSE_PATH);
  await migrateResults(engine, config, log);
  ingestor = new Ingestor(engine, {
    natsUrl: peers.infra.natsUrl,
    prefix: peers.infra.natsPrefix,
    db: config.CLICKHOUSE_DATABASE,
    log,
  });
  ingestor.start();
  clients = connect();
  const results = new ResultsService(
    new ResultsStore(engine, config.CLICKHOUSE_DATABASE),
    new AggregatesStore(engine, config.CLICKHOUSE_DATABASE),
    clients.projects,
    clients.forms,
    peers.contextSecret,
  );
  const views = (counted: AggregatesStore, seen: [ViewPart, ViewPlan][]) =>
    new ViewsService(
      new ViewsStore(engine, config.CLICKHOUSE_DATABASE),
      new ViewAggregatesStore(engine, config.CLICKHOUSE_DATABASE),
      counted,
      clients.projects,
      clients.forms,
      clients.auth,
      peers.contextSecret,
      (part, plan) => seen.push([part, plan]),
    );
  aggregated = views(new AggregatesStore(engine, config.CLICKHOUSE_DATABASE), plans.aggregates);
  scanned = views(new NoAggregates(engine, config.CLICKHOUSE_DATABASE), plans.scan);
  advanced = (req, c) => results.advancedResults(req, c);
  counts = new CountService(new CountStore(engine, config.CLICKHOUSE_DATABASE));
}, 120_000);

afterAll(async () => {
  await ingestor?.stop();
  clients?.projects.close();
  clients?.forms.close();
  clients?.responses.close();
  clients?.auth.close();
  await peers?.stop();
  await engine?.close();
});

const at = (s: string) => `2026-01-${s}Z`;

/** A response as the test knows its newest version. */
interface Known {
  user: number;
  site: number;
  created: string;
  updated: string;
  completed: string | null;
  deleted: boolean;
}

/**
 * Sites North (target 4, 1 to 10 January) and South (target 10), the project's goal 8, and five responses:
 *   r0 owner  North  created 05 10:00, completed 10:10 (600 s)
 *   r1 owner  North  created 06 09:00, completed 09:20 (1200 s)
 *   r2 owner  South  created 06 12:00, in progress
 *   r3 owner  South  created 13 08:00, deleted
 *   r4 Cleo   South  created 13 09:00, completed 09:30 (1800 s)
 * Cleo is a collector of South who reads North (read_sites): she sees r0, r1 and her r4.
 */
async function fixture() {
  const { caller } = await newOwner(peers, 'views');
  const project = await newProject(peers, caller, 'Views');
  const schema = project.project_hierarchy[0]!.schema_id;
  // One number question (a response with no answer is not stored).
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
  const doc = await clients.forms.getSchemaDocument({ caller, schema_id: schema });
  await clients.forms.saveSchemaDocument({
    caller,
    schema_id: schema,
    body_json: JSON.stringify(adults.body),
    revision: doc.revision,
    name: '',
  });
  await clients.projects.updateProject(
    projects.UpdateProjectRequest.fromPartial({ caller, project_id: project.id, goal_count: 8 }),
  );
  const site = (name: string, goal: number, dates: { date_start?: string; date_end?: string } = {}) =>
    clients.projects.createSite(
      projects.SiteRequest.fromPartial({
        caller,
        project_id: project.id,
        name,
        geotag: { longitude: 2.35, latitude: 48.85 },
        goal_count: goal,
        ...dates,
      }),
    );
  const north = await site('North', 4, { date_start: '2026-01-01', date_end: '2026-01-10' });
  const south = await site('South', 10);
  const full = await clients.projects.getProject({ caller, project_id: project.id });
  const defaultSite = full.sites.find((s: projects.Site) => s.id !== north.id && s.id !== south.id)!;
  const added = await clients.projects.addProjectUser(
    projects.AddProjectUserRequest.fromPartial({
      caller,
      project_id: project.id,
      email: `views.collector.${peers.infra.runId}@example.org`,
      first_name: 'Cleo',
      last_name: 'Collector',
      password: 'correct horse 42',
      roles: { collector: true },
      site: south.id,
      read_sites: [north.id],
    }),
  );
  await acceptInvitation(peers, added.email);
  const cleo = common.Caller.fromPartial({ user_id: added.user_id, organization_id: caller.organization_id });
  const upload = (
    who: common.Caller,
    n: number,
    siteId: number,
    created: string,
    completed: string | null,
    extra: object = {},
  ) =>
    clients.responses.upload({
      caller: who,
      project_id: project.id,
      action: completed ? 'complete' : 'save',
      payload_json: JSON.stringify({
        sampler_schema: schema,
        device_id: 'd',
        response_id: `${project.id}-${schema}-${who.user_id}-d-${n}`,
        site: siteId,
        time_created: at(created),
        time_updated: at(created),
        ...(completed ? { time_completed: at(completed) } : {}),
        data: { '0': { [adults.id]: n + 1 } },
        ...extra,
      }),
    });
  await upload(caller, 0, north.id, '05T10:00:00', '05T10:10:00');
  await upload(caller, 1, north.id, '06T09:00:00', '06T09:20:00');
  await upload(caller, 2, south.id, '06T12:00:00', null);
  await upload(caller, 3, south.id, '13T08:00:00', null);
  await upload(caller, 3, south.id, '13T08:00:00', null, { deleted: true, data: { '0': { [adults.id]: 40 } } });
  await upload(cleo, 4, south.id, '13T09:00:00', '13T09:30:00');
  const end = Date.now() + 30_000;
  // Four live responses, and the deleted one's latest version.
  for (;;) {
    const c = await counts.counts({ project_id: project.id });
    const status = await engine.query<{ n: string }>(
      `SELECT count() AS n FROM ${loadResultsConfig(peers.env('results')).CLICKHOUSE_DATABASE}.responses FINAL WHERE project_id = {p:UInt64} AND deleted = 1`,
      { p: project.id },
    );
    if (c.all?.total === 4 && Number(status[0]?.n) === 1) break;
    if (Date.now() > end)
      throw new Error(`the responses never reached the results: ${JSON.stringify([c.all, status])}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // The newest version of each response, as the test knows it (what the views must show).
  const iso = (t: string) => new Date(at(t)).toISOString();
  const model = new Map<string, Known>(
    (
      [
        [caller, 0, north.id, '05T10:00:00', '05T10:10:00', false],
        [caller, 1, north.id, '06T09:00:00', '06T09:20:00', false],
        [caller, 2, south.id, '06T12:00:00', null, false],
        [caller, 3, south.id, '13T08:00:00', null, true],
        [cleo, 4, south.id, '13T09:00:00', '13T09:30:00', false],
      ] as const
    ).map(([who, n, siteId, created, completed, deleted]) => [
      `r${n}`,
      {
        user: who.user_id,
        site: siteId,
        created: iso(created),
        updated: iso(created),
        completed: completed ? iso(completed) : null,
        deleted,
      },
    ]),
  );
  const responseId = (n: number) => `${project.id}-${schema}-${(n === 4 ? cleo : caller).user_id}-d-${n}`;
  return {
    caller,
    cleo,
    project,
    schema,
    north,
    south,
    defaultSite,
    ownerId: caller.user_id,
    upload,
    responseId,
    adults: adults.id,
    model,
  };
}

const request = (fields: Partial<views.ViewRequest>): views.ViewRequest => ({
  caller: undefined,
  project_id: 0,
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
/** A scan because the request's time zone is not the aggregates'. */
const isZoneScan = (plan: ViewPlan) => plan.path === 'scan' && plan.reasons.every((r) => r.startsWith('the time zone'));
const noFilters = { site: [], group: [], team: [], collector: [], created_by: [] };

let f: Awaited<ReturnType<typeof fixture>>;

describe(ViewsService.name, () => {
  beforeAll(async () => {
    f = await fixture();
  }, 90_000);

  describe.each(['aggregates', 'scan'] as const)('from the %s', (path) => {
    let service: ViewsService;
    let seen = 0;
    beforeAll(() => {
      service = path === 'aggregates' ? aggregated : scanned;
    });
    beforeEach(() => {
      seen = plans[path].length;
    });
    afterEach(() => {
      // Every view of this block was served by `path`, but a series in a time zone the aggregates do not count in.
      const other = plans[path]
        .slice(seen)
        .filter(([part, plan]) => plan.path !== path && !(part === 'performance series' && isZoneScan(plan)));
      expect(other).toEqual([]);
    });

    describe('summary', () => {
      it('counts responses, completed, in progress and deleted, the first and last, and per site', async () => {
        const out = await service.summary(request({ caller: f.caller, project_id: f.project.id }), ctx, advanced);
        expect(out.totals).toEqual({
          responses: 4,
          completed: 3,
          in_progress: 1,
          deleted: 1,
          first_response: '2026-01-05T10:00:00.000Z',
          last_response: '2026-01-13T09:00:00.000Z',
          collectors: 2,
          sites: 2,
        });
        expect(out.by_site!.count).toBe(2);
        // Most responses first, then by site id (North was made first).
        expect(out.by_site!.results.map((r) => [r.name, r.responses, r.completed, r.collectors])).toEqual([
          ['North', 2, 2, 1],
          ['South', 2, 1, 2],
        ]);
        expect(out.advanced_results).toEqual([]);
      });

      it('keeps the filter set: a site, a collector', async () => {
        const bySite = await service.summary(
          request({ caller: f.caller, project_id: f.project.id, filters: { ...noFilters, site: [f.south.id] } }),
          ctx,
          advanced,
        );
        expect(bySite.totals).toMatchObject({ responses: 2, completed: 1, in_progress: 1, deleted: 1 });
        const byCollector = await service.summary(
          request({
            caller: f.caller,
            project_id: f.project.id,
            filters: { ...noFilters, collector: [f.cleo.user_id] },
          }),
          ctx,
          advanced,
        );
        expect(byCollector.totals).toMatchObject({ responses: 1, completed: 1, deleted: 0 });
      });

      it('shows only what read_sites and their own responses give a collector', async () => {
        const out = await service.summary(request({ caller: f.cleo, project_id: f.project.id }), ctx, advanced);
        // r0 and r1 (North, read) and r4 (her own); not r2 nor the deleted r3 (South, the owner's).
        expect(out.totals).toMatchObject({ responses: 3, completed: 3, in_progress: 0, deleted: 0, sites: 2 });
        expect(out.by_site!.results.map((r) => [r.name, r.responses])).toEqual([
          ['North', 2],
          ['South', 1],
        ]);
      });

      it('refuses an unknown site, group or team with the spec message, and a bad time zone', async () => {
        await expect(
          service.summary(
            request({ caller: f.caller, project_id: f.project.id, filters: { ...noFilters, site: [999_999] } }),
            ctx,
            advanced,
          ),
        ).rejects.toMatchObject({ code: '400.1', fields: { site: ['Invalid Project or Site Id!'] } });
        await expect(
          service.summary(
            request({ caller: f.caller, project_id: f.project.id, filters: { ...noFilters, team: [999_999] } }),
            ctx,
            advanced,
          ),
        ).rejects.toMatchObject({ code: '400.1', fields: { team: ['Invalid Project or Team Id!'] } });
        await expect(
          service.summary(
            request({ caller: f.caller, project_id: f.project.id, time_zone: 'Mars/Olympus' }),
            ctx,
            advanced,
          ),
        ).rejects.toMatchObject({ code: '400.1', fields: { time_zone: [expect.any(String)] } });
      });

      it('refuses a caller who may not read results', async () => {
        const other = await newOwner(peers, 'views-other');
        await expect(
          service.summary(request({ caller: other.caller, project_id: f.project.id }), ctx, advanced),
        ).rejects.toMatchObject({ code: '404.4' });
      });
    });

    describe('performance', () => {
      it('gives per collector and per site the responses, completed, durations, first and last', async () => {
        const out = await service.performance(request({ caller: f.caller, project_id: f.project.id }), ctx);
        expect(out.by_collector!.count).toBe(2);
        const [owner, cleo] = out.by_collector!.results;
        expect(owner).toMatchObject({
          id: f.ownerId,
          responses: 3,
          completed: 2,
          avg_duration_s: 900,
          median_duration_s: 900,
          first_response: '2026-01-05T10:00:00.000Z',
          last_response: '2026-01-06T12:00:00.000Z',
        });
        expect(cleo).toMatchObject({ id: f.cleo.user_id, name: 'Cleo Collector', responses: 1, avg_duration_s: 1800 });
        expect(out.by_site!.results.map((r) => [r.name, r.responses, r.avg_duration_s])).toEqual([
          ['North', 2, 900],
          ['South', 2, 1800],
        ]);
      });

      it('lists the people whose responses the caller sees, searched by name, for the collector pickers', async () => {
        const ask = (caller: common.Caller, q = '', limit = 0, offset = 0) =>
          service.collectors({ caller, project_id: f.project.id, q, limit, offset }, ctx);
        const all = await ask(f.caller);
        expect(all.count).toBe(2);
        // The owner's three live responses (r3 is deleted), Cleo's one.
        expect(all.results.find((r) => r.id === f.ownerId)).toMatchObject({ responses: 3 });
        expect(all.results.find((r) => r.id === f.cleo.user_id)).toMatchObject({
          name: 'Cleo Collector',
          responses: 1,
        });
        expect(await ask(f.caller, 'cleo')).toEqual({
          results: [{ id: f.cleo.user_id, name: 'Cleo Collector', responses: 1 }],
          count: 1,
        });
        expect((await ask(f.caller, '', 1, 1)).results).toHaveLength(1);
        // Cleo reads North (the owner's r0 and r1) and her own r4: the owner counts 2 for her.
        const hers = await ask(f.cleo);
        expect(hers.results.find((r) => r.id === f.ownerId)).toMatchObject({ responses: 2 });
        await expect(ask(f.caller, '', 101)).rejects.toMatchObject({
          code: '400.1',
          fields: { limit: ['Ensure this value is between 1 and 100.'] },
        });
      });

      it('gives the series per day, week and month, in the time zone asked', async () => {
        const series = async (period: string, tz = '') =>
          (
            await service.performance(
              request({ caller: f.caller, project_id: f.project.id, period, time_zone: tz }),
              ctx,
            )
          ).series.map((s) => [s.period, s.responses, s.completed]);
        expect(await series('day')).toEqual([
          ['2026-01-05', 1, 1],
          ['2026-01-06', 2, 1],
          ['2026-01-13', 1, 1],
        ]);
        // Weeks start on Monday: 5 and 12 January 2026 are Mondays.
        expect(await series('week')).toEqual([
          ['2026-01-05', 3, 2],
          ['2026-01-12', 1, 1],
        ]);
        expect(await series('month')).toEqual([['2026-01-01', 4, 3]]);
        // Auckland is 13 hours ahead in January: r2 (12:00 UTC on the 6th) falls on the 7th.
        expect(await series('day', 'Pacific/Auckland')).toEqual([
          ['2026-01-05', 1, 1],
          ['2026-01-06', 1, 1],
          ['2026-01-07', 1, 0],
          ['2026-01-13', 1, 1],
        ]);
      });

      it('pages the tables and caps the page size', async () => {
        const out = await service.performance(
          request({ caller: f.caller, project_id: f.project.id, page: 2, page_size: 1 }),
          ctx,
        );
        expect(out.by_collector).toMatchObject({
          count: 2,
          results: [expect.objectContaining({ id: f.cleo.user_id })],
        });
        const past = await service.performance(
          request({ caller: f.caller, project_id: f.project.id, page: 9, page_size: 1 }),
          ctx,
        );
        expect(past.by_site).toEqual({ count: 2, results: [] });
      });

      it('refuses an unknown period', async () => {
        await expect(
          service.performance(request({ caller: f.caller, project_id: f.project.id, period: 'fortnight' }), ctx),
        ).rejects.toMatchObject({ code: '400.1', fields: { period: ['Choose one of day, week, month.'] } });
      });
    });

    describe('tracking', () => {
      it('sets each site and the project against their targets, sites without responses included', async () => {
        const out = await service.tracking(request({ caller: f.caller, project_id: f.project.id }), ctx);
        expect(out.project).toMatchObject({ responses: 4, completed: 3, target: 8, percent: 50 });
        expect(out.by_site!.count).toBe(3);
        const sites = Object.fromEntries(out.by_site!.results.map((r) => [r.id, r]));
        expect(sites[f.north.id]).toMatchObject({ responses: 2, target: 4, percent: 50, expected: 4 });
        expect(sites[f.south.id]).toMatchObject({ responses: 2, target: 10, percent: 20 });
        expect(sites[f.south.id]!.expected).toBeUndefined();
        expect(sites[f.defaultSite.id]).toMatchObject({ responses: 0, target: 0 });
        expect(sites[f.defaultSite.id]!.percent).toBeUndefined();
      });

      it('keeps the permanent date range, both days included', async () => {
        const out = await service.tracking(
          request({ caller: f.caller, project_id: f.project.id, start_date: '2026-01-06', end_date: '2026-01-06' }),
          ctx,
        );
        expect(out.project).toMatchObject({ responses: 2, percent: 25 });
        const sites = Object.fromEntries(out.by_site!.results.map((r) => [r.id, r]));
        expect(sites[f.north.id]).toMatchObject({ responses: 1, percent: 25 });
        expect(sites[f.south.id]).toMatchObject({ responses: 1, percent: 10 });
        expect(out).toMatchObject({ start_date: '2026-01-06', end_date: '2026-01-06' });
      });

      it("shows a collector only the sites they read and their own responses' sites", async () => {
        const out = await service.tracking(request({ caller: f.cleo, project_id: f.project.id }), ctx);
        expect(out.project).toMatchObject({ responses: 3 });
        expect(out.by_site!.results.map((r) => [r.id, r.responses]).sort()).toEqual(
          [
            [f.north.id, 2],
            [f.south.id, 1],
          ].sort(),
        );
      });

      it("keeps a site's target as set in Settings → Sites, and refuses one below 0", async () => {
        const site = (goal_count: number) =>
          clients.projects.updateSite(
            projects.SiteRequest.fromPartial({
              caller: f.caller,
              project_id: f.project.id,
              site_id: f.south.id,
              goal_count,
            }),
          );
        expect((await site(12)).goal_count).toBe(12);
        await expect(site(-1)).rejects.toMatchObject({
          code: '400.1',
          fields: { goal_count: ['Ensure this value is greater than or equal to 0.'] },
        });
        const out = await service.tracking(request({ caller: f.caller, project_id: f.project.id }), ctx);
        expect(out.by_site!.results.find((r) => r.id === f.south.id)).toMatchObject({ target: 12, percent: 16.7 });
        await site(10);
      });

      it('refuses an inverted range and a date that does not exist', async () => {
        await expect(
          service.tracking(
            request({ caller: f.caller, project_id: f.project.id, start_date: '2026-02-01', end_date: '2026-01-01' }),
            ctx,
          ),
        ).rejects.toMatchObject({
          code: '400.1',
          fields: { end_date: ['The end date must not be before the start date.'] },
        });
        await expect(
          service.tracking(request({ caller: f.caller, project_id: f.project.id, start_date: '2026-02-30' }), ctx),
        ).rejects.toMatchObject({ code: '400.1', fields: { start_date: ['Enter a date as YYYY-MM-DD.'] } });
      });
    });
  });

  describe('summary', () => {
    it('shows the advanced results flagged for the summary with their threshold state', async () => {
      const save = (name: string, formula: string, flagged: boolean) =>
        clients.projects.saveAdvancedResult(
          projects.SaveAdvancedResultRequest.fromPartial({
            caller: f.caller,
            project_id: f.project.id,
            id: 0,
            fields: projects.AdvancedResult.fromPartial({
              name,
              formula,
              threshold_value_upper: 2,
              threshold_value_lower: 0,
              show_on_project_summary: flagged,
              editor_state_json: '{}',
            }),
          }),
        );
      await save('Three', '1+2', true);
      await save('Hidden', '1', false);
      const out = await aggregated.summary(request({ caller: f.caller, project_id: f.project.id }), ctx, advanced);
      expect(out.advanced_results).toEqual([
        expect.objectContaining({ name: 'Three', value: 3, status: 'above', threshold_value_upper: 2 }),
      ]);
    });
  });

  describe('after an edit, a deletion, a restoration and a site move', () => {
    /** The figures of a table computed here: per group of the live responses, most responses first, then by id. */
    const tableOf = (live: Known[], key: (k: Known) => number) => {
      const groups = new Map<number, Known[]>();
      for (const k of live) groups.set(key(k), [...(groups.get(key(k)) ?? []), k]);
      const rows = [...groups].map(([id, ks]) => {
        const created = ks.map((k) => k.created).sort();
        const ms = ks
          .filter((k) => k.completed !== null)
          .map((k) => Date.parse(k.completed!) - Date.parse(k.created))
          .sort((a, b) => a - b);
        const mid = (ms.length - 1) / 2;
        return {
          id,
          responses: ks.length,
          completed: ks.filter((k) => k.completed !== null).length,
          first_response: created[0],
          last_response: created.at(-1),
          last_activity: ks
            .map((k) => k.updated)
            .sort()
            .at(-1),
          avg_duration_s: ms.length ? ms.reduce((a, b) => a + b, 0) / ms.length / 1000 : undefined,
          median_duration_s: ms.length ? (ms[Math.floor(mid)]! + ms[Math.ceil(mid)]!) / 2 / 1000 : undefined,
          collectors: new Set(ks.map((k) => k.user)).size,
        };
      });
      rows.sort((a, b) => b.responses - a.responses || a.id - b.id);
      return { count: rows.length, rows };
    };
    /** Every figure of the views computed here from the known responses that `sees` keeps (days in UTC). */
    const expectedOf = (sees: (k: Known) => boolean, range = { start: '', end: '' }) => {
      const kept = [...f.model.values()].filter(
        (k) =>
          sees(k) &&
          (!range.start || k.created.slice(0, 10) >= range.start) &&
          (!range.end || k.created.slice(0, 10) <= range.end),
      );
      const live = kept.filter((k) => !k.deleted);
      const created = live.map((k) => k.created).sort();
      const days = [...new Set(live.map((k) => k.created.slice(0, 10)))].sort();
      return {
        totals: {
          responses: live.length,
          completed: live.filter((k) => k.completed !== null).length,
          in_progress: live.filter((k) => k.completed === null).length,
          deleted: kept.length - live.length,
          first_response: created[0] ?? '',
          last_response: created.at(-1) ?? '',
          collectors: new Set(live.map((k) => k.user)).size,
          sites: new Set(live.map((k) => k.site)).size,
        },
        bySite: tableOf(live, (k) => k.site),
        byCollector: tableOf(live, (k) => k.user),
        series: days.map((d) => {
          const on = live.filter((k) => k.created.startsWith(d));
          return { period: d, responses: on.length, completed: on.filter((k) => k.completed !== null).length };
        }),
      };
    };
    const pick = (t: views.ViewTable | undefined) => ({
      count: t!.count,
      rows: t!.results.map((r) => ({
        id: r.id,
        responses: r.responses,
        completed: r.completed,
        first_response: r.first_response,
        last_response: r.last_response,
        last_activity: r.last_activity,
        avg_duration_s: r.avg_duration_s,
        median_duration_s: r.median_duration_s,
        collectors: r.collectors,
      })),
    });
    /** Every view as `svc` answers `caller` (tracking also over one day), whole replies. */
    const viewsOf = async (svc: ViewsService, caller: common.Caller) => {
      const ask = (fields: Partial<views.ViewRequest> = {}) => request({ caller, project_id: f.project.id, ...fields });
      return {
        summary: await svc.summary(ask(), ctx, advanced),
        performance: await svc.performance(ask({ period: 'day' }), ctx),
        tracking: await svc.tracking(ask(), ctx),
        trackingDay: await svc.tracking(ask({ start_date: '2026-01-06', end_date: '2026-01-06' }), ctx),
        pickers: await svc.collectors({ caller, project_id: f.project.id, q: '', limit: 100, offset: 0 }, ctx),
      };
    };
    /** What differs between both paths, and between the aggregates and the figures computed here. */
    const differences = async (caller: common.Caller, sees: (k: Known) => boolean) => {
      const [a, b] = [await viewsOf(aggregated, caller), await viewsOf(scanned, caller)];
      const e = expectedOf(sees);
      const day = expectedOf(sees, { start: '2026-01-06', end: '2026-01-06' });
      const tracked = (t: views.TrackingReply) => ({
        project: pick({ count: 1, results: [t.project!] }).rows.map(({ id: _i, last_activity: _l, ...r }) => r)[0],
        sites: pick(t.by_site).rows.filter((r) => r.responses > 0),
      });
      const got = {
        summary: { totals: a.summary.totals, bySite: pick(a.summary.by_site) },
        performance: {
          totals: a.performance.totals,
          bySite: pick(a.performance.by_site),
          byCollector: pick(a.performance.by_collector),
          series: a.performance.series,
        },
        tracking: tracked(a.tracking),
        trackingDay: tracked(a.trackingDay),
        pickers: Object.fromEntries(a.pickers.results.map((r) => [r.id, r.responses])),
      };
      const trackedOf = (x: ReturnType<typeof expectedOf>) => ({
        project: {
          responses: x.totals.responses,
          completed: x.totals.completed,
          first_response: x.totals.first_response,
          last_response: x.totals.last_response,
          avg_duration_s: undefined,
          median_duration_s: undefined,
          collectors: x.totals.collectors,
        },
        // Tracking lists the project's sites in their order (by id), those with responses here.
        sites: [...x.bySite.rows].sort((p, q) => p.id - q.id),
      });
      const want = {
        summary: { totals: e.totals, bySite: e.bySite },
        performance: { totals: e.totals, bySite: e.bySite, byCollector: e.byCollector, series: e.series },
        tracking: trackedOf(e),
        trackingDay: trackedOf(day),
        pickers: Object.fromEntries(e.byCollector.rows.filter((r) => r.id > 0).map((r) => [r.id, r.responses])),
      };
      return { paths: [a, b] as const, got, want };
    };

    /** Uploads a change, records it in the model, and waits until both paths show what the model says. */
    const change = async (upload: () => Promise<unknown>, known: string, next: Partial<Known>) => {
      await upload();
      f.model.set(known, { ...f.model.get(known)!, ...next });
      const end = Date.now() + 30_000;
      for (;;) {
        const d = await differences(f.caller, () => true);
        if (
          JSON.stringify(d.got) === JSON.stringify(d.want) &&
          JSON.stringify(d.paths[0]) === JSON.stringify(d.paths[1])
        )
          return;
        if (Date.now() > end) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const check = async () => {
      const cleoSees = (k: Known) => k.user === f.cleo.user_id || k.site === f.north.id;
      for (const [caller, sees] of [
        [f.caller, () => true],
        [f.cleo, cleoSees],
      ] as const) {
        const before = plans.aggregates.length;
        const d = await differences(caller, sees);
        expect(d.paths[0]).toEqual(d.paths[1]);
        expect(d.got).toEqual(d.want);
        expect(plans.aggregates.slice(before).filter(([, p]) => p.path !== 'aggregates')).toEqual([]);
      }
    };
    const at14 = (h: string) => ({ time_updated: at(`14T${h}:00`) });

    const db = () => loadResultsConfig(peers.env('results')).CLICKHOUSE_DATABASE;
    const AGGREGATES = ['agg_responses', 'agg_times', 'agg_durations'];

    it('as uploaded', async () => {
      await check();
      // The retractions of the changes below stay unmerged until the last test: ClickHouse would merge them away at
      // a moment of its choosing.
      for (const table of AGGREGATES) await engine.exec(`SYSTEM STOP MERGES ${db()}.${table}`);
    });

    it('after an edit that completes a response', async () => {
      // r2: South, in progress; now completed 45 minutes after it was created.
      await change(
        () =>
          f.upload(f.caller, 2, f.south.id, '06T12:00:00', '06T12:45:00', {
            ...at14('10:00'),
            data: { '0': { [f.adults]: 7 } },
          }),
        'r2',
        { completed: new Date(at('06T12:45:00')).toISOString(), updated: new Date(at('14T10:00:00')).toISOString() },
      );
      await check();
    });

    it('after a deletion', async () => {
      await change(
        () => f.upload(f.caller, 0, f.north.id, '05T10:00:00', null, { ...at14('11:00'), deleted: true }),
        'r0',
        { deleted: true, updated: new Date(at('14T11:00:00')).toISOString() },
      );
      await check();
    });

    it('after a restoration', async () => {
      await change(
        () => f.upload(f.caller, 3, f.south.id, '13T08:00:00', null, { ...at14('12:00'), deleted: false }),
        'r3',
        { deleted: false, updated: new Date(at('14T12:00:00')).toISOString() },
      );
      await check();
    });

    it('after a move to another site', async () => {
      // Cleo's r4 moved from South to North by the owner: it stays hers. (An upload that changes only the site is
      // taken as unmodified by the responses service, so an answer changes with it.)
      await change(
        () =>
          f.upload(f.caller, 4, f.north.id, '13T09:00:00', null, {
            ...at14('13:00'),
            response_id: f.responseId(4),
            data: { '0': { [f.adults]: 9 } },
          }),
        'r4',
        { site: f.north.id, updated: new Date(at('14T13:00:00')).toISOString() },
      );
      await check();
    });

    it('before and after ClickHouse merges the retractions away', async () => {
      // Unmerged retractions (rows of n < 0) send the groups that hold one to the exact per-collector-and-day sums;
      // once merged, every group is read from its rows as they are. Both must agree with the figures computed here.
      const negatives = async () =>
        Number(
          (
            await engine.query<{ rows: string }>(
              `SELECT count() AS rows FROM ${db()}.agg_responses WHERE project_id = {p:UInt64} AND n < 0`,
              { p: f.project.id },
            )
          )[0]?.rows,
        );
      expect(await negatives()).toBeGreaterThan(0);
      await check();
      for (const table of AGGREGATES) {
        await engine.exec(`SYSTEM START MERGES ${db()}.${table}`);
        await engine.exec(`OPTIMIZE TABLE ${db()}.${table} FINAL`);
      }
      expect(await negatives()).toBe(0);
      await check();
    });
  });

  it('names the people a collector reads from the accounts: the project shows a collector no other member’s username (issue 30 item 8)', async () => {
    // The owner without a name: their name is their username, which the project shows only to user managers.
    const named = await clients.auth.getUser({ caller: f.caller, id: f.caller.user_id });
    await clients.auth.updateUser({ caller: f.caller, id: f.caller.user_id, first_name: '', last_name: '' });
    try {
      const project = await clients.projects.getProject({ caller: f.cleo, project_id: f.project.id });
      const owner = project.projectuser_set.find((u) => u.user_id === f.caller.user_id)!;
      expect(owner).toMatchObject({ display_name: '', email: '', username: '', permissions: [] });
      const asked = { project_id: f.project.id, q: '', limit: 100, offset: 0 };
      const byOwner = await aggregated.collectors({ ...asked, caller: f.caller }, ctx);
      const byCleo = await aggregated.collectors({ ...asked, caller: f.cleo }, ctx);
      const ownerName = byOwner.results.find((r) => r.id === f.caller.user_id)!.name;
      expect(ownerName).not.toBe('');
      expect(byCleo.results.find((r) => r.id === f.caller.user_id)).toMatchObject({ name: ownerName });
    } finally {
      await clients.auth.updateUser({
        caller: f.caller,
        id: f.caller.user_id,
        first_name: named.first_name,
        last_name: named.last_name,
      });
    }
  });

  // Last: it removes Cleo from the project.
  it('names a collector the project no longer embeds (removed since) from the accounts, not as a number', async () => {
    await clients.projects.deleteProjectUser({ caller: f.caller, project_id: f.project.id, user_id: f.cleo.user_id });
    const project = await clients.projects.getProject({ caller: f.caller, project_id: f.project.id });
    expect(project.projectuser_set.map((u) => u.user_id)).not.toContain(f.cleo.user_id);
    const out = await aggregated.performance(request({ caller: f.caller, project_id: f.project.id }), ctx);
    expect(out.by_collector!.results.find((r) => r.id === f.cleo.user_id)).toMatchObject({
      name: 'Cleo Collector',
      responses: 1,
    });
  });
});
