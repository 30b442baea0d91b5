// All ClickHouse SQL of the results queries (spec 001 §3, §9): response ids, levels, profiles, lookups, the
// statistics of each kind of question in one grouped query per kind, histograms, geotag points and comparisons.
// Callers pass a Where built here (where.ts) and get rows back; they never see SQL.
import type { FilterModel } from '@fieldwork/sampler';
import { ANSWERED_CHOICE } from '../domain/value-counts.js';
import type { Engine } from '../engine/engine.js';
import type { Comparison, Scope, TimingColumn } from '../domain/query.js';
import { cappedKey, comparisonKey, whereOf, type ComparisonSql, type Where } from './where.js';

export type { ComparisonSql, Where };

/** The aggregates of number answers, per item or per comparison key. */
export interface NumberRow {
  count: string | number;
  sum: number | null;
  avg: number | null;
  min: number | null;
  max: number | null;
  stddev: number | null;
  var: number | null;
  q: number[];
}

/** The choice key that counts answered rows in choiceCounts (no choice has this id: ids are small positive numbers). */
const ANSWERED = ANSWERED_CHOICE;

/** textSamples reads the latest `limit` × SAMPLE_WINDOW responses first (most forms answer their texts often). */
const SAMPLE_WINDOW = 10;

/** The most distinct values of a number item whose distribution numberStats keeps for its histogram. */
const DISTRIBUTION_MAX = 5000;

/** A where's identity: its SQL and parameters. */
const whereKey = (w: Where) => `${w.sql}\n${JSON.stringify(w.params)}`;

/**
 * The number aggregates per group `g` of a query of value counts (`valueCounts`: rows g, v, c), computed from those
 * counts: the sum, mean, extremes, sample variance (two-pass, about the mean) and the exact quartiles with the
 * interpolation of quantilesExactInclusive; and each group's distribution when it has at most DISTRIBUTION_MAX
 * distinct values. Shared by the scans (counts of answers) and the aggregates (sums of signed counts). The group
 * comes back as `name`.
 */
export async function numberStatsSql(
  engine: Engine,
  valueCounts: string,
  params: Record<string, unknown>,
  name: 'item_id' | 'key',
): Promise<(NumberRow & { item_id: number; key: string; values: number[]; counts: string[] })[]> {
  return engine.query(
    `SELECT g AS ${name}, count, sum, sum / count AS avg, min, max, var, sqrt(var) AS stddev,
            arrayMap(pos -> vs[arrayFirstIndex(x -> x > floor(pos), cum)]
              + (pos - floor(pos)) * (vs[arrayFirstIndex(x -> x > least(floor(pos) + 1, toFloat64(count - 1)), cum)]
                - vs[arrayFirstIndex(x -> x > floor(pos), cum)]),
              arrayMap(p -> p * (count - 1), [0.25, 0.5, 0.75])) AS q,
            if(length(vs) <= {most:UInt32}, vs, []) AS values, if(length(vs) <= {most:UInt32}, cs, []) AS counts
     FROM (
       SELECT g, sum(c) AS count, sum(v * c) AS sum, min(v) AS min, max(v) AS max,
              arraySort(x -> x.1, groupArray((v, c))) AS pairs, arrayMap(x -> x.1, pairs) AS vs,
              arrayMap(x -> x.2, pairs) AS cs, arrayCumSum(cs) AS cum,
              if(count > 1, arraySum(arrayMap((x, k) -> k * (x - sum / count) * (x - sum / count), vs, cs)) / (count - 1), nan) AS var
       FROM (${valueCounts})
       GROUP BY g)`,
    // Per item (`item_id`), the distribution is kept for the histograms that follow; a comparison's groups (`key`)
    // draw none, and sending each group's distribution cost more than the statistics themselves.
    { ...params, most: name === 'key' ? 0 : DISTRIBUTION_MAX },
  );
}

/**
 * Per where (whereKey), the value distributions of the number items a numberStats read (those with at most
 * DISTRIBUTION_MAX distinct values), so that the histograms that follow need no query.
 */
export class Distributions {
  private readonly byWhere = new Map<string, Map<number, { values: number[]; counts: number[] }>>();

  /** Keeps the rows' distributions; answers the rows without them. */
  keep<R extends { item_id: number; values: number[]; counts: string[] }>(
    where: Where,
    rows: R[],
  ): Omit<R, 'values' | 'counts'>[] {
    const kept = new Map<number, { values: number[]; counts: number[] }>();
    for (const r of rows)
      if (r.values.length > 0) kept.set(Number(r.item_id), { values: r.values, counts: r.counts.map(Number) });
    this.byWhere.set(whereKey(where), kept);
    if (this.byWhere.size > 8) this.byWhere.delete(this.byWhere.keys().next().value!);
    return rows.map(({ values: _v, counts: _c, ...r }) => r);
  }

  /** The bins of `items` from their kept distributions (same arithmetic as the SQL: IEEE doubles), or null. */
  bins(
    where: Where,
    items: number[],
    lo: number[],
    width: number[],
    n: number,
  ): { item_id: number; bin: number; count: string }[] | null {
    const kept = this.byWhere.get(whereKey(where));
    if (!kept || !items.every((id) => kept.has(id))) return null;
    this.byWhere.delete(whereKey(where));
    return items.flatMap((id, k) => {
      const bins = new Array<number>(n).fill(0);
      const d = kept.get(id)!;
      d.values.forEach((v, i) => {
        bins[Math.min(n - 1, Math.max(0, Math.floor((v - lo[k]!) / width[k]!)))]! += d.counts[i]!;
      });
      return bins.flatMap((count, bin) => (count > 0 ? [{ item_id: id, bin, count: String(count) }] : []));
    });
  }
}

/**
 * Rows of (item, choice, count) as each item's answered count (the ANSWERED marker) and a map of choice -> count, in
 * the rows' order. Shared by the scans and the aggregates.
 */
export function choiceRows(
  rows: readonly { item_id: number; choice: number; count: string | number }[],
): { item_id: number; answered: string; m: [number[], string[]] }[] {
  const out = new Map<number, { item_id: number; answered: string; m: [number[], string[]] }>();
  for (const r of rows) {
    const id = Number(r.item_id);
    let row = out.get(id);
    if (!row) out.set(id, (row = { item_id: id, answered: '0', m: [[], []] }));
    if (Number(r.choice) === ANSWERED) row.answered = String(r.count);
    else {
      row.m[0].push(Number(r.choice));
      row.m[1].push(String(r.count));
    }
  }
  return [...out.values()];
}

export class ResultsStore {
  /** The value distributions of number items the last numberStats read, for histogramBins. */
  private readonly distributions = new Distributions();

  constructor(
    private readonly engine: Engine,
    private readonly db: string,
  ) {}

  /** The conditions of a results query: filters and the caller's scope on one schema of a project. */
  where(projectId: number, schemaId: number, filters: FilterModel, scope: Scope): Where {
    return whereOf(this.db, projectId, schemaId, filters, scope);
  }

  /** Keeps only the given responses (a profile), when there is one. */
  restrict(where: Where, ids: string[] | null): Where {
    if (ids === null) return where;
    return {
      sql: `${where.sql} AND response_id IN {profileIds:Array(String)}`,
      params: { ...where.params, profileIds: ids },
    };
  }

  /** The grouping key and join of a comparison. */
  comparison(c: Comparison, timing: TimingColumn): ComparisonSql {
    return comparisonKey(this.db, c, timing);
  }

  /** The comparison cut to the groups `keys`, every other answer in one group of key ''. */
  capped(c: ComparisonSql, keys: string[]): ComparisonSql {
    return cappedKey(c, keys);
  }

  async responseIds(where: Where): Promise<string[]> {
    const rows = await this.engine.query<{ response_id: string }>(
      `SELECT response_id FROM ${this.db}.responses FINAL WHERE ${where.sql} ORDER BY time_created, response_id LIMIT 1000000`,
      where.params,
    );
    return rows.map((r) => r.response_id);
  }

  /** Whether the response is among those `own` selects. */
  async hasResponse(own: Where, responseId: string): Promise<boolean> {
    const [found] = await this.engine.query<{ n: string }>(
      `SELECT count() AS n FROM ${this.db}.responses FINAL WHERE ${own.sql} AND response_id = {rid:String}`,
      {
        ...own.params,
        rid: responseId,
      },
    );
    return Number(found?.n ?? 0) > 0;
  }

  /** The responses (not deleted) whose parent is one of `parents`. */
  async childResponses(projectId: number, parents: string[]): Promise<string[]> {
    const rows = await this.engine.query<{ response_id: string }>(
      `SELECT response_id FROM ${this.db}.responses FINAL WHERE project_id = {project:UInt64} AND deleted = 0 AND parent_id IN {parents:Array(String)}`,
      { project: projectId, parents },
    );
    return rows.map((r) => r.response_id);
  }

  /** The answers of the lookup and primary-key questions `keys`, as text, per response. */
  async lookupAnswers(
    where: Where,
    keys: number[],
  ): Promise<{ response_id: string; item_id: number; value: string }[]> {
    return this.engine.query<{ response_id: string; item_id: number; value: string }>(
      `SELECT response_id, item_id, if(num IS NULL, text, toString(num)) AS value FROM ${this.db}.answers FINAL
         WHERE ${where.sql} AND item_id IN {keys:Array(UInt32)} AND removed = 0 ORDER BY response_id LIMIT 100000`,
      { ...where.params, keys },
    );
  }

  /**
   * A page of profiles: the responses that answered the first of the lookup and primary-key questions `keys` (in
   * their first instance: what identifies the record), `limit` after `offset`, in natural order of that answer (text
   * case-insensitive, then the number in it by value: "Household 2" before "Household 10"), with their answers to
   * all of `keys` as text; with `q`, only those where one of those answers holds it (case-insensitive). The count of
   * all that match comes with the page. No grouping over every response: the page is a top-k of the first key's
   * answers, and the other answers are read for the page's responses only.
   */
  async lookupPage(
    where: Where,
    keys: number[],
    q: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: { response_id: string; item_id: number; value: string }[]; ids: string[]; count: number }> {
    const answer = `if(num IS NULL, text, toString(num))`;
    const live = `${this.db}.answers FINAL WHERE ${where.sql} AND removed = 0 AND repeat = 0`;
    const holds = `positionCaseInsensitiveUTF8(${answer}, {q:String}) > 0`;
    // One key (the usual profile): the search is a condition on the rows read anyway; several, a subquery.
    const matching =
      q === ''
        ? ''
        : keys.length === 1
          ? ` AND ${holds}`
          : ` AND response_id IN (SELECT response_id FROM ${live} AND item_id IN {keys:Array(UInt32)} AND ${holds})`;
    const first = `SELECT response_id, ${answer} AS first_value FROM ${live} AND item_id = {first:UInt32}${matching}`;
    const digits = `extract(first_value, '[0-9]+')`;
    const params = { ...where.params, keys, first: keys[0] ?? 0, q, limit, offset };
    const [page, [n]] = await Promise.all([
      this.engine.query<{ response_id: string }>(
        `SELECT response_id FROM (${first})
         ORDER BY lowerUTF8(replaceRegexpOne(first_value, '[0-9]+', '')), length(${digits}), ${digits}, first_value, response_id
         LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        params,
      ),
      this.engine.query<{ n: string }>(`SELECT count() AS n FROM (${first})`, params),
    ]);
    const ids = page.map((r) => r.response_id);
    const rows =
      ids.length === 0
        ? []
        : await this.engine.query<{ response_id: string; item_id: number; value: string }>(
            `SELECT response_id, item_id, ${answer} AS value FROM ${live} AND item_id IN {keys:Array(UInt32)} AND response_id IN {ids:Array(String)}`,
            { ...params, ids },
          );
    return { rows, ids, count: Number(n?.n ?? 0) };
  }

  /**
   * Advanced results' aggregates per item, computed in ClickHouse over the filtered answers (numbers as they are; any
   * other answer counts as 1): count, sum, min and max. No answer leaves ClickHouse.
   */
  async itemAggregates(
    where: Where,
    itemIds: number[],
  ): Promise<
    {
      item_id: number;
      count: string;
      sum: number;
      min: number | null;
      max: number | null;
    }[]
  > {
    return this.engine.query(
      `SELECT item_id, count() AS count, sum(v) AS sum, min(v) AS min, max(v) AS max
         FROM (SELECT item_id, if(num IS NULL, 1, num) AS v FROM ${this.db}.answers FINAL
               WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} AND removed = 0)
         GROUP BY item_id`,
      { ...where.params, items: itemIds },
    );
  }

  /** The count of responses and the first and last on the timing column. */
  async level(
    where: Where,
    timing: TimingColumn,
  ): Promise<{ n: string; first: string | null; last: string | null } | undefined> {
    const [r] = await this.engine.query<{ n: string; first: string | null; last: string | null }>(
      `SELECT count() AS n, if(n = 0, NULL, min(${timing})) AS first, if(n = 0, NULL, max(${timing})) AS last FROM ${this.db}.responses FINAL WHERE ${where.sql}`,
      where.params,
    );
    return r;
  }

  private answersOf(where: Where): string {
    return `FROM ${this.db}.answers FINAL WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} AND removed = 0`;
  }

  /**
   * The number aggregates of each of `items`, in one scan that groups the answers by (item, value) and computes
   * everything from those counts: the sum, mean, extremes, sample variance (two-pass, about the mean), and the exact
   * quartiles with the interpolation of quantilesExactInclusive. Survey numbers have few distinct values, so this
   * costs about a third less than the aggregates over every answer; and an item's distribution, when it has at most
   * DISTRIBUTION_MAX distinct values, is kept for the histogram that follows (histogramBins), which then needs no
   * query at all.
   */
  async numberStats(where: Where, items: number[]): Promise<(NumberRow & { item_id: number })[]> {
    const rows = await numberStatsSql(
      this.engine,
      `SELECT item_id AS g, assumeNotNull(num) AS v, count() AS c ${this.answersOf(where)} AND num IS NOT NULL GROUP BY g, v`,
      { ...where.params, items },
      'item_id',
    );
    return this.distributions.keep(where, rows);
  }

  /**
   * Histograms of equal-width bins between each item's minimum (`lo`) and maximum, for all the items in one query
   * grouped by item only: the bins are counted into an array per item (countResample), which costs about half of a
   * GROUP BY item, bin (and ClickHouse's adaptive histogram() cost 150 ms of a 210 ms query at 1,000,000 answers).
   */
  async histogramBins(
    where: Where,
    items: number[],
    lo: number[],
    width: number[],
    buckets: number,
  ): Promise<{ item_id: number; bin: number; count: string }[]> {
    const n = Math.max(1, Math.trunc(buckets));
    const kept = this.distributions.bins(where, items, lo, width, n);
    if (kept) return kept;
    const rows = await this.engine.query<{ item_id: number; bins: (string | number)[] }>(
      `SELECT item_id, countResample(0, ${n}, 1)(least(toUInt32(floor((num - transform(item_id, {hi:Array(UInt32)}, {lo:Array(Float64)}, 0.)) / transform(item_id, {hi:Array(UInt32)}, {w:Array(Float64)}, 1.))), {last:UInt32})) AS bins
       ${this.answersOf(where)} AND num IS NOT NULL GROUP BY item_id`,
      { ...where.params, items, hi: items, lo, w: width, last: n - 1 },
    );
    return rows.flatMap((r) =>
      r.bins.flatMap((count, bin) => (Number(count) > 0 ? [{ item_id: r.item_id, bin, count: String(count) }] : [])),
    );
  }

  /**
   * Per item: the answered count and a map of choice -> count in one pass. Each answered row is unfolded into its
   * choices plus a marker (ANSWERED) that counts the row itself, grouped by (item, choice): a third of the cost of
   * sumMap over the choice arrays.
   */
  async choiceCounts(
    where: Where,
    items: number[],
  ): Promise<{ item_id: number; answered: string; m: [number[], string[]] }[]> {
    const rows = await this.engine.query<{ item_id: number; choice: number; count: string }>(
      `SELECT item_id, arrayJoin(arrayPushFront(choices, {answered:UInt32})) AS choice, count() AS count
       ${this.answersOf(where)} AND notEmpty(choices) GROUP BY item_id, choice ORDER BY item_id, choice`,
      { ...where.params, items, answered: ANSWERED },
    );
    return choiceRows(rows);
  }

  /** Per date item, the count of answers per date, in date order. */
  async dateSeries(where: Where, items: number[]): Promise<{ item_id: number; date: string; count: string }[]> {
    return this.engine.query<{ item_id: number; date: string; count: string }>(
      `SELECT item_id, toString(date) AS date, count() AS count ${this.answersOf(where)} AND date IS NOT NULL GROUP BY item_id, date ORDER BY item_id, date`,
      { ...where.params, items },
    );
  }

  /** Per item, its count of answers. */
  async answerCounts(where: Where, items: number[]): Promise<{ item_id: number; count: string }[]> {
    return this.engine.query<{ item_id: number; count: string }>(
      `SELECT item_id, count() AS count ${this.answersOf(where)} GROUP BY item_id`,
      { ...where.params, items },
    );
  }

  private geotagOf(where: Where): string {
    return `FROM ${this.db}.answers FINAL WHERE ${where.sql} AND item_id = {item:UInt32} AND removed = 0`;
  }

  async geotagCount(where: Where, item: number): Promise<number> {
    const [c] = await this.engine.query<{ count: string }>(`SELECT count() AS count ${this.geotagOf(where)}`, {
      ...where.params,
      item,
    });
    return Number(c?.count ?? 0);
  }

  /** The points of a geotag question: every `every`-th response (by hash), at most `limit`. */
  async geotagPoints(
    where: Where,
    item: number,
    every: number,
    limit: number,
  ): Promise<{ lng: number; lat: number }[]> {
    return this.engine.query<{ lng: number; lat: number }>(
      `SELECT lng, lat ${this.geotagOf(where)} AND lng IS NOT NULL AND lat IS NOT NULL AND cityHash64(response_id) % {every:UInt64} = 0 LIMIT {limit:UInt32}`,
      { ...where.params, item, every, limit },
    );
  }

  private comparedOf(where: Where, c: ComparisonSql): string {
    return `FROM ${this.db}.answers AS a FINAL ${c.join} WHERE ${where.sql} AND item_id = {item:UInt32} AND removed = 0`;
  }

  /** A number item's aggregates per comparison key. */
  async comparedNumbers(where: Where, c: ComparisonSql, item: number): Promise<(NumberRow & { key: string })[]> {
    return this.engine.query<NumberRow & { key: string }>(
      `SELECT ${c.key} AS key, count() AS count, sum(num) AS sum, avg(num) AS avg, min(num) AS min, max(num) AS max, stddevSamp(num) AS stddev,
                varSamp(num) AS var, quantilesExactInclusive(0.25, 0.5, 0.75)(num) AS q
         ${this.comparedOf(where, c)} AND num IS NOT NULL GROUP BY key ORDER BY key`,
      { ...where.params, ...c.params, item },
    );
  }

  /** A choice item's count per (comparison key, choice). */
  async comparedChoices(
    where: Where,
    c: ComparisonSql,
    item: number,
  ): Promise<{ key: string; choice: number; count: string }[]> {
    return this.engine.query<{ key: string; choice: number; count: string }>(
      `SELECT ${c.key} AS key, arrayJoin(choices) AS choice, count() AS count ${this.comparedOf(where, c)} GROUP BY key, choice ORDER BY key`,
      { ...where.params, ...c.params, item },
    );
  }

  /** Any other item's count of answers per comparison key. */
  async comparedCounts(where: Where, c: ComparisonSql, item: number): Promise<{ key: string; count: string }[]> {
    return this.engine.query<{ key: string; count: string }>(
      `SELECT ${c.key} AS key, count() AS count ${this.comparedOf(where, c)} GROUP BY key ORDER BY key`,
      {
        ...where.params,
        ...c.params,
        item,
      },
    );
  }

  /**
   * Per item, the `limit` largest groups of a comparison by answers (the latest `limit` keys when `latest`, for
   * periods) and how many groups there are in all, in one query for all `items`: a comparison by collector over
   * 10,000 users is cut here, before any statistics per group.
   */
  async comparisonTop(
    where: Where,
    c: ComparisonSql,
    items: number[],
    limit: number,
    latest: boolean,
  ): Promise<{ item_id: number; key: string; n: string; groups: string }[]> {
    return this.engine.query<{ item_id: number; key: string; n: string; groups: string }>(
      `SELECT item_id, key, n, groups FROM (
         SELECT item_id, ${c.key} AS key, count() AS n, count() OVER (PARTITION BY item_id) AS groups
           FROM ${this.db}.answers AS a FINAL ${c.join}
          WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} AND removed = 0 GROUP BY item_id, key)
       ORDER BY item_id, ${latest ? 'key DESC' : 'n DESC, key'} LIMIT {limit:UInt32} BY item_id`,
      { ...where.params, ...c.params, items, limit },
    );
  }

  /**
   * How many groups a comparison on response fields (site, group, team, collector, period) makes, counted on the
   * responses table (one row per response, not one per answer), to skip comparisonTop when they are few.
   */
  async comparisonGroups(where: Where, c: ComparisonSql): Promise<number> {
    const [r] = await this.engine.query<{ n: string }>(
      `SELECT uniqExact(${c.key}) AS n FROM ${this.db}.responses FINAL WHERE ${where.sql}`,
      { ...where.params, ...c.params },
    );
    return Number(r?.n ?? 0);
  }

  /** A date item's count, first and last date per comparison key. */
  async comparedDates(
    where: Where,
    c: ComparisonSql,
    item: number,
  ): Promise<{ key: string; count: string; min: string; max: string }[]> {
    return this.engine.query<{ key: string; count: string; min: string; max: string }>(
      `SELECT ${c.key} AS key, count() AS count, toString(min(date)) AS min, toString(max(date)) AS max
         ${this.comparedOf(where, c)} AND date IS NOT NULL GROUP BY key ORDER BY key`,
      { ...where.params, ...c.params, item },
    );
  }

  /**
   * The latest `limit` non-empty text answers of each of `items` (by time created, then response id), newest first.
   * First from the latest responses: their ids from the responses table (one narrow partial sort over one row per
   * response, not one per answer), then their answers to `items` by primary key. An item with fewer than `limit`
   * answers among them, when older responses exist, is read on its own (textSamplesScan). At 1,000,000 responses
   * with four text questions this took the samples from about 60 ms to about 15 ms.
   */
  async textSamples(
    where: Where,
    items: number[],
    limit: number,
  ): Promise<{ item_id: number; text: string; time: string }[]> {
    const window = limit * SAMPLE_WINDOW;
    const latest = await this.engine.query<{ response_id: string }>(
      `SELECT response_id FROM ${this.db}.responses FINAL WHERE ${where.sql}
         ORDER BY time_created DESC, response_id LIMIT {window:UInt32}`,
      { ...where.params, window },
    );
    if (latest.length === 0) return [];
    const rows = await this.engine.query<{ item_id: number; text: string; time: string }>(
      `SELECT item_id, text, toString(time_created) AS time ${this.answersOf(where)}
         AND response_id IN {rids:Array(String)} AND text != '' ORDER BY item_id, time_created DESC, response_id`,
      { ...where.params, items, rids: latest.map((r) => r.response_id) },
    );
    const out: { item_id: number; text: string; time: string }[] = [];
    const short: number[] = [];
    for (const id of items) {
      const mine = rows.filter((r) => Number(r.item_id) === id);
      // Every response was in the window, or the window held enough: these are the item's latest answers.
      if (mine.length >= limit || latest.length < window) out.push(...mine.slice(0, limit));
      else short.push(id);
    }
    if (short.length > 0) out.push(...(await this.textSamplesScan(where, short, limit)));
    return out;
  }

  /**
   * textSamples for items answered too rarely to be found among the latest responses, in two steps: the latest
   * answers' response ids from the narrow columns (one partial sort, ORDER BY ... LIMIT, per item), then their texts
   * by primary key. Sorting every answer with LIMIT BY item_id, text and all, took 3 to 4 times longer.
   */
  private async textSamplesScan(
    where: Where,
    items: number[],
    limit: number,
  ): Promise<{ item_id: number; text: string; time: string }[]> {
    const params: Record<string, unknown> = { ...where.params, limit };
    const parts = items.map((id, i) => {
      params[`ti${i}`] = id;
      return `(SELECT response_id FROM ${this.db}.answers FINAL
         WHERE ${where.sql} AND item_id = {ti${i}:UInt32} AND removed = 0 AND text != ''
         ORDER BY time_created DESC, response_id LIMIT {limit:UInt32})`;
    });
    const latest = await this.engine.query<{ response_id: string }>(parts.join(' UNION ALL '), params);
    if (latest.length === 0) return [];
    const rows = await this.engine.query<{ item_id: number; text: string; time: string }>(
      `SELECT item_id, text, toString(time_created) AS time ${this.answersOf(where)}
         AND response_id IN {rids:Array(String)} AND text != '' ORDER BY item_id, time_created DESC, response_id`,
      { ...where.params, items, rids: [...new Set(latest.map((r) => r.response_id))] },
    );
    // The ids of one item's latest answers may hold other items' answers too: each keeps its own latest `limit`.
    return items.flatMap((id) => rows.filter((r) => Number(r.item_id) === id).slice(0, limit));
  }

  /**
   * The `limit` words found in most answers of each of `items` (a word counts once per answer): lower-cased tokens
   * (ClickHouse's tokens(): split on ASCII non-alphanumerics, so accented and non-Latin letters stay in their words)
   * of at least `minLength` characters, `stop` words and bare numbers left out. Each item reads one answer in
   * `every[i]` (by hash of the response id), so that the words of 1,000,000 answers cost those of a sample of a fixed
   * size; the sample is taken in PREWHERE, before the text is read (safe under FINAL: item_id and response_id are
   * sorting key columns, so every version of an answer is kept or left together). A Unicode regular expression
   * (extractAll with \p{L}) was 8 times slower than tokens() on the same sample.
   */
  async topWords(
    where: Where,
    items: number[],
    every: number[],
    limit: number,
    minLength: number,
    stop: string[],
  ): Promise<{ item_id: number; word: string; count: string }[]> {
    return this.engine.query<{ item_id: number; word: string; count: string }>(
      `SELECT item_id, word, count() AS count FROM (
         SELECT item_id, arrayJoin(arrayDistinct(tokens(lowerUTF8(text)))) AS word
           FROM ${this.db}.answers FINAL
        PREWHERE item_id IN {items:Array(UInt32)}
             AND cityHash64(response_id) % transform(item_id, {hi:Array(UInt32)}, {every:Array(UInt64)}, toUInt64(1)) = 0
           WHERE ${where.sql} AND removed = 0 AND text != '')
        WHERE lengthUTF8(word) >= {minLength:UInt32} AND word NOT IN {stop:Array(String)} AND NOT match(word, '^[0-9]+$')
        GROUP BY item_id, word ORDER BY item_id, count DESC, word LIMIT {limit:UInt32} BY item_id`,
      { ...where.params, items, hi: items, every, limit, minLength, stop },
    );
  }
}
