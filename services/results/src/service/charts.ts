// The charts' part of a results call (issue 20): text questions' latest answers and words, every comparison of the
// request with its groups capped to a limit, the aggregator asked for, and the refusals of bad ones. Called by
// ResultsService.results(); all SQL is in the store.
import type { Item, SchemaBody } from '@fieldwork/sampler';
import { problems } from '@fieldwork/service-kit';
import {
  AGGREGATORS,
  aggregated,
  aggregatorFor,
  COMPARISON_GROUPS,
  MIN_WORD_LENGTH,
  STOP_WORDS,
  TEXT_SAMPLES,
  TOP_WORDS,
  WORD_SAMPLE,
  type Aggregator,
} from '../domain/charts.js';
import type { Comparison, TimingColumn } from '../domain/query.js';
import type { ComparisonSql, ResultsStore, Where } from '../store/results.store.js';
import type { AggregatesStore, AggWhere } from '../store/aggregates.store.js';
import type { Source } from './source.js';

const CHOICES = new Set(['choice', 'binary']);
/** Text questions: a sample of their latest answers; open answers also by their most frequent words. */
const TEXTS = new Set(['open', 'barcode', 'concatenation']);

/** A comparison of the request: its grouping, its limit, and per item its largest groups and how many there are. */
export interface Compare {
  by: Comparison;
  sql: ComparisonSql;
  limit: number;
  top: Map<number, { keys: string[]; groups: number }>;
}

/** A group of a comparison as ResultsService.compared() answers it. */
type Group = { key: string; stats?: Record<string, unknown>; value?: unknown };

/** The requested aggregator (spec 001 §9), count when none; any other word is refused. */
export function aggregatorOf(text: string | undefined): Aggregator {
  if (!text) return 'count';
  if (!(AGGREGATORS as readonly string[]).includes(text))
    throw problems.invalidFields({ aggregator: [`Choose one of ${AGGREGATORS.join(', ')}.`] });
  return text as Aggregator;
}

/** A comparison by question names a live choice or binary question of the schemas asked for. */
export function checkComparisons(comparisons: Comparison[], bodies: SchemaBody[]): void {
  comparisons.forEach((c, i) => {
    if (c.by !== 'question') return;
    const known = bodies.some((b) => {
      const item = b.entities.items[String(c.item_id)];
      return item !== undefined && !item.deleted && CHOICES.has(item.type);
    });
    if (!known)
      throw problems.invalidFields({
        [`comparisons.${i}.item_id`]: [`Compare by a choice or binary question of this form: ${c.item_id} is not one.`],
      });
  });
}

/**
 * Text questions: the latest TEXT_SAMPLES answers of each, and for open questions the TOP_WORDS words found in most
 * answers, both bounded in ClickHouse (no answer list is loaded here). Added to each item's `bases` entry. With
 * `counted` (a request the aggregates answer) the latest answers come from agg_texts, and on the per-value counts and
 * the rollups (`words`) the words are counted over every answer from the aggregates; else from a sample of the answers.
 */
export async function textResults(
  store: ResultsStore,
  list: Item[],
  bases: Map<number, Record<string, unknown>>,
  where: Where,
  counted?: { store: AggregatesStore; where: AggWhere; words: boolean },
): Promise<void> {
  const texts = list.filter((i) => TEXTS.has(i.type)).map((i) => i.id);
  if (texts.length === 0) return;
  const open = list.filter((i) => i.type === 'open').map((i) => i.id);
  const samples = counted
    ? await counted.store.textSamples(counted.where, texts, TEXT_SAMPLES)
    : await store.textSamples(where, texts, TEXT_SAMPLES);
  // Words from at most about WORD_SAMPLE answers per question: one in `every` by hash of the response id.
  const answered = (id: number) => Number((bases.get(id)?.stats as { count?: number } | undefined)?.count ?? 0);
  const every = open.map((id) => (counted?.words ? 1 : Math.max(1, Math.ceil(answered(id) / WORD_SAMPLE))));
  const words =
    open.length === 0
      ? []
      : counted?.words
        ? await counted.store.topWords(counted.where, open, TOP_WORDS, MIN_WORD_LENGTH, STOP_WORDS)
        : counted
          ? // Filtered: the same sample as the scans', from agg_texts (no FINAL).
            await counted.store.sampledWords(counted.where, open, every, TOP_WORDS, MIN_WORD_LENGTH, STOP_WORDS)
          : await store.topWords(where, open, every, TOP_WORDS, MIN_WORD_LENGTH, STOP_WORDS);
  for (const id of texts) {
    const k = open.indexOf(id);
    bases.set(id, {
      ...bases.get(id),
      samples: samples.filter((r) => Number(r.item_id) === id).map((r) => ({ text: r.text, time: r.time })),
      ...(k >= 0
        ? {
            words: words.filter((r) => Number(r.item_id) === id).map((r) => ({ word: r.word, count: Number(r.count) })),
            // Past WORD_SAMPLE answers the counts are of a sample: one answer in `words_every`.
            ...(every[k]! > 1 ? { words_every: every[k] } : {}),
          }
        : {}),
    });
  }
}

/**
 * Each comparison's SQL and, when it may make more groups than its limit, per item its largest groups (one query per
 * comparison for all the items). A comparison by question makes at most one group per choice; the others are counted
 * on the responses table first.
 */
export async function planComparisons(
  store: Source,
  comparisons: Comparison[],
  items: number[],
  where: Where,
  timing: TimingColumn,
  body: SchemaBody,
): Promise<Compare[]> {
  const out: Compare[] = [];
  for (const by of comparisons) {
    const sql = store.comparison(by, timing);
    const limit = by.limit ?? COMPARISON_GROUPS.default;
    const top = new Map<number, { keys: string[]; groups: number }>();
    const compared = by.by === 'question' ? body.entities.items[String(by.item_id)] : undefined;
    const choices = (compared?.options.choices ?? []).filter((id) => body.entities.choices[id]?.deleted === false);
    const few =
      items.length === 0 ||
      (by.by === 'question'
        ? compared !== undefined && choices.length <= limit
        : (await store.comparisonGroups(where, sql)) <= limit);
    if (!few)
      for (const r of await store.comparisonTop(where, sql, items, limit, by.by === 'period')) {
        const id = Number(r.item_id);
        const t = top.get(id) ?? { keys: [], groups: Number(r.groups) };
        t.keys.push(r.key);
        top.set(id, t);
      }
    out.push({ by, sql, limit, top });
  }
  return out;
}

/**
 * The item's results per group of every comparison (`compared` answers one comparison's groups), each group with the
 * value of the item's aggregator. Past the comparison's limit the largest groups are kept (the latest, for periods)
 * and the rest summed into `capped.other`.
 */
export async function comparedAll(
  store: Source,
  item: Item,
  where: Where,
  compares: Compare[],
  requested: Aggregator,
  compared: (c: ComparisonSql) => Promise<Group[]>,
) {
  const agg = aggregatorFor(item.type, requested);
  const out = [];
  for (const c of compares) {
    const t = c.top.get(item.id);
    const capped = t !== undefined && t.groups > c.limit;
    const sql = capped ? store.capped(c.sql, t.keys) : c.sql;
    const groups: Group[] =
      item.type === 'date' && agg !== 'count'
        ? (await store.comparedDates(where, sql, item.id)).map((r) => ({
            key: r.key,
            stats: { count: Number(r.count), min: r.min, max: r.max },
          }))
        : await compared(sql);
    for (const g of groups) if (g.stats) g.value = aggregated(g.stats, agg);
    out.push({
      by: c.by,
      groups: groups.filter((g) => g.key !== ''),
      ...(capped
        ? { capped: { limit: c.limit, groups: t.groups, other: groups.find((g) => g.key === '') ?? null } }
        : {}),
    });
  }
  return out;
}
