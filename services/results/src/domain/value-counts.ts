// The statistics of questions from their value counts (the aggregates' rows item, k, v, n summed): what the scans
// compute in SQL (store/results.store.ts numberStatsSql, choiceCounts, dateSeries, answerCounts), computed here from
// at most one row per distinct value. Pure.

/** The marker choice that counts the answers holding at least one choice. */
export const ANSWERED_CHOICE = 4294967295;

/** A row of value counts: item, kind (0 other answer, 1 number, 2 choice, 3 date as a day number), value, count. */
export interface ValueCount {
  item_id: number;
  k: number;
  v: number;
  n: number;
}

export interface NumberCounts {
  item_id: number;
  count: number;
  sum: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  var: number | null;
  stddev: number | null;
  q: number[];
  values: number[];
  counts: string[];
}

/**
 * A number item's statistics from its distinct values `vs` (ascending) and their counts `cs`: count, sum, mean,
 * extremes, the sample variance (two-pass, about the mean) and the exact quartiles interpolated as
 * quantilesExactInclusive does (position p × (count − 1) in the sorted answers).
 */
export function numberCounts(item: number, vs: number[], cs: number[]): NumberCounts {
  let count = 0;
  let sum = 0;
  for (let i = 0; i < vs.length; i++) {
    count += cs[i]!;
    sum += vs[i]! * cs[i]!;
  }
  const avg = count > 0 ? sum / count : null;
  let sq = 0;
  if (avg !== null) for (let i = 0; i < vs.length; i++) sq += cs[i]! * (vs[i]! - avg) * (vs[i]! - avg);
  const variance = count > 1 ? sq / (count - 1) : null;
  // The answer at 0-based rank r in the sorted answers.
  const cum: number[] = [];
  let c = 0;
  for (const k of cs) cum.push((c += k));
  const at = (r: number) => {
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! > r) hi = mid;
      else lo = mid + 1;
    }
    return vs[lo]!;
  };
  const q =
    count > 0
      ? [0.25, 0.5, 0.75].map((p) => {
          const pos = p * (count - 1);
          const f = Math.floor(pos);
          return at(f) + (pos - f) * (at(Math.min(f + 1, count - 1)) - at(f));
        })
      : [];
  return {
    item_id: item,
    count,
    sum,
    avg,
    min: count > 0 ? vs[0]! : null,
    max: count > 0 ? vs.at(-1)! : null,
    var: variance,
    stddev: variance === null ? null : Math.sqrt(variance),
    q,
    values: vs,
    counts: cs.map(String),
  };
}

/** The rows of each item and kind, values ascending (rows with a count of zero or less left out). */
export function byItemAndKind(rows: readonly ValueCount[]): Map<number, Map<number, { vs: number[]; cs: number[] }>> {
  const out = new Map<number, Map<number, { vs: number[]; cs: number[] }>>();
  const sorted = rows.filter((r) => r.n > 0).sort((a, b) => a.item_id - b.item_id || a.k - b.k || a.v - b.v);
  for (const r of sorted) {
    let kinds = out.get(r.item_id);
    if (!kinds) out.set(r.item_id, (kinds = new Map()));
    let d = kinds.get(r.k);
    if (!d) kinds.set(r.k, (d = { vs: [], cs: [] }));
    d.vs.push(r.v);
    d.cs.push(r.n);
  }
  return out;
}

/** A day number (days since 1970-01-01) as YYYY-MM-DD. */
export const dayText = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** Each answer counted once: other answers, numbers, dates, and the answers holding a choice. */
export function answerCount(kinds: Map<number, { vs: number[]; cs: number[] }> | undefined): number {
  if (!kinds) return 0;
  let n = 0;
  for (const k of [0, 1, 3]) for (const c of kinds.get(k)?.cs ?? []) n += c;
  const choices = kinds.get(2);
  if (choices) choices.vs.forEach((v, i) => (n += v === ANSWERED_CHOICE ? choices.cs[i]! : 0));
  return n;
}
