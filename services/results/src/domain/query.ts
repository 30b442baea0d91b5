// The SQL of results queries: the filter model and the caller's scope as one WHERE clause with bound parameters,
// and the statistics of each kind of question (spec 001 §9 aggregators). Pure: it builds text, it runs nothing.
import { idList, type FilterModel } from '@fieldwork/sampler';

export interface Scope {
  all: boolean;
  userId: number;
  sites: number[];
}

export interface Where {
  sql: string;
  params: Record<string, unknown>;
}

export const TIMING_COLUMNS = ['time_created', 'time_updated', 'time_completed', 'time_uploaded'] as const;
export type TimingColumn = (typeof TIMING_COLUMNS)[number];

/**
 * Conditions on response columns (present in both the responses and the answers tables): project, schema, not
 * deleted unless asked, completed only, site/group/team/collector/created by, date ranges, the caller's scope, and
 * question filters as response_id IN (answers that match).
 */
export function whereOf(db: string, projectId: number, schemaId: number, f: FilterModel, scope: Scope): Where {
  const params: Record<string, unknown> = { project: projectId, schema: schemaId };
  const parts = ['project_id = {project:UInt64}', 'schema_id = {schema:UInt64}'];
  if (!f.showDeleted) parts.push('deleted = 0');
  if (f.showOnlyCompleted) parts.push('completed = 1');
  const lists: [string, number[]][] = [
    ['site_id', idList(f.site)],
    ['group_id', idList(f.group)],
    ['team_id', idList(f.team)],
    ['user_id', [...idList(f.collector), ...idList(f.createdBy)]],
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
  f.date_ranges.forEach((r, i) => {
    if (r.entity !== 'response') {
      // A date question's answer in range.
      params[`di${i}`] = r.entity;
      const conds = [`item_id = {di${i}:UInt32}`, 'removed = 0'];
      if (r.startDateTime !== null && r.startDateTime !== undefined) {
        params[`ds${i}`] = Math.floor(r.startDateTime);
        conds.push(`date >= toDate32(toDateTime({ds${i}:Int64}, 'UTC'))`);
      }
      if (r.endDateTime !== null && r.endDateTime !== undefined) {
        params[`de${i}`] = Math.floor(r.endDateTime);
        conds.push(`date <= toDate32(toDateTime({de${i}:Int64}, 'UTC'))`);
      }
      parts.push(`response_id IN (SELECT response_id FROM ${db}.answers FINAL WHERE project_id = {project:UInt64} AND ${conds.join(' AND ')})`);
      return;
    }
    const column = r.dateType;
    if (r.startDateTime !== null && r.startDateTime !== undefined) {
      params[`ds${i}`] = r.startDateTime;
      parts.push(`${column} >= toDateTime64({ds${i}:Float64}, 3, 'UTC')`);
    }
    if (r.endDateTime !== null && r.endDateTime !== undefined) {
      params[`de${i}`] = r.endDateTime;
      parts.push(`${column} <= toDateTime64({de${i}:Float64}, 3, 'UTC')`);
    }
  });
  f.filters.forEach((q, i) => {
    params[`qi${i}`] = q.question;
    const value = q.value;
    let cond: string;
    if (Array.isArray(value) || q.operator === 'in') {
      params[`qv${i}`] = (Array.isArray(value) ? value : [value]).map(Number).filter((n) => Number.isInteger(n) && n >= 0);
      cond = `hasAny(choices, {qv${i}:Array(UInt32)})`;
    } else if (q.operator === 'contains') {
      params[`qv${i}`] = String(value);
      cond = `positionCaseInsensitiveUTF8(text, {qv${i}:String}) > 0`;
    } else {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      const op = q.operator === '==' ? '=' : q.operator;
      if (Number.isFinite(n)) {
        params[`qv${i}`] = n;
        cond = q.operator === '==' ? `(num = {qv${i}:Float64} OR has(choices, toUInt32(greatest({qv${i}:Float64}, 0))))` : `num ${op} {qv${i}:Float64}`;
      } else {
        params[`qv${i}`] = String(value ?? '');
        cond = `lower(text) ${op} lower({qv${i}:String})`;
      }
    }
    parts.push(`response_id IN (SELECT response_id FROM ${db}.answers FINAL WHERE project_id = {project:UInt64} AND item_id = {qi${i}:UInt32} AND removed = 0 AND ${cond})`);
  });
  return { sql: parts.join(' AND '), params };
}

/** z for two-sided 95% and 99% intervals of the mean (normal approximation). */
export const Z = { ci95: 1.959964, ci99: 2.575829 } as const;

export interface NumberStats {
  count: number;
  sum: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  stddev: number | null;
  var: number | null;
  quartiles: [number, number, number] | null;
  ci95: [number, number] | null;
  ci99: [number, number] | null;
}

/** The statistics of a number question from ClickHouse's aggregates, with the confidence intervals of the mean. */
export function numberStats(r: { count: string | number; sum: number | null; avg: number | null; min: number | null; max: number | null; stddev: number | null; var: number | null; q: number[] }): NumberStats {
  const count = Number(r.count);
  const finite = (v: number | null) => (v === null || !Number.isFinite(v) ? null : v);
  const avg = count > 0 ? finite(r.avg) : null;
  const sd = count > 1 ? finite(r.stddev) : null;
  const ci = (z: number): [number, number] | null => (avg !== null && sd !== null ? [avg - (z * sd) / Math.sqrt(count), avg + (z * sd) / Math.sqrt(count)] : null);
  return {
    count,
    sum: count > 0 ? (finite(r.sum) ?? 0) : 0,
    avg,
    min: count > 0 ? finite(r.min) : null,
    max: count > 0 ? finite(r.max) : null,
    stddev: sd,
    var: count > 1 ? finite(r.var) : null,
    quartiles: count > 0 && r.q.length === 3 ? [r.q[0]!, r.q[1]!, r.q[2]!] : null,
    ci95: ci(Z.ci95),
    ci99: ci(Z.ci99),
  };
}

/** Periods of trend series and date comparisons (spec 001 §9: microseconds to millennium). */
export const PERIODS = ['microsecond', 'millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year', 'decade', 'century', 'millennium'] as const;
export type Period = (typeof PERIODS)[number];

/** The text key of a period of `column` in time zone parameter {tz:String}. */
export function periodKey(period: Period, column: string): string {
  const year = `toYear(${column}, {tz:String})`;
  switch (period) {
    case 'decade':
      return `toString(intDiv(${year}, 10) * 10)`;
    case 'century':
      return `toString(intDiv(${year}, 100) * 100)`;
    case 'millennium':
      return `toString(intDiv(${year}, 1000) * 1000)`;
    default:
      return `toString(dateTrunc('${period}', ${column}, {tz:String}))`;
  }
}

export const COMPARE_BY = ['site', 'group', 'team', 'collector', 'question', 'period'] as const;
export type Comparison = { by: (typeof COMPARE_BY)[number]; item_id?: number; period?: Period };

/** The grouping key of a comparison, and the join it needs (a choice question's answer per response). */
export function comparisonKey(db: string, c: Comparison, timing: TimingColumn): { key: string; join: string; params: Record<string, unknown> } {
  switch (c.by) {
    case 'site':
      return { key: 'toString(site_id)', join: '', params: {} };
    case 'group':
      return { key: 'toString(group_id)', join: '', params: {} };
    case 'team':
      return { key: 'toString(team_id)', join: '', params: {} };
    case 'collector':
      return { key: 'toString(user_id)', join: '', params: {} };
    case 'period':
      return { key: periodKey(c.period ?? 'month', timing), join: '', params: {} };
    case 'question':
      return {
        key: 'toString(cmp.key)',
        join: `INNER JOIN (SELECT response_id, arrayJoin(choices) AS key FROM ${db}.answers FINAL WHERE project_id = {project:UInt64} AND item_id = {cmpItem:UInt32} AND removed = 0) AS cmp USING (response_id)`,
        params: { cmpItem: c.item_id ?? 0 },
      };
  }
}

/** A time zone name as ClickHouse takes it (IANA names, UTC). */
export const TIME_ZONE = /^(UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;
