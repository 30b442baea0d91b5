// All ClickHouse SQL of the summary, performance and tracking views (spec 001 §2, issue 20) when they scan: totals,
// tables grouped by site, collector, group or team (paged, with the count of groups), and the series over time, each
// one aggregated pass over the responses table (FINAL). The same figures from the aggregates are in
// view-aggregates.store.ts; the planner (domain/planner.ts planView) picks one. The caller's scope is applied exactly
// as the results queries apply it (own responses or read_sites' when the caller does not read every response).
import type { Engine } from '../engine/engine.js';
import type { Scope } from '../domain/query.js';
import type { ViewPeriod } from '../domain/views.js';
import type { Where } from './where.js';

export interface ViewFilterIds {
  site: number[];
  group: number[];
  team: number[];
  /** Collectors and creators: the one user column of a response. */
  user: number[];
}

export interface TotalsRow {
  n: string;
  n_completed: string;
  n_deleted: string;
  first: string | null;
  last: string | null;
  collectors: string;
  sites: string;
}

export interface GroupRow {
  key: string;
  n: string;
  n_completed: string;
  first: string | null;
  last: string | null;
  activity: string | null;
  avg_s: number | null;
  median_s: number | null;
  collectors: string;
  groups: string;
}

export const GROUP_KEYS = { site: 'site_id', collector: 'user_id', group: 'group_id', team: 'team_id' } as const;
export type GroupBy = keyof typeof GROUP_KEYS;

/**
 * Whole milliseconds from creation to completion of a completed response (null otherwise): the durations that
 * clickhouse/0011-durations.sql counts. The average is their integer sum over their count, the median
 * quantileExactInclusive of them, both divided by 1000 last, so that the aggregates give the same bits.
 */
const DURATION_MS = `if(completed = 1 AND time_completed IS NOT NULL AND time_completed >= time_created,
  dateDiff('millisecond', time_created, assumeNotNull(time_completed)), NULL)`;

/** The range of a view on time_created: days (YYYY-MM-DD, both included) in the time zone of the request. */
export interface ViewRange {
  start: string | null;
  end: string | null;
}

/**
 * The conditions of a view on the columns that the responses table and the aggregates share: the project, a schema
 * (0: all), the filter set and the caller's scope. Deleted responses are kept: each query says what it counts.
 */
export function viewConditions(
  projectId: number,
  schemaId: number,
  f: ViewFilterIds,
  scope: Scope,
): { parts: string[]; params: Record<string, unknown> } {
  const params: Record<string, unknown> = { project: projectId };
  const parts = ['project_id = {project:UInt64}'];
  if (schemaId > 0) {
    params.schema = schemaId;
    parts.push('schema_id = {schema:UInt64}');
  }
  const lists: [string, number[]][] = [
    ['site_id', f.site],
    ['group_id', f.group],
    ['team_id', f.team],
    ['user_id', f.user],
  ];
  for (const [column, ids] of lists) {
    if (ids.length === 0) continue;
    params[column] = ids;
    parts.push(`${column} IN {${column}:Array(UInt64)}`);
  }
  if (!scope.all) {
    params.me = scope.userId;
    params.readSites = scope.sites;
    parts.push('(user_id = {me:UInt64} OR site_id IN {readSites:Array(UInt64)})');
  }
  return { parts, params };
}

/**
 * The conditions of a view on the responses table: viewConditions and a date range on time_created in days of time
 * zone {tz:String} (the tracking view's permanent filter).
 */
export function viewWhere(
  projectId: number,
  schemaId: number,
  f: ViewFilterIds,
  scope: Scope,
  range: ViewRange = { start: null, end: null },
): Where {
  const { parts, params } = viewConditions(projectId, schemaId, f, scope);
  if (range.start) {
    params.start = range.start;
    parts.push('toDate(time_created, {tz:String}) >= toDate({start:String})');
  }
  if (range.end) {
    params.end = range.end;
    parts.push('toDate(time_created, {tz:String}) <= toDate({end:String})');
  }
  return { sql: parts.join(' AND '), params };
}

export class ViewsStore {
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
  ) {}

  /** The conditions of a view (viewWhere); `tz`, the time zone of its days, is given to each query. */
  where(projectId: number, schemaId: number, f: ViewFilterIds, scope: Scope, range: ViewRange, _tz: string): Where {
    return viewWhere(projectId, schemaId, f, scope, range);
  }

  /** Responses not deleted (completed, first and last created, collectors, sites) and deleted ones. */
  async totals(where: Where, tz: string): Promise<TotalsRow> {
    const [r] = await this.engine.query<TotalsRow>(
      `SELECT countIf(deleted = 0) AS n, countIf(deleted = 0 AND completed = 1) AS n_completed,
              countIf(deleted = 1) AS n_deleted,
              if(n = 0, NULL, toString(minIf(time_created, deleted = 0))) AS first,
              if(n = 0, NULL, toString(maxIf(time_created, deleted = 0))) AS last,
              uniqExactIf(user_id, deleted = 0) AS collectors, uniqExactIf(site_id, deleted = 0) AS sites
       FROM ${this.db}.responses FINAL WHERE ${where.sql}`,
      { ...where.params, tz },
    );
    return r ?? { n: '0', n_completed: '0', n_deleted: '0', first: null, last: null, collectors: '0', sites: '0' };
  }

  /** The people with responses (not deleted) in `where`, with their counts: the most active `most`. */
  async collectors(where: Where, most: number): Promise<{ id: string; n: string }[]> {
    return this.engine.query<{ id: string; n: string }>(
      `SELECT toString(user_id) AS id, count() AS n FROM ${this.db}.responses FINAL
       WHERE ${where.sql} AND deleted = 0 AND user_id > 0 GROUP BY user_id ORDER BY n DESC, user_id LIMIT {most:UInt32}`,
      { ...where.params, most },
    );
  }

  /**
   * The responses not deleted per site, collector, group or team: a page of groups, most responses first (or only
   * the groups `keys`, when given), each with the count of all groups.
   */
  async grouped(
    where: Where,
    by: GroupBy,
    tz: string,
    page: { size: number; offset: number },
    keys?: number[],
  ): Promise<GroupRow[]> {
    const column = GROUP_KEYS[by];
    const only = keys ? ` AND ${column} IN {keys:Array(UInt64)}` : '';
    return this.engine.query<GroupRow>(
      `SELECT toString(${column}) AS key, count() AS n, countIf(completed = 1) AS n_completed,
              toString(min(time_created)) AS first, toString(max(time_created)) AS last,
              toString(max(time_updated)) AS activity,
              sum(${DURATION_MS}) / count(${DURATION_MS}) / 1000 AS avg_s,
              quantileExactInclusive(0.5)(${DURATION_MS}) / 1000 AS median_s,
              uniqExact(user_id) AS collectors, count() OVER () AS groups
       FROM ${this.db}.responses FINAL WHERE ${where.sql} AND deleted = 0${only}
       GROUP BY ${column} ORDER BY n DESC, ${column} LIMIT {size:UInt32} OFFSET {offset:UInt32}`,
      { ...where.params, tz, size: page.size, offset: page.offset, ...(keys ? { keys } : {}) },
    );
  }

  /** Responses not deleted (and completed) per period of time_created, earliest first, at most `cap` periods + 1. */
  async series(
    where: Where,
    period: ViewPeriod,
    tz: string,
    cap: number,
  ): Promise<{ period: string; n: string; n_completed: string }[]> {
    return this.engine.query(
      `SELECT toString(toDate(dateTrunc('${period}', time_created, {tz:String}), {tz:String})) AS period,
              count() AS n, countIf(completed = 1) AS n_completed
       FROM ${this.db}.responses FINAL WHERE ${where.sql} AND deleted = 0
       GROUP BY period ORDER BY period LIMIT {cap:UInt32}`,
      { ...where.params, tz, cap: cap + 1 },
    );
  }
}
