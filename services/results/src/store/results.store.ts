// All ClickHouse SQL of the results queries (spec 001 §3, §9): response ids, levels, profiles, lookups, the
// statistics of each kind of question in one grouped query per kind, histograms, geotag points and comparisons.
// Callers pass a Where built here (where.ts) and get rows back; they never see SQL.
import type { FilterModel } from '@fieldwork/sampler';
import type { Engine } from '../engine/engine.js';
import type { Comparison, Scope, TimingColumn } from '../domain/query.js';
import { comparisonKey, whereOf, type ComparisonSql, type Where } from './where.js';

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

export class ResultsStore {
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
    return { sql: `${where.sql} AND response_id IN {profileIds:Array(String)}`, params: { ...where.params, profileIds: ids } };
  }

  /** The grouping key and join of a comparison. */
  comparison(c: Comparison, timing: TimingColumn): ComparisonSql {
    return comparisonKey(this.db, c, timing);
  }

  async responseIds(where: Where): Promise<string[]> {
    const rows = await this.engine.query<{ response_id: string }>(
      `SELECT response_id FROM ${this.db}.responses FINAL WHERE ${where.sql} ORDER BY time_created, response_id LIMIT 1000000`,
      where.params,
    );
    return rows.map((r) => r.response_id);
  }

  /** Per item, its answers as numbers: numbers as they are; any other answer counts as 1. */
  async answerValues(where: Where, itemIds: number[]): Promise<{ item_id: number; values: number[] }[]> {
    return this.engine.query<{ item_id: number; values: number[] }>(
      `SELECT item_id, groupArray(if(num IS NULL, 1, num)) AS values FROM ${this.db}.answers FINAL
         WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} AND removed = 0 GROUP BY item_id`,
      { ...where.params, items: itemIds },
    );
  }

  /** Whether the response is among those `own` selects. */
  async hasResponse(own: Where, responseId: string): Promise<boolean> {
    const [found] = await this.engine.query<{ n: string }>(`SELECT count() AS n FROM ${this.db}.responses FINAL WHERE ${own.sql} AND response_id = {rid:String}`, {
      ...own.params,
      rid: responseId,
    });
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
  async lookupAnswers(where: Where, keys: number[]): Promise<{ response_id: string; item_id: number; value: string }[]> {
    return this.engine.query<{ response_id: string; item_id: number; value: string }>(
      `SELECT response_id, item_id, if(num IS NULL, text, toString(num)) AS value FROM ${this.db}.answers FINAL
         WHERE ${where.sql} AND item_id IN {keys:Array(UInt32)} AND removed = 0 ORDER BY response_id LIMIT 100000`,
      { ...where.params, keys },
    );
  }

  /** The count of responses and the first and last on the timing column. */
  async level(where: Where, timing: TimingColumn): Promise<{ n: string; first: string | null; last: string | null } | undefined> {
    const [r] = await this.engine.query<{ n: string; first: string | null; last: string | null }>(
      `SELECT count() AS n, if(n = 0, NULL, min(${timing})) AS first, if(n = 0, NULL, max(${timing})) AS last FROM ${this.db}.responses FINAL WHERE ${where.sql}`,
      where.params,
    );
    return r;
  }

  private answersOf(where: Where): string {
    return `FROM ${this.db}.answers FINAL WHERE ${where.sql} AND item_id IN {items:Array(UInt32)} AND removed = 0`;
  }

  /** The number aggregates of each of `items`. */
  async numberStats(where: Where, items: number[]): Promise<(NumberRow & { item_id: number })[]> {
    return this.engine.query<NumberRow & { item_id: number }>(
      `SELECT item_id, count() AS count, sum(num) AS sum, avg(num) AS avg, min(num) AS min, max(num) AS max, stddevSamp(num) AS stddev,
                varSamp(num) AS var, quantilesExactInclusive(0.25, 0.5, 0.75)(num) AS q
         ${this.answersOf(where)} AND num IS NOT NULL GROUP BY item_id`,
      { ...where.params, items },
    );
  }

  /**
   * Histograms of equal-width bins between each item's minimum (`lo`) and maximum, for all the items in one grouped
   * query (ClickHouse's adaptive histogram() cost 150 ms of a 210 ms query at 1,000,000 answers; this costs about 13).
   */
  async histogramBins(where: Where, items: number[], lo: number[], width: number[], buckets: number): Promise<{ item_id: number; bin: number; count: string }[]> {
    return this.engine.query<{ item_id: number; bin: number; count: string }>(
      `SELECT item_id, least(toUInt32(floor((num - transform(item_id, {hi:Array(UInt32)}, {lo:Array(Float64)}, 0.)) / transform(item_id, {hi:Array(UInt32)}, {w:Array(Float64)}, 1.))), {last:UInt32}) AS bin,
              count() AS count
       ${this.answersOf(where)} AND num IS NOT NULL GROUP BY item_id, bin`,
      { ...where.params, items, hi: items, lo, w: width, last: buckets - 1 },
    );
  }

  /** Per item: the answered count and a map of choice -> count in one pass. */
  async choiceCounts(where: Where, items: number[]): Promise<{ item_id: number; answered: string; m: [number[], string[]] }[]> {
    return this.engine.query<{ item_id: number; answered: string; m: [number[], string[]] }>(
      `SELECT item_id, countIf(notEmpty(choices)) AS answered, sumMap(choices, arrayMap(x -> toUInt64(1), choices)) AS m ${this.answersOf(where)} GROUP BY item_id`,
      { ...where.params, items },
    );
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
    return this.engine.query<{ item_id: number; count: string }>(`SELECT item_id, count() AS count ${this.answersOf(where)} GROUP BY item_id`, { ...where.params, items });
  }

  private geotagOf(where: Where): string {
    return `FROM ${this.db}.answers FINAL WHERE ${where.sql} AND item_id = {item:UInt32} AND removed = 0`;
  }

  async geotagCount(where: Where, item: number): Promise<number> {
    const [c] = await this.engine.query<{ count: string }>(`SELECT count() AS count ${this.geotagOf(where)}`, { ...where.params, item });
    return Number(c?.count ?? 0);
  }

  /** The points of a geotag question: every `every`-th response (by hash), at most `limit`. */
  async geotagPoints(where: Where, item: number, every: number, limit: number): Promise<{ lng: number; lat: number }[]> {
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
  async comparedChoices(where: Where, c: ComparisonSql, item: number): Promise<{ key: string; choice: number; count: string }[]> {
    return this.engine.query<{ key: string; choice: number; count: string }>(
      `SELECT ${c.key} AS key, arrayJoin(choices) AS choice, count() AS count ${this.comparedOf(where, c)} GROUP BY key, choice ORDER BY key`,
      { ...where.params, ...c.params, item },
    );
  }

  /** Any other item's count of answers per comparison key. */
  async comparedCounts(where: Where, c: ComparisonSql, item: number): Promise<{ key: string; count: string }[]> {
    return this.engine.query<{ key: string; count: string }>(`SELECT ${c.key} AS key, count() AS count ${this.comparedOf(where, c)} GROUP BY key ORDER BY key`, {
      ...where.params,
      ...c.params,
      item,
    });
  }
}
