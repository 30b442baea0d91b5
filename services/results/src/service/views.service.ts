// The summary, performance and tracking views of a project (spec 001 §2 filter sets; issue 20). Summary and
// performance take the filters site, group, team, collector and created by; tracking takes site, group, team and a
// permanent date range, and sets the responses against the targets (the project's goal_count, each site's). Counts
// come from ClickHouse (store/views.store.ts), names and targets from the projects service (collectors it does not
// embed from the auth service), all within the caller's results scope. The planner (domain/planner.ts planView)
// sends each view to the aggregates (store/view-aggregates.store.ts) or to the scan (store/views.store.ts); the
// replies have no place to say which, so the path is logged at debug level (and given to `observe`).
import { resultsScope } from '@fieldwork/access';
import type { auth, common, forms, projects, results, views } from '@fieldwork/proto';
import { Problem, problems, projectAccess, type CallContext, type PromiseClient } from '@fieldwork/service-kit';
import { planView, type ViewPlan } from '../domain/planner.js';
import { TIME_ZONE, type Scope } from '../domain/query.js';
import {
  COLLECTOR_PAGE,
  collectorPage,
  expectedBy,
  pageOf,
  parseDay,
  percentOf,
  SERIES_CAP,
  VIEW_MESSAGES,
  VIEW_PERIODS,
  type ViewPeriod,
} from '../domain/views.js';
import type { AggregatesStore } from '../store/aggregates.store.js';
import type { ViewAggregatesStore } from '../store/view-aggregates.store.js';
import type { GroupBy, GroupRow, ViewFilterIds, ViewRange, ViewsStore } from '../store/views.store.js';
import type { Where } from '../store/where.js';
import type { ViewSource } from './source.js';

type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
type FormsClient = PromiseClient<typeof forms.FormsServiceService, forms.FormsServiceClient>;
type AuthClient = PromiseClient<typeof auth.AuthServiceService, auth.AuthServiceClient>;
/** The advanced results of a project over filtered responses (ResultsService.advancedResults). */
export type AdvancedResultsFn = (req: results.ResultsRequest, ctx: CallContext) => Promise<results.ResultsReply>;

const iso = (t: string | null | undefined) => (t ? `${t.replace(' ', 'T')}Z` : '');
const num = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? undefined : v);

/** Which view asked for a plan, and for what: its tables and totals, or its series per period. */
export type ViewPart = 'summary' | 'performance' | 'performance series' | 'tracking' | 'collectors';

interface Prepared {
  scope: Scope;
  project: projects.Project;
  /** What answers the view's figures (its tables and totals), and its conditions there. */
  source: ViewSource;
  where: Where;
  filters: ViewFilterIds;
  range: ViewRange;
  page: { page: number; size: number; offset: number };
  tz: string;
  /** The project's aggregates (undefined: never counted). */
  counted: { tz: string; ready: boolean } | undefined;
}

export class ViewsService {
  constructor(
    /** The scans of the responses table. */
    private readonly store: ViewsStore,
    /** The same figures from the aggregates, and what the project's aggregates are (AggregatesStore.project). */
    private readonly aggregates: ViewAggregatesStore,
    private readonly counted: Pick<AggregatesStore, 'project'>,
    private readonly projects: ProjectsClient,
    private readonly forms: FormsClient,
    /** Names of the collectors the project does not embed (past its first users, or no longer in it). */
    private readonly auth: AuthClient,
    /** CONTEXT_SIGNING_SECRET: a gateway's grant is used when it carries one (empty: never). */
    private readonly secret = '',
    /** Told each plan (a test seam: the replies do not say their path). */
    private readonly observe?: (part: ViewPart, plan: ViewPlan) => void,
  ) {}

  /** The source of a part of a view, as the planner decides (logged at debug level). */
  private plan(part: ViewPart, counted: Prepared['counted'], tz: string, days: boolean, ctx: CallContext): ViewSource {
    const plan = planView({ days, tz, aggregates: counted });
    ctx.log?.debug({ view: part, ...plan }, 'views: path');
    this.observe?.(part, plan);
    return plan.path === 'aggregates' ? this.aggregates : this.store;
  }

  /** `advanced`: the advanced results use case (ResultsService.advancedResults), for those flagged for the summary. */
  async summary(req: views.ViewRequest, ctx: CallContext, advanced: AdvancedResultsFn): Promise<views.SummaryReply> {
    const p = await this.prepare('summary', req, ctx);
    const totals = await this.totals(p);
    const bySite = await this.table(p, 'site', ctx);
    return { totals, by_site: bySite, advanced_results: await this.flaggedAdvanced(req, p, ctx, advanced) };
  }

  async performance(req: views.ViewRequest, ctx: CallContext): Promise<views.PerformanceReply> {
    const period = (req.period || 'day') as ViewPeriod;
    if (!VIEW_PERIODS.includes(period)) throw problems.invalidFields({ period: [VIEW_MESSAGES.period] });
    const p = await this.prepare('performance', req, ctx);
    const totals = await this.totals(p);
    const byCollector = await this.table(p, 'collector', ctx);
    const bySite = await this.table(p, 'site', ctx);
    // Periods are days of the request's time zone: the aggregates answer them only when they count days in it.
    const series = this.plan('performance series', p.counted, p.tz, true, ctx);
    const where =
      series === p.source
        ? p.where
        : series.where(p.project.id, req.schema_id, p.filters, p.scope, p.range, p.counted?.tz ?? p.tz);
    const rows = await series.series(where, period, p.tz, SERIES_CAP);
    return {
      totals,
      by_collector: byCollector,
      by_site: bySite,
      period,
      series: rows.slice(0, SERIES_CAP).map((r) => ({
        period: r.period,
        responses: Number(r.n),
        completed: Number(r.n_completed),
      })),
      series_truncated: rows.length > SERIES_CAP,
    };
  }

  /**
   * The people whose responses the caller may see (their results scope), named from the project and, for those it
   * does not embed, from the accounts; searched by name and paged here (at most COLLECTOR_PAGE.most people read).
   */
  async collectors(req: views.CollectorsRequest, ctx: CallContext): Promise<views.CollectorList> {
    const fields: Record<string, string[]> = {};
    if (req.limit < 0 || req.limit > COLLECTOR_PAGE.max)
      fields.limit = [`Ensure this value is between 1 and ${COLLECTOR_PAGE.max}.`];
    if (req.offset < 0) fields.offset = ['Ensure this value is greater than or equal to 0.'];
    if (req.q.length > 200) fields.q = ['Ensure this field has no more than 200 characters.'];
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const project = await this.projects.getProject({ caller: req.caller, project_id: req.project_id }, ctx);
    const none: ViewFilterIds = { site: [], group: [], team: [], user: [] };
    const counted = await this.counted.project(req.project_id);
    const source = this.plan('collectors', counted, 'UTC', false, ctx);
    const where = source.where(req.project_id, 0, none, scope, { start: null, end: null }, counted?.tz ?? 'UTC');
    const rows = await source.collectors(where, COLLECTOR_PAGE.most);
    const names = await this.peopleNames(
      project,
      rows.map((r) => Number(r.id)),
      ctx,
    );
    return collectorPage(
      rows.map((r) => ({ id: Number(r.id), name: names.get(Number(r.id)) ?? '', responses: Number(r.n) })),
      req.q,
      req.offset,
      req.limit || COLLECTOR_PAGE.default,
    );
  }

  async tracking(req: views.ViewRequest, ctx: CallContext): Promise<views.TrackingReply> {
    const start = parseDay(req.start_date);
    const end = parseDay(req.end_date);
    const fields: Record<string, string[]> = {};
    if (start === undefined) fields.start_date = [VIEW_MESSAGES.date];
    if (end === undefined) fields.end_date = [VIEW_MESSAGES.date];
    if (start && end && end < start) fields.end_date = [VIEW_MESSAGES.inverted];
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    // Tracking has no collector filter (spec 001 §2).
    const p = await this.prepare(
      'tracking',
      { ...req, filters: { ...emptyFilters(), ...req.filters, collector: [], created_by: [] } },
      ctx,
      {
        start: start ?? null,
        end: end ?? null,
      },
    );
    const today = dayIn(p.tz);
    const t = await p.source.totals(p.where, p.tz);
    const responses = Number(t.n);
    const project = p.project;
    const round = project.current_collection_round_start.slice(0, 10);
    const projectRow: views.ViewRow = {
      ...row(project.id, project.name),
      responses,
      completed: Number(t.n_completed),
      first_response: iso(t.first),
      last_response: iso(t.last),
      collectors: Number(t.collectors),
      target: project.goal_count,
      percent: percentOf(responses, project.goal_count),
      expected: expectedBy(project.goal_count, round || null, project.date_end.slice(0, 10) || null, today),
    };

    // The rows are the project's sites, groups and teams that the filters and the caller's scope keep, with or
    // without responses (a site with a target and nothing collected is what tracking is for).
    const visible = await this.visibleSites(p);
    const f = p.filters;
    const groupSite = new Map(project.groups.map((g) => [g.id, g.site]));
    const teamGroup = new Map(project.teams.map((t) => [t.id, t.group]));
    const keepSite = (siteId: number) =>
      (visible === null || visible.has(siteId)) &&
      (f.site.length === 0 || f.site.includes(siteId)) &&
      (f.group.length === 0 || f.group.some((g) => groupSite.get(g) === siteId)) &&
      (f.team.length === 0 || f.team.some((t) => groupSite.get(teamGroup.get(t) ?? 0) === siteId));
    const keepGroup = (g: projects.Group) =>
      keepSite(g.site) &&
      (f.group.length === 0 || f.group.includes(g.id)) &&
      (f.team.length === 0 || f.team.some((t) => teamGroup.get(t) === g.id));
    const keepTeam = (t: projects.Team) =>
      keepGroup(project.groups.find((g) => g.id === t.group) ?? { id: 0, name: '', site: 0, teams: [] }) &&
      (f.team.length === 0 || f.team.includes(t.id));

    const sites = project.sites.filter((s) => keepSite(s.id));
    const groups = project.groups.filter(keepGroup);
    const teams = project.teams.filter(keepTeam);
    const counted = async <T extends { id: number; name: string }>(
      list: T[],
      by: GroupBy,
      extra: (x: T, r: GroupRow | undefined) => Partial<views.ViewRow>,
    ): Promise<views.ViewTable> => {
      const pageRows = list.slice(p.page.offset, p.page.offset + p.page.size);
      const ids = pageRows.map((x) => x.id);
      const counts =
        ids.length === 0 ? [] : await p.source.grouped(p.where, by, p.tz, { size: ids.length, offset: 0 }, ids);
      const byId = new Map(counts.map((r) => [Number(r.key), r]));
      return {
        count: list.length,
        results: pageRows.map((x) => {
          const r = byId.get(x.id);
          return { ...this.rowOf(x.id, x.name, r), ...extra(x, r) };
        }),
      };
    };
    return {
      project: projectRow,
      by_site: await counted(sites, 'site', (s, r) => ({
        target: s.goal_count,
        percent: percentOf(Number(r?.n ?? 0), s.goal_count),
        expected: expectedBy(s.goal_count, s.date_start || null, s.date_end || null, today),
      })),
      by_group: await counted(groups, 'group', (g) => ({ parent_id: g.site })),
      by_team: await counted(teams, 'team', (t) => ({ parent_id: t.group })),
      start_date: start ?? '',
      end_date: end ?? '',
    };
  }

  /** The sites a caller without every response may see: their read_sites and the sites of their own responses. */
  private async visibleSites(p: Prepared): Promise<Set<number> | null> {
    if (p.scope.all) return null;
    const own = await p.source.grouped(p.where, 'site', p.tz, { size: 1000, offset: 0 });
    return new Set([...p.scope.sites, ...own.map((r) => Number(r.key))]);
  }

  private async totals(p: Prepared): Promise<views.ViewTotals> {
    const t = await p.source.totals(p.where, p.tz);
    const responses = Number(t.n);
    const completed = Number(t.n_completed);
    return {
      responses,
      completed,
      in_progress: responses - completed,
      deleted: Number(t.n_deleted),
      first_response: iso(t.first),
      last_response: iso(t.last),
      collectors: Number(t.collectors),
      sites: Number(t.sites),
    };
  }

  /**
   * A page of the responses per site or collector, most responses first, named from the project; collectors it does
   * not embed (GET project embeds its first 100 users; a collector removed since still has responses) are named by
   * the auth service, for this page's rows only.
   */
  private async table(p: Prepared, by: 'site' | 'collector', ctx: CallContext): Promise<views.ViewTable> {
    const rows = await p.source.grouped(p.where, by, p.tz, p.page);
    const names =
      by === 'site'
        ? new Map(p.project.sites.map((s) => [s.id, s.name]))
        : await this.peopleNames(
            p.project,
            rows.map((r) => Number(r.key)),
            ctx,
          );
    let count = Number(rows[0]?.groups ?? 0);
    // A page past the end has no rows to carry the count: ask for the first.
    if (rows.length === 0 && p.page.offset > 0)
      count = Number((await p.source.grouped(p.where, by, p.tz, { size: 1, offset: 0 }))[0]?.groups ?? 0);
    return {
      count,
      results: rows.map((r) => this.rowOf(Number(r.key), names.get(Number(r.key)) ?? '', r)),
    };
  }

  /**
   * The names of people by id: from the project's embedded users, and for the others (past its first 100 users, or
   * removed since) from the auth service, a thousand at a time.
   */
  private async peopleNames(project: projects.Project, ids: number[], ctx: CallContext): Promise<Map<number, string>> {
    // The project names only those it shows the caller in full; the others are named from the accounts.
    const names = new Map(
      project.projectuser_set
        .map((u) => [u.user_id, u.display_name || u.username || u.email] as const)
        .filter(([, name]) => name !== ''),
    );
    const unnamed = ids.filter((id) => id > 0 && !names.has(id));
    for (let i = 0; i < unnamed.length; i += 1000) {
      const { results: briefs } = await this.auth.getUsers(
        { user_ids: unnamed.slice(i, i + 1000), organization_id: 0 },
        ctx,
      );
      for (const u of briefs) names.set(u.id, u.name || u.username || u.email);
    }
    return names;
  }

  private rowOf(id: number, name: string, r: GroupRow | undefined): views.ViewRow {
    return {
      ...row(id, name),
      responses: Number(r?.n ?? 0),
      completed: Number(r?.n_completed ?? 0),
      first_response: iso(r?.first),
      last_response: iso(r?.last),
      last_activity: iso(r?.activity),
      avg_duration_s: num(r?.avg_s),
      median_duration_s: num(r?.median_s),
      collectors: Number(r?.collectors ?? 0),
    };
  }

  /** The advanced results flagged show_on_project_summary, over the same filtered responses, with their status. */
  private async flaggedAdvanced(
    req: views.ViewRequest,
    p: Prepared,
    ctx: CallContext,
    advanced: AdvancedResultsFn,
  ): Promise<views.SummaryAdvancedResult[]> {
    // The definitions are the results screen's: a caller who reads results through read_sites alone sees none.
    const defs = await this.projects
      .listAdvancedResults({ caller: req.caller, project_id: p.project.id }, ctx)
      .then((l) => l.results)
      .catch((err: unknown) => {
        if (err instanceof Problem && err.status === 403) return [];
        throw err;
      });
    if (!defs.some((d) => d.show_on_project_summary && !d.deleted)) return [];
    const f = p.filters;
    const out = await advanced(
      {
        caller: req.caller,
        project_id: p.project.id,
        schema_id: req.schema_id,
        block_id: 0,
        item_ids: [],
        filters_json: JSON.stringify({ site: f.site, group: f.group, team: f.team, collector: f.user }),
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
      },
      ctx,
    );
    type Evaluated = projects.AdvancedResult & { value: number | null; error: string | null; status: string };
    const evaluated = (JSON.parse(out.payload_json) as { results: Evaluated[] }).results;
    return evaluated
      .filter((r) => r.show_on_project_summary && !r.deleted)
      .map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        value: num(r.value),
        error: r.error ?? '',
        status: r.status,
        threshold_value_upper: r.threshold_value_upper ?? undefined,
        threshold_value_lower: r.threshold_value_lower ?? undefined,
        display_type: r.display_type,
      }));
  }

  /**
   * The caller's scope, the project (names, targets), the filter set checked against it, the page and time zone, and
   * what answers the view's tables and totals (days matter to them only through tracking's date range).
   */
  private async prepare(
    part: ViewPart,
    req: views.ViewRequest,
    ctx: CallContext,
    range: ViewRange = { start: null, end: null },
  ): Promise<Prepared> {
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const tz = req.time_zone || 'UTC';
    if (!validZone(tz)) throw problems.invalidFields({ time_zone: ['Enter a time zone such as UTC or Europe/Paris.'] });
    if (req.page < 0) throw problems.invalidFields({ page: [VIEW_MESSAGES.page] });
    if (req.page_size < 0) throw problems.invalidFields({ page_size: [VIEW_MESSAGES.page] });
    if (req.schema_id > 0) {
      const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
      if (!schemas.some((s) => s.id === req.schema_id)) throw problems.invalidSchemaId();
    }
    const project = await this.projects.getProject({ caller: req.caller, project_id: req.project_id }, ctx);
    const f = { ...emptyFilters(), ...req.filters };
    const unknown = (ids: number[], known: { id: number }[]) => ids.some((id) => !known.some((k) => k.id === id));
    const fields: Record<string, string[]> = {};
    if (unknown(f.site, project.sites)) fields.site = ['Invalid Project or Site Id!'];
    if (unknown(f.group, project.groups)) fields.group = ['Invalid Project or Group Id!'];
    if (unknown(f.team, project.teams)) fields.team = ['Invalid Project or Team Id!'];
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const filters: ViewFilterIds = {
      site: f.site,
      group: f.group,
      team: f.team,
      user: [...new Set([...f.collector, ...f.created_by])],
    };
    const counted = await this.counted.project(req.project_id);
    const source = this.plan(part, counted, tz, range.start !== null || range.end !== null, ctx);
    return {
      scope,
      project,
      source,
      filters,
      range,
      where: source.where(req.project_id, req.schema_id, filters, scope, range, counted?.tz ?? tz),
      page: pageOf(req.page, req.page_size),
      tz,
      counted,
    };
  }

  private async scope(caller: common.Caller | undefined, projectId: number, ctx: CallContext): Promise<Scope> {
    if (!caller || caller.user_id <= 0) throw problems.notAuthenticated();
    const a = await projectAccess(this.secret, ctx.metadata, caller, projectId, () =>
      this.projects.getAccess({ caller, project_id: projectId }, ctx),
    );
    // As the results: the results permission, or read_sites for those sites' responses (spec 001 §6).
    const scope = resultsScope(a, caller.user_id);
    if (!scope) throw problems.forbidden();
    return scope;
  }
}

function emptyFilters(): views.ViewFilters {
  return { site: [], group: [], team: [], collector: [], created_by: [] };
}

function row(id: number, name: string): views.ViewRow {
  return {
    id,
    name,
    responses: 0,
    completed: 0,
    first_response: '',
    last_response: '',
    last_activity: '',
    collectors: 0,
    target: 0,
    parent_id: 0,
  };
}

/** A time zone both ClickHouse's pattern and this process know (an unknown one would fail in the query). */
function validZone(tz: string): boolean {
  if (!TIME_ZONE.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Today as YYYY-MM-DD in `tz`. */
function dayIn(tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}
