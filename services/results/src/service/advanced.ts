// Advanced results (spec 001 §3, §7): each definition's formula, in the formula language of packages/sampler, is
// evaluated with every Q{category}_{question} standing for that question's answers in the filtered responses, every
// repeat instance included (numbers for number, currency and calculated questions; a 1 per answer otherwise), so
// that SUM, AVERAGE, COUNT, MIN and MAX are the aggregates; Q{category}_* is every number of that category. The
// answers never leave ClickHouse: it answers count, sum, min and max per question (store's itemAggregates) and the
// aggregate functions are folded from those. A reference outside an aggregate function is still a list (which
// arithmetic refuses, as the formula language does): empty, its one answer, or its least and greatest answers. The
// value is then placed against the thresholds.
import type { projects } from '@fieldwork/proto';
import {
  compileFormula,
  FUNCTIONS,
  FormulaError,
  finite,
  type AggregateName,
  type Arg,
  errorMessage,
  FormulaCompileError,
  isFormulaError,
  toNumber,
  type SchemaBody,
  type Scalar,
} from '@fieldwork/sampler';

export type Status = 'above' | 'below' | 'within' | 'none';

export interface Evaluated {
  value: number | null;
  error: string | null;
  status: Status;
}

/** Where a value stands: above the upper threshold, below the lower one, within, or none when there are none. */
export function thresholdStatus(value: number | null, lower: number | undefined, upper: number | undefined): Status {
  if (value === null || (lower === undefined && upper === undefined)) return 'none';
  if (upper !== undefined && value > upper) return 'above';
  if (lower !== undefined && value < lower) return 'below';
  return 'within';
}

/** The aggregates of one question's answers (numbers as they are, any other answer 1). */
export interface Aggregate {
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
}

/** The aggregates of the questions named, by item id (absent: no answer). */
export type Loader = (itemIds: number[]) => Promise<Map<number, Aggregate>>;

const NONE: Aggregate = { count: 0, sum: 0, min: null, max: null };

function merge(a: Aggregate, b: Aggregate): Aggregate {
  const pick = (x: number | null, y: number | null, f: (p: number, q: number) => number) =>
    x === null ? y : y === null ? x : f(x, y);
  return {
    count: a.count + b.count,
    sum: a.sum + b.sum,
    min: pick(a.min, b.min, Math.min),
    max: pick(a.max, b.max, Math.max),
  };
}

/**
 * An aggregate function over its arguments: references from their aggregates, any other argument (a constant, an
 * expression) through the function itself, as the formula language reads it.
 */
function fold(name: AggregateName, args: Arg[], of: (ref: NonNullable<Arg['refTo']>) => Aggregate) {
  let acc = NONE;
  for (const a of args) {
    if (a.refTo) {
      acc = merge(acc, of(a.refTo));
      continue;
    }
    const count = FUNCTIONS.COUNT!.fn([a], { ref: () => [], now: () => new Date() }) as number;
    if (name !== 'COUNT') {
      const sum = FUNCTIONS.SUM!.fn([a], { ref: () => [], now: () => new Date() });
      if (sum instanceof FormulaError) return sum;
    }
    if (count === 0) continue;
    const one = (f: string) => FUNCTIONS[f]!.fn([a], { ref: () => [], now: () => new Date() }) as number;
    acc = merge(acc, { count, sum: one('SUM'), min: one('MIN'), max: one('MAX') });
  }
  switch (name) {
    case 'COUNT':
      return acc.count;
    case 'SUM':
      return finite(acc.sum);
    case 'AVERAGE':
      return acc.count === 0 ? new FormulaError('DIV_ZERO', 'division') : acc.sum / acc.count;
    case 'MIN':
      return acc.min ?? 0;
    case 'MAX':
      return acc.max ?? 0;
  }
}

export async function evaluateAdvanced(
  defs: projects.AdvancedResult[],
  body: SchemaBody,
  load: Loader,
): Promise<(projects.AdvancedResult & Evaluated)[]> {
  const compiled = defs.map((d) => {
    try {
      return { d, f: compileFormula(d.formula) };
    } catch (err) {
      if (err instanceof FormulaCompileError) return { d, error: err.display };
      throw err;
    }
  });
  // Every item any formula names, loaded once.
  const wanted = new Set<number>();
  const blockItems = (blockId: number) =>
    (body.entities.blocks[blockId]?.entities ?? [])
      .filter((e) => e.type === 'item')
      .map((e) => body.entities.items[e.id])
      .filter((i) => i && !i.deleted && ['number', 'currency', 'calculated'].includes(i.type));
  for (const c of compiled) {
    for (const ref of c.f?.refs ?? []) {
      if (ref.item === '*') for (const i of blockItems(ref.block)) wanted.add(i!.id);
      else wanted.add(ref.item);
    }
  }
  const values = await load([...wanted]);
  return compiled.map(({ d, f, error }) => {
    const done = (value: number | null, err: string | null): projects.AdvancedResult & Evaluated => ({
      ...d,
      value,
      error: err,
      status: thresholdStatus(value, d.threshold_value_lower, d.threshold_value_upper),
    });
    if (!f) return done(null, error ?? 'Not a valid formula!');
    const known = (block: number, item: number | '*') =>
      body.entities.blocks[block]?.entities.some((e) => e.type === 'item' && (item === '*' || e.id === item)) ?? false;
    if (f.refs.some((r) => !known(r.block, r.item))) return done(null, 'Invalid Reference!');
    const of = ({ block, item }: { block: number; item: number | '*' }): Aggregate =>
      item === '*'
        ? blockItems(block).reduce((acc, i) => merge(acc, values.get(i!.id) ?? NONE), NONE)
        : (values.get(item) ?? NONE);
    const out = f.evaluate({
      ref: (block, item) => {
        // Outside an aggregate function: a list of none, the one answer, or the least and greatest.
        const a = of({ block, item });
        return a.count === 0 ? [] : a.count === 1 ? [a.sum] : [a.min ?? 0, a.max ?? 0];
      },
      aggregate: (name, args) => fold(name, args, of),
      now: () => new Date(),
    });
    const scalar: Scalar = Array.isArray(out) ? (out.length === 1 ? out[0]! : null) : out;
    if (isFormulaError(scalar)) return done(null, errorMessage(scalar));
    if (scalar === null) return done(null, 'Null value encountered!');
    const n = toNumber(scalar);
    if (isFormulaError(n) || !Number.isFinite(n)) return done(null, 'Could not calculate!');
    return done(n, null);
  });
}
