// What the charts of results are drawn from (spec 001 §9): the aggregators and which question types take which, the
// histogram bins of number questions (round widths), the bounds of comparison groups and of text samples and word
// counts. Pure.

/** Spec 001 §9 aggregators. */
export const AGGREGATORS = ['sum', 'avg', 'count', 'min', 'max', 'stddev', 'var'] as const;
export type Aggregator = (typeof AGGREGATORS)[number];

const NUMBERS: readonly Aggregator[] = ['sum', 'count', 'stddev', 'avg', 'var'];
/**
 * The aggregators each question type takes (spec 001 §9: number, currency, calculated get sum, count, stddev, avg,
 * var; date gets count, min, max; the rest count). Geotag and barcode answers are points and codes in our store,
 * not numbers: they take count.
 */
const BY_TYPE: Record<string, readonly Aggregator[]> = {
  number: NUMBERS,
  currency: NUMBERS,
  calculated: NUMBERS,
  date: ['count', 'min', 'max'],
};

/** The aggregator an item of `type` is shown with: the requested one where the type takes it, else count. */
export function aggregatorFor(type: string, requested: Aggregator): Aggregator {
  return (BY_TYPE[type] ?? ['count']).includes(requested) ? requested : 'count';
}

/** The value of `stats` by aggregator (null when the statistic is missing). */
export function aggregated(stats: Record<string, unknown> | undefined, aggregator: Aggregator): number | string | null {
  const v = stats?.[aggregator];
  return typeof v === 'number' || typeof v === 'string' ? v : null;
}

export interface Bins {
  /** Lower edge of the first bin, a multiple of `width`. */
  lo: number;
  /** 1, 2 or 5 × 10^k. */
  width: number;
  /** How many bins: [lo + i·width, lo + (i+1)·width), the last one also holding the maximum. */
  n: number;
  /** Whole numbers: each bin holds the integers lo + i·width .. lo + (i+1)·width - 1. */
  integer: boolean;
}

/** The smallest 1, 2 or 5 × 10^k that is at least `x` (x > 0). */
export function niceWidth(x: number): number {
  const k = Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) {
    const w = Number((m * 10 ** k).toPrecision(12));
    if (w >= x) return w;
  }
  return 10 ** (k + 1);
}

/**
 * Histogram bins over [min, max] with about `target` bins of a round width (1, 2 or 5 × 10^k) starting at a multiple
 * of the width, so that the edges read 0, 5, 10 ... rather than 0.37, 1.84 .... Whole numbers (`integer`) get whole
 * widths of at least 1, so that no bin falls between two integers: 1 to 6 is six bins of one value each.
 */
export function niceBins(min: number, max: number, target: number, integer: boolean): Bins {
  const range = max - min;
  if (!(range > 0) || !Number.isFinite(range)) {
    const width = integer ? 1 : niceWidth(Math.abs(min) / 10 || 1);
    return { lo: integer ? min : Math.floor(min / width) * width, width, n: 1, integer };
  }
  let width = niceWidth(range / Math.max(1, target));
  if (integer) width = Math.max(1, Math.round(width));
  let lo = Number((Math.floor(min / width) * width).toPrecision(12));
  if (lo > min) lo -= width;
  const n = integer
    ? Math.floor((max - lo) / width) + 1
    : Math.max(1, Math.min(target + 1, Math.ceil(Number(((max - lo) / width).toPrecision(12)))));
  return { lo, width, n, integer };
}

/** The groups of a comparison kept by default and at most (the rest are summed into one "other"). */
export const COMPARISON_GROUPS = { default: 50, max: 100 } as const;

/** The most recent text answers sent per text question, and the most frequent words. */
export const TEXT_SAMPLES = 20;
export const TOP_WORDS = 30;
/** The answers of a text question whose words are counted: all up to this, an even sample (by response) beyond. */
export const WORD_SAMPLE = 5_000;
/** Words shorter than this are not counted (articles, particles). */
export const MIN_WORD_LENGTH = 3;
/** Frequent words of the interface languages that say nothing of an answer (English, French, Spanish, Portuguese). */
export const STOP_WORDS = [
  ...['the', 'and', 'for', 'are', 'but', 'not', 'you', 'all', 'any', 'can', 'had', 'her', 'was', 'one', 'our', 'out'],
  ...['has', 'have', 'his', 'how', 'its', 'may', 'who', 'did', 'yes', 'she', 'him', 'they', 'them', 'this', 'that'],
  ...['with', 'from', 'were', 'what', 'when', 'will', 'would', 'there', 'their', 'been', 'into', 'very', 'some'],
  ...['les', 'des', 'une', 'est', 'pas', 'que', 'qui', 'par', 'pour', 'dans', 'sur', 'avec', 'mais', 'nous', 'vous'],
  ...['ils', 'elle', 'elles', 'sont', 'ont', 'aux', 'ces', 'son', 'ses', 'leur', 'tout', 'plus', 'oui', 'non'],
  ...['los', 'las', 'del', 'por', 'para', 'con', 'una', 'uno', 'sus', 'como', 'pero', 'más', 'muy', 'sin', 'está'],
  ...['não', 'sim', 'com', 'uma', 'por', 'para', 'mais', 'como', 'dos', 'das', 'nos', 'nas', 'foi', 'são', 'ele'],
];
