// The WHERE clauses of results queries: the filter model and the caller's scope as one clause with bound parameters,
// and the grouping key of a comparison (spec 001 §9). Pure: it builds SQL text, it runs nothing.
import { idList, type FilterModel } from '@fieldwork/sampler';
import type { Comparison, Period, Scope, TimingColumn } from '../domain/query.js';

export interface Where {
  sql: string;
  params: Record<string, unknown>;
}

/** A comparison's grouping key, and the join it needs (a choice question's answer per response). */
export interface ComparisonSql {
  key: string;
  join: string;
  params: Record<string, unknown>;
}

/**
 * The conditions on a response's site, group, team and collector (or creator), and the caller's scope (their own
 * responses or their read sites'), added to `parts` and `params`: the same on the answers' tables and on the
 * aggregates, which carry those columns.
 */
export function dimensionConditions(
  f: FilterModel,
  scope: Scope,
  params: Record<string, unknown>,
  parts: string[],
): void {
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
}

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
  dimensionConditions(f, scope, params, parts);
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
      parts.push(
        `response_id IN (SELECT response_id FROM ${db}.answers FINAL WHERE project_id = {project:UInt64} AND ${conds.join(' AND ')})`,
      );
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
      params[`qv${i}`] = (Array.isArray(value) ? value : [value])
        .map(Number)
        .filter((n) => Number.isInteger(n) && n >= 0);
      cond = `hasAny(choices, {qv${i}:Array(UInt32)})`;
    } else if (q.operator === 'contains') {
      params[`qv${i}`] = String(value);
      cond = `positionCaseInsensitiveUTF8(text, {qv${i}:String}) > 0`;
    } else {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && value.trim() !== ''
            ? Number(value)
            : Number.NaN;
      const op = q.operator === '==' ? '=' : q.operator;
      if (Number.isFinite(n)) {
        params[`qv${i}`] = n;
        cond =
          q.operator === '=='
            ? `(num = {qv${i}:Float64} OR has(choices, toUInt32(greatest({qv${i}:Float64}, 0))))`
            : `num ${op} {qv${i}:Float64}`;
      } else {
        params[`qv${i}`] = String(value ?? '');
        cond = `lower(text) ${op} lower({qv${i}:String})`;
      }
    }
    parts.push(
      `response_id IN (SELECT response_id FROM ${db}.answers FINAL WHERE project_id = {project:UInt64} AND item_id = {qi${i}:UInt32} AND removed = 0 AND ${cond})`,
    );
  });
  return { sql: parts.join(' AND '), params };
}

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

/** The grouping key of a comparison, and the join it needs (a choice question's answer per response). */
export function comparisonKey(db: string, c: Comparison, timing: TimingColumn): ComparisonSql {
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

/**
 * A comparison cut to the groups `keys`: any other key becomes '' (no site, group, team, collector, choice or period
 * key is empty), the one "other" group of the answers outside them.
 */
export function cappedKey(c: ComparisonSql, keys: string[]): ComparisonSql {
  return {
    key: `if(${c.key} IN {cmpTop:Array(String)}, ${c.key}, '')`,
    join: c.join,
    params: { ...c.params, cmpTop: keys },
  };
}
