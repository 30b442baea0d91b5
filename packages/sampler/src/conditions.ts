// Conditions of blocks (spec 001 §3 Condition, §5 Condition evaluation) and what a collector sees: each block and
// question is shown, maybe (it depends on a question not answered yet), or skipped.
import type { Block, ConditionEntry, ConditionTest, Operator, Range, SchemaBody } from './schema.js';

/** Answers of one record (one repeat), by item id. */
export type Answers = Record<string, unknown>;

export interface ConditionContext {
  /** The schema the conditions belong to. */
  schemaId: number;
  answers: Answers;
  /** Answers of ancestor-schema responses (hierarchical projects) and referenced-project responses, by schema id. */
  other?: Record<number, Answers>;
}

export type Visibility = 'shown' | 'maybe' | 'skipped';

/** Empty string, null and undefined (and an empty list) count as unanswered (spec 001 §5). */
export function isAnswered(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
}

const isOperator = (e: ConditionEntry): e is { operator: Operator } => 'operator' in e;

/**
 * Placement: a condition cannot start with an operator other than NOT, cannot end with an operator, and two
 * operators cannot be adjacent (NOT may follow a binary operator only as part of AND NOT / OR NOT).
 */
export function placementValid(entries: ConditionEntry[]): boolean {
  if (entries.length === 0) return true;
  const first = entries[0]!;
  const last = entries[entries.length - 1]!;
  if (isOperator(first) && first.operator !== 'NOT') return false;
  if (isOperator(last)) return false;
  for (let i = 1; i < entries.length; i++) if (isOperator(entries[i]!) && isOperator(entries[i - 1]!)) return false;
  for (let i = 1; i < entries.length; i++) if (!isOperator(entries[i]!) && !isOperator(entries[i - 1]!)) return false;
  return true;
}

function inRange(value: number, r: Range): boolean {
  return (
    (r.$gt === undefined || value > r.$gt) &&
    (r.$gte === undefined || value >= r.$gte) &&
    (r.$lt === undefined || value < r.$lt) &&
    (r.$lte === undefined || value <= r.$lte)
  );
}

/** One test: undefined when its question is not answered yet. */
function test(t: ConditionTest, ctx: ConditionContext): boolean | undefined {
  const answers = t.schemaId === ctx.schemaId || t.schemaId === 0 ? ctx.answers : ctx.other?.[t.schemaId];
  const value = answers?.[String(t.itemId)];
  if (!isAnswered(value)) return undefined;
  if (Array.isArray(t.condition)) {
    const chosen = (Array.isArray(value) ? value : [value]).map(Number);
    return t.condition.some((c) => chosen.includes(c));
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && inRange(n, t.condition);
}

/**
 * Evaluates a block's conditions: true, false, or undefined when the answer depends on an unanswered question.
 * Non-finalized tests and misplaced operators make the condition false. AND binds tighter than OR; NOT applies to
 * the test after it.
 */
export function evaluateConditions(entries: ConditionEntry[], ctx: ConditionContext): boolean | undefined {
  if (entries.length === 0) return true;
  if (!placementValid(entries)) return false;
  if (entries.some((e) => !isOperator(e) && !e.finalized)) return false;
  // Three-valued logic (true, false, unknown) so that "maybe" comes out right.
  const not = (v: boolean | undefined) => (v === undefined ? undefined : !v);
  const and = (a: boolean | undefined, b: boolean | undefined) =>
    a === false || b === false ? false : a === undefined || b === undefined ? undefined : true;
  const or = (a: boolean | undefined, b: boolean | undefined) =>
    a === true || b === true ? true : a === undefined || b === undefined ? undefined : false;
  let sum: boolean | undefined = false;
  let product: boolean | undefined;
  let pending: Operator | undefined;
  let first = true;
  for (const e of entries) {
    if (isOperator(e)) {
      pending = e.operator;
      continue;
    }
    let v = test(e, ctx);
    if (pending === 'NOT' || pending === 'AND NOT' || pending === 'OR NOT') v = not(v);
    if (first) product = v;
    else if (pending === 'AND' || pending === 'AND NOT') product = and(product, v);
    else if (pending === 'OR' || pending === 'OR NOT') {
      sum = or(sum, product);
      product = v;
    } else product = v;
    first = false;
    pending = undefined;
  }
  return or(sum, product);
}

/** Visibility of every block and item: a block skipped hides everything in it; maybe propagates likewise. */
export function visibility(
  body: SchemaBody,
  ctx: ConditionContext,
): { blocks: Map<number, Visibility>; items: Map<number, Visibility> } {
  const blocks = new Map<number, Visibility>();
  const items = new Map<number, Visibility>();
  const walk = (b: Block, inherited: Visibility) => {
    if (b.deleted) return;
    const own = evaluateConditions(b.conditions, ctx);
    const mine: Visibility =
      inherited === 'skipped' || own === false
        ? 'skipped'
        : inherited === 'maybe' || own === undefined
          ? 'maybe'
          : 'shown';
    blocks.set(b.id, mine);
    for (const ref of b.entities) {
      if (ref.type === 'item') items.set(ref.id, mine);
      else {
        const child = body.entities.blocks[ref.id];
        if (child) walk(child, mine);
      }
    }
  };
  for (const id of body.form) {
    const b = body.entities.blocks[id];
    if (b) walk(b, 'shown');
  }
  return { blocks, items };
}
