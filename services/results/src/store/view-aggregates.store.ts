// The summary, performance and tracking views answered from the aggregates (docs/results.md "Aggregates", "Which path
// serves a request"): the same rows as ViewsStore's scans, from signed counts summed per group (groups adding up to
// zero left out), with no FINAL. Counts, collectors, sites, days and the series come from agg_responses; exact first
// and last times from agg_times, read only on the days where they fall; durations from agg_durations.
//
// liveRows: which collectors, sites and days have responses counted more than zero times needs the rows summed per
// collector and day first (a large hash table), unless no row involved is a retraction (n < 0). Every group of equal
// sort keys then adds up to more than zero exactly when one of its rows is above zero, so the rows above zero tell
// the live collectors and days at once. Retractions disappear as ClickHouse merges them with what they retract; the
// groups that still hold one are summed per collector and day (exact either way).
import type { Engine } from '../engine/engine.js';
import type { Scope } from '../domain/query.js';
import { dayRuns, type ViewPeriod } from '../domain/views.js';
import {
  GROUP_KEYS,
  viewConditions,
  type GroupBy,
  type GroupRow,
  type TotalsRow,
  type ViewFilterIds,
  type ViewRange,
} from './views.store.js';
import type { Where } from './where.js';

/** A group's days from agg_responses: the first and last day created and the last day updated of its responses. */
interface GroupDays {
  key: string;
  first_day: string;
  last_day: string;
  activity_day: string;
}

/** A group's exact times: first and last time_created, last time_updated. */
interface GroupTimes {
  first: string | null;
  last: string | null;
  activity: string | null;
}

export class ViewAggregatesStore {
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
  ) {}

  /**
   * The conditions of a view on the aggregates: viewConditions (every aggregate carries project, schema, site, group,
   * team and collector) and the date range on the days of time_created. `tz` is the time zone of the aggregates'
   * days (the planner answers a range here only when it is the request's).
   */
  where(projectId: number, schemaId: number, f: ViewFilterIds, scope: Scope, range: ViewRange, tz: string): Where {
    const { parts, params } = viewConditions(projectId, schemaId, f, scope);
    params.daysTz = tz;
    if (range.start) {
      params.start = range.start;
      parts.push('d_created >= toDate32({start:String})');
    }
    if (range.end) {
      params.end = range.end;
      parts.push('d_created <= toDate32({end:String})');
    }
    return { sql: parts.join(' AND '), params };
  }

  /**
   * Responses not deleted (completed, first and last created, collectors, sites) and deleted ones. The counts are
   * sums of the signed rows; collectors, sites and days need to know which of them have responses counted more than
   * zero times, which the rows tell at once while none of them is a retraction not yet merged away (see liveRows):
   * else one exact pass with grouping sets (who, which sites and which days add up to more than zero).
   */
  async totals(where: Where, _tz: string): Promise<TotalsRow> {
    type Row = TotalsRow & { first_day: string; last_day: string; negatives: number };
    let [r] = await this.engine.query<Row>(
      `SELECT sumIf(x, deleted = 0) AS n, sumIf(x, deleted = 0 AND completed = 1) AS n_completed,
              sumIf(x, deleted = 1) AS n_deleted, uniqExactIf(user_id, deleted = 0 AND x > 0) AS collectors,
              uniqExactIf(site_id, deleted = 0 AND x > 0) AS sites,
              toString(minIf(d_created, deleted = 0 AND x > 0)) AS first_day,
              toString(maxIf(d_created, deleted = 0 AND x > 0)) AS last_day, countIf(x < 0) AS negatives
       FROM (SELECT deleted, completed, user_id, site_id, d_created, n AS x FROM ${this.db}.agg_responses
              WHERE ${where.sql})`,
      where.params,
    );
    if (r && Number(r.negatives) > 0)
      [r] = await this.engine.query<Row>(
        `SELECT sumIf(c, s = 0 AND deleted = 0) AS n, sumIf(c, s = 0 AND deleted = 0 AND completed = 1) AS n_completed,
                sumIf(c, s = 0 AND deleted = 1) AS n_deleted, countIf(s = 1 AND deleted = 0) AS collectors,
                countIf(s = 2 AND deleted = 0) AS sites, toString(minIf(d_created, s = 3 AND deleted = 0)) AS first_day,
                toString(maxIf(d_created, s = 3 AND deleted = 0)) AS last_day, 0 AS negatives
         FROM (SELECT deleted, completed, user_id, site_id, d_created, sum(n) AS c,
                      multiIf(grouping(completed) = 0, 0, grouping(user_id) = 0, 1, grouping(site_id) = 0, 2, 3) AS s
                 FROM ${this.db}.agg_responses WHERE ${where.sql}
                GROUP BY GROUPING SETS ((deleted, completed), (deleted, user_id), (deleted, site_id), (deleted, d_created))
               HAVING c > 0)
         SETTINGS force_grouping_standard_compatibility = 1`,
        where.params,
      );
    const totals = {
      n: r?.n ?? '0',
      n_completed: r?.n_completed ?? '0',
      n_deleted: r?.n_deleted ?? '0',
      first: null,
      last: null,
      collectors: r?.collectors ?? '0',
      sites: r?.sites ?? '0',
    };
    if (!r || Number(r.n) === 0) return totals;
    const times = await this.times(where, null, [
      { key: '', first_day: r.first_day, last_day: r.last_day, activity_day: '' },
    ]);
    const t = times.get('');
    return { ...totals, first: t?.first ?? null, last: t?.last ?? null };
  }

  /** The people with responses (not deleted) in `where`, with their counts: the most active `most`. */
  async collectors(where: Where, most: number): Promise<{ id: string; n: string }[]> {
    return this.engine.query<{ id: string; n: string }>(
      `SELECT toString(user_id) AS id, c AS n FROM (
         SELECT user_id, sum(n) AS c FROM ${this.db}.agg_responses WHERE ${where.sql} AND deleted = 0 AND user_id > 0
          GROUP BY user_id HAVING c > 0)
       ORDER BY c DESC, user_id LIMIT {most:UInt32}`,
      { ...where.params, most },
    );
  }

  /**
   * The responses not deleted per site, collector, group or team: a page of groups, most responses first (or only
   * the groups `keys`, when given), each with the count of all groups. Three reads: the page with its counts and
   * days (agg_responses), its exact times (agg_times, on those days only) and its durations (agg_durations).
   */
  async grouped(
    where: Where,
    by: GroupBy,
    _tz: string,
    page: { size: number; offset: number },
    keys?: number[],
  ): Promise<GroupRow[]> {
    const column = GROUP_KEYS[by];
    type Row = GroupDays & Omit<GroupRow, 'first' | 'last' | 'activity' | 'avg_s' | 'median_s'> & { negatives: number };
    const params = { ...where.params, size: page.size, offset: page.offset };
    const only = (ids: number[] | undefined) => (ids ? ` AND ${column} IN {keys:Array(UInt64)}` : '');
    // The page from the rows as they are (a small hash table per group: about a third of the time of summing per
    // group, collector and day first); exact for every group none of whose rows is a retraction (liveRows).
    const rows = await this.engine.query<Row>(
      `SELECT toString(k) AS key, sum(x) AS n, sumIf(x, completed = 1) AS n_completed,
              toString(minIf(d_created, x > 0)) AS first_day, toString(maxIf(d_created, x > 0)) AS last_day,
              toString(maxIf(d_updated, x > 0)) AS activity_day, uniqExactIf(user_id, x > 0) AS collectors,
              countIf(x < 0) AS negatives, count() OVER () AS groups
       FROM (SELECT ${column} AS k, completed, user_id, d_created, d_updated, n AS x FROM ${this.db}.agg_responses
              WHERE ${where.sql} AND deleted = 0${only(keys)})
       GROUP BY k HAVING sum(x) > 0 ORDER BY sum(x) DESC, k LIMIT {size:UInt32} OFFSET {offset:UInt32}`,
      { ...params, ...(keys ? { keys } : {}) },
    );
    // Groups with retractions not merged away yet: their collectors and days summed per collector and day first.
    const unmerged = rows.filter((r) => Number(r.negatives) > 0).map((r) => Number(r.key));
    if (unmerged.length > 0) {
      const exact = await this.engine.query<Row>(
        `SELECT toString(k) AS key, toString(min(d_created)) AS first_day, toString(max(d_created)) AS last_day,
                toString(max(d_updated)) AS activity_day, uniqExact(user_id) AS collectors
         FROM (SELECT ${column} AS k, completed, user_id, d_created, d_updated, sum(n) AS c FROM ${this.db}.agg_responses
                WHERE ${where.sql} AND deleted = 0${only(unmerged)}
                GROUP BY k, completed, user_id, d_created, d_updated HAVING c > 0)
         GROUP BY k`,
        { ...where.params, keys: unmerged },
      );
      for (const e of exact) {
        const { first_day, last_day, activity_day, collectors } = e;
        Object.assign(
          rows.find((r) => r.key === e.key)!,
          { first_day, last_day, activity_day, collectors },
        );
      }
    }
    if (rows.length === 0) return [];
    const times = await this.times(where, column, rows);
    const durations = await this.durations(
      where,
      column,
      rows.map((r) => Number(r.key)),
    );
    return rows.map(({ first_day: _f, last_day: _l, activity_day: _a, negatives: _n, ...r }) => {
      const t = times.get(r.key);
      const d = durations.get(r.key);
      return {
        ...r,
        first: t?.first ?? null,
        last: t?.last ?? null,
        activity: t?.activity ?? null,
        avg_s: d?.avg_s ?? null,
        median_s: d?.median_s ?? null,
      };
    });
  }

  /**
   * The exact first and last time_created and last time_updated of each group (`column`; null: one group, key ''),
   * from agg_times read only on the days that agg_responses gave as each group's first and last day created and last
   * day updated. agg_times is sorted by (project, schema, col, time, ...), so each run of days is one range of its
   * sort key; a time counts when its rows add up to more than zero. A group's first day holds its first time and no
   * day read before it holds any of its responses, so the minimum over the days read is its first time (and so for
   * the lasts). The range of time is the day's in the aggregates' time zone; d_created and d_updated decide.
   */
  private async times(where: Where, column: string | null, groups: GroupDays[]): Promise<Map<string, GroupTimes>> {
    const params: Record<string, unknown> = { ...where.params };
    const ranges = (col: number, dayColumn: string, days: string[]) =>
      dayRuns(days.filter((d) => d !== '')).map(({ from, to }, i) => {
        params[`f${col}_${i}`] = from;
        params[`t${col}_${i}`] = to;
        const [f, t] = [`{f${col}_${i}:Date32}`, `{t${col}_${i}:Date32}`];
        return `(col = ${col} AND t >= toDateTime64(${f}, 3, {daysTz:String}) AND t < toDateTime64(${t} + 1, 3, {daysTz:String})
                 AND ${dayColumn} BETWEEN ${f} AND ${t})`;
      });
    const created = ranges(
      0,
      'd_created',
      groups.flatMap((g) => [g.first_day, g.last_day]),
    );
    const updated = ranges(
      1,
      'd_updated',
      groups.map((g) => g.activity_day),
    );
    const key = column ?? "''";
    if (column) params.keys = groups.map((g) => Number(g.key));
    const rows = await this.engine.query<{ key: string; col: number; lo: string; hi: string }>(
      `SELECT key, col, toString(min(t)) AS lo, toString(max(t)) AS hi FROM (
         SELECT toString(${key}) AS key, col, t, sum(n) AS c FROM ${this.db}.agg_times
          WHERE ${where.sql} AND deleted = 0${column ? ` AND ${column} IN {keys:Array(UInt64)}` : ''}
            AND (${[...created, ...updated].join(' OR ')})
          GROUP BY key, col, t HAVING c > 0)
       GROUP BY key, col`,
      params,
    );
    const out = new Map<string, GroupTimes>();
    for (const r of rows) {
      const g = out.get(r.key) ?? { first: null, last: null, activity: null };
      if (Number(r.col) === 0) {
        g.first = r.lo;
        g.last = r.hi;
      } else g.activity = r.hi;
      out.set(r.key, g);
    }
    return out;
  }

  /**
   * The average and median seconds from creation to completion of each group's completed responses, from their
   * distribution in whole milliseconds: each duration read back as many times as it is counted, so that the sum,
   * the count and quantileExactInclusive see the scan's values (and give its bits).
   */
  private async durations(
    where: Where,
    column: string,
    keys: number[],
  ): Promise<Map<string, { avg_s: number | null; median_s: number | null }>> {
    const rows = await this.engine.query<{ key: string; avg_s: number | null; median_s: number | null }>(
      `SELECT toString(k) AS key, sum(ms) / count() / 1000 AS avg_s, quantileExactInclusive(0.5)(ms) / 1000 AS median_s
       FROM (SELECT ${column} AS k, ms, sum(n) AS c FROM ${this.db}.agg_durations
              WHERE ${where.sql} AND ${column} IN {keys:Array(UInt64)} GROUP BY k, ms HAVING c > 0)
       ARRAY JOIN range(toUInt64(c)) AS _copy
       GROUP BY k`,
      { ...where.params, keys },
    );
    return new Map(rows.map((r) => [r.key, { avg_s: r.avg_s, median_s: r.median_s }]));
  }

  /** Responses not deleted (and completed) per period of the day created, earliest first, at most `cap` + 1. */
  async series(
    where: Where,
    period: ViewPeriod,
    _tz: string,
    cap: number,
  ): Promise<{ period: string; n: string; n_completed: string }[]> {
    return this.engine.query(
      `SELECT period, c AS n, cc AS n_completed FROM (
         SELECT toString(toDate(dateTrunc('${period}', d_created))) AS period, sum(n) AS c, sumIf(n, completed = 1) AS cc
           FROM ${this.db}.agg_responses WHERE ${where.sql} AND deleted = 0
          GROUP BY period HAVING c > 0)
       ORDER BY period LIMIT {cap:UInt32}`,
      { ...where.params, cap: cap + 1 },
    );
  }
}
