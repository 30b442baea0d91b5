// The results queries answered from the aggregates (docs/results.md "Aggregates"): the same rows as ResultsStore's
// scans, from signed counts summed per group, with no FINAL and no answer read. Groups whose counts add up to zero
// (everything in them was retracted) are left out with HAVING.
import type { FilterModel } from '@fieldwork/sampler';
import type { Engine } from '../engine/engine.js';
import type { AggTable, DayRange, Plan } from '../domain/planner.js';
import type { Comparison, Scope, TimingColumn } from '../domain/query.js';
import { NO_DAY } from '../domain/state.js';
import {
  ANSWERED_CHOICE,
  answerCount,
  byItemAndKind,
  dayText,
  numberCounts,
  type ValueCount,
} from '../domain/value-counts.js';
import { choiceRows, Distributions, numberStatsSql, type NumberRow } from './results.store.js';
import { dimensionConditions, type ComparisonSql, type Where } from './where.js';

/** The marker choice that counts the answers holding at least one choice (as in the scans). */
const ANSWERED = ANSWERED_CHOICE;
/** The rows of the per-value counts that count each answer once (docs of clickhouse/0003-aggregates.sql). */
const ANSWERS = `(k IN (0, 1, 3) OR (k = 2 AND v = ${ANSWERED}))`;

/** A where on the aggregates: its conditions, and the table of per-value counts they apply to. */
export interface AggWhere extends Where {
  table: 'agg_values' | 'agg_sites' | 'agg_months' | 'agg_cube';
  /**
   * The date ranges on time_created as bounds on `t` (agg_texts' t, agg_times' t of col 0), a day wider on each side
   * than the days in any time zone: the tables ordered by t then read only those times. Redundant with the days'
   * conditions in `sql`, which keep the answer exact. Empty when there is no such range.
   */
  created: string;
}

const TABLES: Record<AggTable, AggWhere['table']> = {
  values: 'agg_values',
  sites: 'agg_sites',
  months: 'agg_months',
  cube: 'agg_cube',
};

/**
 * The table that counts the responses under a where on `table`, and the condition that picks those counts: the
 * rollups count them as item 0 (k = 9); agg_values has no dimension to count by, so its responses are read from the
 * sites' rollup (a row per site); the cube's are in agg_responses.
 */
function responsesOf(table: AggWhere['table']): { from: string; only: string } {
  if (table === 'agg_cube') return { from: 'agg_responses', only: '1' };
  return { from: table === 'agg_values' ? 'agg_sites' : table, only: `item_id = 0 AND k = ${RESPONSE_KIND}` };
}
/** The kind of the rows that count responses in the rollups (0013-rollups.sql). */
const RESPONSE_KIND = 9;

const DAY_COLUMN: Record<TimingColumn, string> = {
  time_created: 'd_created',
  time_updated: 'd_updated',
  time_completed: 'd_completed',
  time_uploaded: 'd_uploaded',
};
const TIME_CODE: Record<TimingColumn, number> = {
  time_created: 0,
  time_updated: 1,
  time_completed: 2,
  time_uploaded: 3,
};

/** The text key of a period of a day column, as periodKey() gives it for the same instant in the same time zone. */
function dayPeriodKey(period: string, column: string): string {
  switch (period) {
    case 'decade':
      return `toString(intDiv(toYear(${column}), 10) * 10)`;
    case 'century':
      return `toString(intDiv(toYear(${column}), 100) * 100)`;
    case 'millennium':
      return `toString(intDiv(toYear(${column}), 1000) * 1000)`;
    default:
      return `toString(dateTrunc('${period}', ${column}))`;
  }
}

/** The most value-count rows prepare() reads for one request; past it each kind of question is asked apart. */
const PREPARED_ROWS = 200_000;

const whereKey = (w: Where) => `${w.sql}\n${JSON.stringify(w.params)}`;

/** Rows of agg_times read at once for a level's first or last (more when they hold no whole time counted). */
const EDGE_ROWS = 256;

/**
 * The first time, in the order read, whose rows add up to more than zero; null when the rows hold every row and none
 * does; undefined when the window is too short to tell (its last time may have more rows beyond it). Rows of one time
 * come together.
 */
function edgeOf(rows: readonly { time: string; c: string }[], limit: number): string | null | undefined {
  let i = 0;
  while (i < rows.length) {
    const t = rows[i]!.time;
    let sum = 0;
    let j = i;
    for (; j < rows.length && rows[j]!.time === t; j++) sum += Number(rows[j]!.c);
    if (j === rows.length && rows.length === limit) return undefined;
    if (sum > 0) return t;
    i = j;
  }
  return rows.length < limit ? null : undefined;
}

export class AggregatesStore {
  private readonly distributions = new Distributions();
  /** Per where, the value counts prepare() read, per item and kind. */
  private readonly prepared = new Map<string, Map<number, Map<number, { vs: number[]; cs: number[] }>>>();

  constructor(
    private readonly engine: Engine,
    private readonly db: string,
    /**
     * What the results writer of this process knows of a project's aggregates (chDB: the one process that writes),
     * so that a request needs no query for it; undefined answers make project() ask ClickHouse.
     */
    private readonly local?: (projectId: number) => { tz: string; ready: boolean } | null | undefined,
  ) {}

  /**
   * Reads, in one query, the value counts of all of `items` under `where` (at most one row per distinct value of
   * each), from which numberStats, choiceCounts, dateSeries and answerCounts then answer without a query. Skipped
   * (each asks for itself) when the items have more distinct values than PREPARED_ROWS.
   */
  async prepare(where: AggWhere, items: number[]): Promise<void> {
    if (items.length === 0) return;
    const rows = await this.engine.query<{ item_id: number; k: number; v: number; c: string }>(
      `SELECT item_id, k, v, toString(sum(n)) AS c FROM ${this.db}.${where.table}
        WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} GROUP BY item_id, k, v HAVING sum(n) > 0
        LIMIT {most:UInt32}`,
      { ...where.params, items, most: PREPARED_ROWS + 1 },
    );
    if (rows.length > PREPARED_ROWS) return;
    const counts: ValueCount[] = rows.map((r) => ({
      item_id: Number(r.item_id),
      k: Number(r.k),
      v: r.v,
      n: Number(r.c),
    }));
    const byItem = byItemAndKind(counts);
    for (const id of items) if (!byItem.has(id)) byItem.set(id, new Map());
    this.prepared.set(whereKey(where), byItem);
    if (this.prepared.size > 8) this.prepared.delete(this.prepared.keys().next().value!);
  }

  /** The prepared counts of `items` under `where`, when prepare() read them all. */
  private ready(where: Where, items: number[]) {
    const p = this.prepared.get(whereKey(where));
    return p && items.every((id) => p.has(id)) ? p : undefined;
  }

  /** A project's aggregates: their time zone and whether they are ready (undefined: never counted). */
  async project(projectId: number): Promise<{ tz: string; ready: boolean } | undefined> {
    const known = this.local?.(projectId);
    if (known !== undefined) return known ?? undefined;
    const [r] = await this.engine.query<{ tz: string; ready: number }>(
      `SELECT tz, ready FROM ${this.db}.agg_projects FINAL WHERE project_id = {p:UInt64}`,
      { p: projectId },
    );
    return r ? { tz: r.tz, ready: Number(r.ready) === 1 } : undefined;
  }

  /**
   * The conditions of a results query on the aggregates (a plan of path 'aggregates'): deleted and completed on
   * every table; site, group, team, collector, the caller's scope and whole days on the dimensions of the plan's table
   * (the planner picked one that has them all; on agg_months d_created is the first day of the month, so a range of
   * whole months is the same condition as on the days of the cube, agg_responses and agg_times).
   */
  where(
    projectId: number,
    schemaId: number,
    f: FilterModel,
    scope: Scope,
    plan: Plan & { path: 'aggregates' },
  ): AggWhere {
    const params: Record<string, unknown> = { project: projectId, schema: schemaId };
    const parts = ['project_id = {project:UInt64}', 'schema_id = {schema:UInt64}'];
    const created: string[] = [];
    if (!f.showDeleted) parts.push('deleted = 0');
    if (f.showOnlyCompleted) parts.push('completed = 1');
    if (plan.table !== 'values') {
      dimensionConditions(f, scope, params, parts);
      plan.days.forEach((r: DayRange, i) => {
        const d = DAY_COLUMN[r.column];
        if (r.column === 'time_completed') parts.push(`d_completed > toDate32('${NO_DAY}')`);
        if (r.from !== null) {
          params[`df${i}`] = r.from;
          parts.push(`${d} >= toDate32({df${i}:String})`);
          if (r.column === 'time_created') created.push(`t >= toDateTime64(toDate32({df${i}:String}) - 1, 3, 'UTC')`);
        }
        if (r.to !== null) {
          params[`dt${i}`] = r.to;
          parts.push(`${d} <= toDate32({dt${i}:String})`);
          if (r.column === 'time_created') created.push(`t < toDateTime64(toDate32({dt${i}:String}) + 2, 3, 'UTC')`);
        }
      });
    }
    return { sql: parts.join(' AND '), params, table: TABLES[plan.table], created: created.join(' AND ') };
  }

  /** The grouping key of a comparison on the cube's dimensions (by question is never planned here). */
  comparison(c: Comparison, timing: TimingColumn): ComparisonSql {
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
        return { key: dayPeriodKey(c.period ?? 'month', DAY_COLUMN[timing]), join: '', params: {} };
      case 'question':
        throw new Error('a comparison by question is answered by the scans');
    }
  }

  capped(c: ComparisonSql, keys: string[]): ComparisonSql {
    return {
      key: `if(${c.key} IN {cmpTop:Array(String)}, ${c.key}, '')`,
      join: '',
      params: { ...c.params, cmpTop: keys },
    };
  }

  /** The rows of `items` of one kind (k), or (null) those that count each answer once. */
  private of(where: AggWhere, kind: number | null): string {
    return `FROM ${this.db}.${where.table} WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} AND ${kind === null ? ANSWERS : `k = ${kind}`}`;
  }

  /**
   * Responses counted, and the first and last on the timing column, exact: agg_times read in order of time from
   * either end, a few rows at a time, until a time whose counts add up to more than zero is complete.
   */
  async level(
    where: AggWhere,
    timing: TimingColumn,
  ): Promise<{ n: string; first: string | null; last: string | null } | undefined> {
    // One round trip: the count and a first window of rows from either end; a window that holds no whole time
    // counted more than zero is widened on its own (edge()).
    const params = { ...where.params, col: TIME_CODE[timing], limit: EDGE_ROWS };
    const counted = responsesOf(where.table);
    const rows = await this.engine.query<{ e: number; time: string; c: string }>(
      `SELECT 0 AS e, '' AS time, toString(sum(n)) AS c FROM ${this.db}.${counted.from} WHERE ${where.sql} AND ${counted.only}
       UNION ALL (${this.edgeSql(where, timing, 'ASC', 1)})
       UNION ALL (${this.edgeSql(where, timing, 'DESC', 2)})`,
      params,
    );
    const side = (e: number) => rows.filter((r) => Number(r.e) === e);
    const [first, last] = await Promise.all(
      (['ASC', 'DESC'] as const).map(async (order, i) => {
        const found = edgeOf(side(i + 1), EDGE_ROWS);
        return found === undefined ? this.edge(where, timing, order, EDGE_ROWS * 8) : found;
      }),
    );
    return { n: side(0)[0]?.c ?? '0', first: first ?? null, last: last ?? null };
  }

  private edgeSql(where: AggWhere, timing: TimingColumn, order: 'ASC' | 'DESC', e: number): string {
    // The whole sort key's prefix in the ORDER BY: ClickHouse then reads in order and stops at the limit (ORDER BY t
    // alone sorted every row: 55 ms against 6 ms at 1,000,000 responses).
    const created = timing === 'time_created' && where.created ? ` AND ${where.created}` : '';
    return `SELECT ${e} AS e, toString(t) AS time, toString(n) AS c FROM ${this.db}.agg_times
      WHERE ${where.sql}${created} AND col = {col:UInt8}
      ORDER BY project_id ${order}, schema_id ${order}, col ${order}, t ${order} LIMIT {limit:UInt32}`;
  }

  /** The earliest (ASC) or latest (DESC) time counted more than zero times, from windows of `limit` rows and more. */
  private async edge(
    where: AggWhere,
    timing: TimingColumn,
    order: 'ASC' | 'DESC',
    limit: number,
  ): Promise<string | null> {
    for (; ; limit *= 8) {
      const rows = await this.engine.query<{ time: string; c: string }>(this.edgeSql(where, timing, order, 0), {
        ...where.params,
        col: TIME_CODE[timing],
        limit,
      });
      const found = edgeOf(rows, limit);
      if (found !== undefined) return found;
    }
  }

  async numberStats(where: AggWhere, items: number[]): Promise<(NumberRow & { item_id: number })[]> {
    const p = this.ready(where, items);
    if (p)
      return this.distributions.keep(
        where,
        items.flatMap((id) => {
          const d = p.get(id)!.get(1);
          return d ? [numberCounts(id, d.vs, d.cs)] : [];
        }),
      );
    const rows = await numberStatsSql(
      this.engine,
      `SELECT item_id AS g, v, sum(n) AS c ${this.of(where, 1)} GROUP BY g, v HAVING c > 0`,
      { ...where.params, items },
      'item_id',
    );
    return this.distributions.keep(where, rows);
  }

  async histogramBins(
    where: AggWhere,
    items: number[],
    lo: number[],
    width: number[],
    buckets: number,
  ): Promise<{ item_id: number; bin: number; count: string }[]> {
    const n = Math.max(1, Math.trunc(buckets));
    const kept = this.distributions.bins(where, items, lo, width, n);
    if (kept) return kept;
    return this.engine.query<{ item_id: number; bin: number; count: string }>(
      `SELECT item_id, least(toUInt32(floor((v - transform(item_id, {hi:Array(UInt32)}, {lo:Array(Float64)}, 0.)) / transform(item_id, {hi:Array(UInt32)}, {w:Array(Float64)}, 1.))), {last:UInt32}) AS bin,
              toString(sum(n)) AS count
       ${this.of(where, 1)} GROUP BY item_id, bin HAVING sum(n) > 0`,
      { ...where.params, items, hi: items, lo, w: width, last: n - 1 },
    );
  }

  async choiceCounts(
    where: AggWhere,
    items: number[],
  ): Promise<{ item_id: number; answered: string; m: [number[], string[]] }[]> {
    const p = this.ready(where, items);
    if (p)
      return choiceRows(
        items.flatMap((id) => {
          const d = p.get(id)!.get(2);
          return d ? d.vs.map((v, i) => ({ item_id: id, choice: v, count: d.cs[i]! })) : [];
        }),
      );
    return choiceRows(
      await this.engine.query<{ item_id: number; choice: number; count: string }>(
        `SELECT item_id, toUInt32(v) AS choice, toString(sum(n)) AS count ${this.of(where, 2)}
          GROUP BY item_id, choice HAVING sum(n) > 0 ORDER BY item_id, choice`,
        { ...where.params, items },
      ),
    );
  }

  async dateSeries(where: AggWhere, items: number[]): Promise<{ item_id: number; date: string; count: string }[]> {
    const p = this.ready(where, items);
    if (p)
      return items.flatMap((id) => {
        const d = p.get(id)!.get(3);
        return d ? d.vs.map((v, i) => ({ item_id: id, date: dayText(v), count: String(d.cs[i]) })) : [];
      });
    return this.engine.query(
      `SELECT item_id, toString(toDate32(toInt32(v))) AS date, toString(sum(n)) AS count ${this.of(where, 3)}
        GROUP BY item_id, v HAVING sum(n) > 0 ORDER BY item_id, v`,
      { ...where.params, items },
    );
  }

  async answerCounts(where: AggWhere, items: number[]): Promise<{ item_id: number; count: string }[]> {
    const p = this.ready(where, items);
    if (p)
      return items.flatMap((id) => {
        const n = answerCount(p.get(id));
        return n > 0 ? [{ item_id: id, count: String(n) }] : [];
      });
    return this.engine.query(
      `SELECT item_id, toString(sum(n)) AS count ${this.of(where, null)} GROUP BY item_id HAVING sum(n) > 0`,
      { ...where.params, items },
    );
  }

  async geotagCount(where: AggWhere, item: number): Promise<number> {
    const [r] = await this.answerCounts(where, [item]);
    return Number(r?.count ?? 0);
  }

  /**
   * The latest `limit` answers of each text question (time created newest first, then response id), from
   * agg_texts read in order of time from the end, a few rows at a time: the same answers as the scans' textSamples.
   */
  async textSamples(
    where: AggWhere,
    items: number[],
    limit: number,
  ): Promise<{ item_id: number; text: string; time: string }[]> {
    const out: { item_id: number; text: string; time: string }[] = [];
    let want = items.map((id) => ({ id, rows: limit * 4 }));
    while (want.length > 0) {
      const params: Record<string, unknown> = { ...where.params };
      const parts = want.map(({ id, rows }, i) => {
        params[`si${i}`] = id;
        params[`sl${i}`] = rows;
        return `(SELECT item_id, toString(t) AS time, response_id, text, toString(n) AS c FROM ${this.db}.agg_texts
                  WHERE ${where.sql}${where.created ? ` AND ${where.created}` : ''} AND item_id = {si${i}:UInt32}
                  ORDER BY project_id DESC, schema_id DESC, item_id DESC, t DESC, response_id DESC, text DESC
                  LIMIT {sl${i}:UInt32})`;
      });
      const rows = await this.engine.query<{
        item_id: number;
        time: string;
        response_id: string;
        text: string;
        c: string;
      }>(parts.join(' UNION ALL '), params);
      const next: typeof want = [];
      for (const { id, rows: asked } of want) {
        const mine = rows.filter((r) => Number(r.item_id) === id);
        // Whole answers (every row of a time, response and text read) counted more than zero times.
        const groups = new Map<string, { time: string; response_id: string; text: string; n: number }>();
        for (const r of mine) {
          const key = `${r.time}\u0000${r.response_id}\u0000${r.text}`;
          const g = groups.get(key) ?? { time: r.time, response_id: r.response_id, text: r.text, n: 0 };
          g.n += Number(r.c);
          groups.set(key, g);
        }
        const full = mine.length < asked;
        const lastTime = mine.at(-1)?.time;
        const answers = [...groups.values()]
          .filter((g) => g.n > 0 && (full || g.time !== lastTime))
          .sort((a, b) => (a.time === b.time ? (a.response_id < b.response_id ? -1 : 1) : a.time < b.time ? 1 : -1))
          .flatMap((g) => Array.from({ length: g.n }, () => ({ item_id: id, text: g.text, time: g.time })));
        if (answers.length >= limit || full) out.push(...answers.slice(0, limit));
        else next.push({ id, rows: asked * 8 });
      }
      want = next;
    }
    return out;
  }

  /**
   * The words found in most answers of each of `items` under a filter: the scans' topWords (one answer in `every[i]`
   * by hash of the response id, each answer's words once) over agg_texts, whose signed rows are summed per answer
   * first (answers counted more than zero times), so no FINAL read of the answers is needed.
   */
  async sampledWords(
    where: AggWhere,
    items: number[],
    every: number[],
    limit: number,
    minLength: number,
    stop: string[],
  ): Promise<{ item_id: number; word: string; count: string }[]> {
    return this.engine.query(
      `SELECT item_id, word, toString(count()) AS count FROM (
         SELECT item_id, arrayJoin(arrayDistinct(tokens(lowerUTF8(text)))) AS word FROM (
           SELECT item_id, response_id, t, text, sum(n) AS c FROM ${this.db}.agg_texts
            PREWHERE item_id IN {items:Array(UInt32)}
                 AND cityHash64(response_id) % transform(item_id, {hi:Array(UInt32)}, {every:Array(UInt64)}, toUInt64(1)) = 0
            WHERE ${where.sql}${where.created ? ` AND ${where.created}` : ''}
            GROUP BY item_id, response_id, t, text HAVING c > 0)
         ARRAY JOIN range(toUInt32(c)) AS _copy)
        WHERE lengthUTF8(word) >= {minLength:UInt32} AND word NOT IN {stop:Array(String)} AND NOT match(word, '^[0-9]+$')
        GROUP BY item_id, word ORDER BY item_id, count() DESC, word LIMIT {limit:UInt32} BY item_id`,
      { ...where.params, items, hi: items, every, limit, minLength, stop },
    );
  }

  /**
   * The words found in most answers of each of `items` (every answer counted: no sample): unfiltered from agg_words,
   * under the rollups' filters (sites, groups, teams, whole months) from agg_words_months. Not on the cube.
   */
  async topWords(
    where: AggWhere,
    items: number[],
    limit: number,
    minLength: number,
    stop: string[],
  ): Promise<{ item_id: number; word: string; count: string }[]> {
    if (where.table === 'agg_cube') throw new Error('the words of the cube are sampled (sampledWords)');
    return this.engine.query(
      `SELECT item_id, word, toString(sum(n)) AS count
         FROM ${this.db}.${where.table === 'agg_values' ? 'agg_words' : 'agg_words_months'}
        WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} AND lengthUTF8(word) >= {minLength:UInt32}
          AND word NOT IN {stop:Array(String)} AND NOT match(word, '^[0-9]+$')
        GROUP BY item_id, word HAVING sum(n) > 0 ORDER BY item_id, sum(n) DESC, word LIMIT {limit:UInt32} BY item_id`,
      { ...where.params, items, limit, minLength, stop },
    );
  }

  /** How many groups a comparison makes, from the responses counted per dimension. */
  async comparisonGroups(where: AggWhere, c: ComparisonSql): Promise<number> {
    const counted = responsesOf(where.table);
    const [r] = await this.engine.query<{ n: string }>(
      `SELECT count() AS n FROM (SELECT ${c.key} AS key FROM ${this.db}.${counted.from} WHERE ${where.sql} AND ${counted.only} GROUP BY key HAVING sum(n) > 0)`,
      { ...where.params, ...c.params },
    );
    return Number(r?.n ?? 0);
  }

  async comparisonTop(
    where: AggWhere,
    c: ComparisonSql,
    items: number[],
    limit: number,
    latest: boolean,
  ): Promise<{ item_id: number; key: string; n: string; groups: string }[]> {
    return this.engine.query(
      `SELECT item_id, key, toString(n) AS n, toString(groups) AS groups FROM (
         SELECT item_id, ${c.key} AS key, sum(n) AS n, count() OVER (PARTITION BY item_id) AS groups
           ${this.of(where, null)} GROUP BY item_id, key HAVING n > 0)
       ORDER BY item_id, ${latest ? 'key DESC' : 'n DESC, key'} LIMIT {limit:UInt32} BY item_id`,
      { ...where.params, ...c.params, items, limit },
    );
  }

  private compared(where: AggWhere, kind: number | null): string {
    return `FROM ${this.db}.${where.table} WHERE ${where.sql} AND item_id = {item:UInt32} AND ${kind === null ? ANSWERS : `k = ${kind}`}`;
  }

  async comparedNumbers(where: AggWhere, c: ComparisonSql, item: number): Promise<(NumberRow & { key: string })[]> {
    const rows = await numberStatsSql(
      this.engine,
      `SELECT ${c.key} AS g, v, sum(n) AS c ${this.compared(where, 1)} GROUP BY g, v HAVING c > 0`,
      { ...where.params, ...c.params, item },
      'key',
    );
    return rows
      .map(({ values: _v, counts: _c, item_id: _i, ...r }) => r as NumberRow & { key: string })
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async comparedChoices(
    where: AggWhere,
    c: ComparisonSql,
    item: number,
  ): Promise<{ key: string; choice: number; count: string }[]> {
    return this.engine.query(
      `SELECT ${c.key} AS key, toUInt32(v) AS choice, toString(sum(n)) AS count ${this.compared(where, 2)} AND v != ${ANSWERED}
        GROUP BY key, choice HAVING sum(n) > 0 ORDER BY key`,
      { ...where.params, ...c.params, item },
    );
  }

  async comparedCounts(where: AggWhere, c: ComparisonSql, item: number): Promise<{ key: string; count: string }[]> {
    return this.engine.query(
      `SELECT ${c.key} AS key, toString(sum(n)) AS count ${this.compared(where, null)} GROUP BY key HAVING sum(n) > 0 ORDER BY key`,
      { ...where.params, ...c.params, item },
    );
  }

  async comparedDates(
    where: AggWhere,
    c: ComparisonSql,
    item: number,
  ): Promise<{ key: string; count: string; min: string; max: string }[]> {
    return this.engine.query(
      `SELECT key, toString(sum(c)) AS count, toString(toDate32(toInt32(min(v)))) AS min, toString(toDate32(toInt32(max(v)))) AS max
         FROM (SELECT ${c.key} AS key, v, sum(n) AS c ${this.compared(where, 3)} GROUP BY key, v HAVING c > 0)
        GROUP BY key ORDER BY key`,
      { ...where.params, ...c.params, item },
    );
  }
}
