// Advanced results (spec 001 §3, §7): each definition's formula, in the formula language of packages/sampler, is
// evaluated with every Q{category}_{question} standing for the list of that question's answers in the filtered
// responses (numbers for number, currency and calculated questions; a 1 per answer otherwise), so that SUM, AVERAGE,
// COUNT, MIN and MAX are the aggregates; Q{category}_* is every number of that category. The value is then placed
// against the thresholds.
import type { projects } from '@fieldwork/proto';
import {
  compileFormula,
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

/** The answers a reference stands for: (block, item) -> values. */
export type Loader = (itemIds: number[]) => Promise<Map<number, number[]>>;

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
    const out = f.evaluate({
      ref: (block, item) => {
        if (item === '*') return blockItems(block).flatMap((i) => values.get(i!.id) ?? []);
        return values.get(item) ?? [];
      },
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
