// Calculated questions (spec 001 §5): formulas over the answers of earlier questions of the same category, checked
// for cycles, questions asked later and other categories; their results and the calculation messages of §8. Also the
// calculation objects (answer, aggregate, expression, constant) of advanced results.
import { isAnswered, type Answers } from './conditions.js';
import {
  compileFormula,
  FormulaCompileError,
  FormulaError,
  FORMULA_ERRORS,
  toSerial,
  type CompiledFormula,
  type EvalContext,
  type Value,
} from './formula/index.js';
import { itemsInOrder, parentOf, text, type Item, type SchemaBody } from './schema.js';

export const CALCULATION_MESSAGES = {
  division: 'Division by zero/undefined encountered!',
  log: 'Logarithm of negative number/ zero encountered!',
  sqrt: 'Square root of negative number encountered!',
  ancestor: "A required question in an ancestor response hasn't been answered!",
  answer: (question: string, calculation: string) =>
    `Please answer '${question}' to view the calculation '${calculation}'`,
  failed: 'Could not calculate!',
} as const;

export const DEPENDENCY_MESSAGES = {
  missing: 'Invalid Reference!',
  cycle: 'The calculation depends on itself.',
  later: 'The calculation uses a question asked after it.',
  otherBlock: 'The calculation uses a question of another category.',
} as const;

/** The formula reference of a question: Q{its category id}_{its id}. */
export function refName(body: SchemaBody, itemId: number): string {
  const block = parentOf(body, { type: 'item', id: itemId });
  return `Q${block?.id ?? 0}_${itemId}`;
}

/** One problem of a formula: the spec's message, and beside it (not in it) the offending name or reference. */
export interface FormulaProblem {
  message: string;
  name?: string;
}

/**
 * Types whose answers a formula cannot read (nothing, a position, a picture): a reference to one needs updating.
 * Every other type gives a value (answerValue).
 */
const NOT_FORMULA_TYPES: ReadonlySet<string> = new Set(['empty', 'instruction', 'geotag', 'image', 'signature']);

/** Whether a formula can read answers of this item type (one that cannot is "Need update!" in a formula). */
export const formulaReads = (type: string): boolean => !NOT_FORMULA_TYPES.has(type);

/** What the builder records, in `options.editorState`, of the questions a formula references when it is written. */
export interface FormulaEditorState {
  refs: Record<string, { codeName: string; type: string }>;
}

/** The editor state to store with `formula`: each referenced question's code name and type as they are now. */
export function formulaEditorState(body: SchemaBody, formula: string): FormulaEditorState {
  const refs: FormulaEditorState['refs'] = {};
  let compiled: CompiledFormula;
  try {
    compiled = compileFormula(formula.trim());
  } catch {
    return { refs };
  }
  for (const ref of compiled.refs) {
    const target = ref.item === '*' ? undefined : body.entities.items[ref.item];
    if (target) refs[String(target.id)] = { codeName: target.codeName, type: target.type };
  }
  return { refs };
}

function recorded(editorState: unknown, itemId: number): { codeName?: unknown; type?: unknown } | undefined {
  if (typeof editorState !== 'object' || editorState === null) return undefined;
  const refs = (editorState as { refs?: unknown }).refs;
  if (typeof refs !== 'object' || refs === null) return undefined;
  const r = (refs as Record<string, unknown>)[String(itemId)];
  return typeof r === 'object' && r !== null ? r : undefined;
}

/**
 * The problems of a calculated question's formula: compile errors, then dependency errors, each once. Empty when it
 * is fine, and for an empty formula: the spec asks a calculated question for a name only (§5 item validity), so one
 * without a formula yet is valid and simply not calculated (see `calculate`).
 *
 * "Need update!" (spec 001 §8) is our rule for a reference that was valid when the formula was written and is no
 * longer usable as written: the referenced question's type is now one a formula cannot read (NOT_FORMULA_TYPES, e.g.
 * a number rebuilt as an image), or its code name differs from the one recorded in `options.editorState` when the
 * formula was last edited (the question was renamed under the formula). Editing the formula records the current
 * names again. A formula without a recorded state (imports, older forms) is only checked for the type.
 */
export function formulaProblems(body: SchemaBody, itemId: number): FormulaProblem[] {
  const item = body.entities.items[itemId];
  if (!item || item.type !== 'calculated') return [];
  const formula = (item.options.formula ?? '').trim();
  if (formula === '') return [];
  let compiled: CompiledFormula;
  try {
    compiled = compileFormula(formula);
  } catch (err) {
    if (err instanceof FormulaCompileError)
      return [err.token === undefined ? { message: err.display } : { message: err.display, name: err.token }];
    throw err;
  }
  const order = itemsInOrder(body);
  const position = new Map(order.map((o, i) => [o.item.id, i]));
  const own = parentOf(body, { type: 'item', id: itemId });
  const problems = new Map<string, FormulaProblem>();
  const add = (message: string, name: string) => problems.set(`${message}\n${name}`, { message, name });
  for (const ref of compiled.refs) {
    const name = `Q${ref.block}_${ref.item}`;
    const block = body.entities.blocks[ref.block];
    if (!block || block.deleted) {
      add(DEPENDENCY_MESSAGES.missing, name);
      continue;
    }
    if (block.id !== own?.id) add(DEPENDENCY_MESSAGES.otherBlock, name);
    if (ref.item === '*') continue;
    const target = body.entities.items[ref.item];
    if (!target || target.deleted || !block.entities.some((e) => e.type === 'item' && e.id === ref.item)) {
      add(DEPENDENCY_MESSAGES.missing, name);
      continue;
    }
    const was = recorded(item.options.editorState, target.id);
    if (NOT_FORMULA_TYPES.has(target.type) || (typeof was?.codeName === 'string' && was.codeName !== target.codeName))
      add(FORMULA_ERRORS.UPDATE, name);
    if (ref.item === itemId || dependsOn(body, ref.item, itemId, new Set())) add(DEPENDENCY_MESSAGES.cycle, name);
    else if ((position.get(ref.item) ?? -1) > (position.get(itemId) ?? -1)) add(DEPENDENCY_MESSAGES.later, name);
  }
  return [...problems.values()];
}

/** Does calculated question `from` (directly or through other calculations) use `target`? */
function dependsOn(body: SchemaBody, from: number, target: number, seen: Set<number>): boolean {
  const item = body.entities.items[from];
  if (!item || item.type !== 'calculated' || seen.has(from)) return false;
  seen.add(from);
  let refs: number[];
  try {
    refs = compileFormula(item.options.formula ?? '')
      .refs.filter((r) => r.item !== '*')
      .map((r) => r.item as number);
  } catch {
    return false;
  }
  return refs.some((r) => r === target || dependsOn(body, r, target, seen));
}

/** A formula value of an answer: numbers stay, dates become Excel serials, choices their code names. */
export function answerValue(body: SchemaBody, item: Item, answer: unknown): Value {
  if (!isAnswered(answer)) return null;
  switch (item.type) {
    case 'number':
    case 'currency':
    case 'calculated':
      return typeof answer === 'number' ? answer : Number(answer);
    case 'date': {
      const d = new Date(String(answer).length === 10 ? `${String(answer)}T00:00:00Z` : String(answer));
      return Number.isNaN(d.getTime()) ? new FormulaError('VALUE') : toSerial(d);
    }
    case 'choice':
    case 'binary': {
      const ids = Array.isArray(answer) ? answer : [answer];
      const codes = ids.map((id) => {
        const code = body.entities.choices[String(id)]?.codeName ?? String(id);
        return /^-?\d+(\.\d+)?$/.test(code) ? Number(code) : code;
      });
      return codes.length === 1 ? codes[0]! : codes;
    }
    default:
      return typeof answer === 'string' || typeof answer === 'number' || typeof answer === 'boolean'
        ? answer
        : new FormulaError('VALUE');
  }
}

/** The evaluation context of a record's answers. */
export function answersContext(body: SchemaBody, answers: Answers, now = () => new Date()): EvalContext {
  return {
    now,
    ref: (blockId, itemId) => {
      const block = body.entities.blocks[blockId];
      if (!block || block.deleted) return new FormulaError('REF');
      if (itemId === '*') {
        return block.entities
          .filter((e) => e.type === 'item')
          .map((e) => body.entities.items[e.id]!)
          .filter((i) => !i.deleted && i.type !== 'instruction')
          .flatMap((i) => {
            const v = answerValue(body, i, answers[String(i.id)]);
            return Array.isArray(v) ? v : [v];
          });
      }
      const item = body.entities.items[itemId];
      if (!item || item.deleted) return new FormulaError('REF');
      return answerValue(body, item, answers[String(itemId)]);
    },
  };
}

/** The message of an error value of a calculation. */
export function errorMessage(e: FormulaError): string {
  if (e.code === 'DIV_ZERO' && e.cause !== 'log') return CALCULATION_MESSAGES.division;
  if (e.cause === 'log') return CALCULATION_MESSAGES.log;
  if (e.cause === 'sqrt') return CALCULATION_MESSAGES.sqrt;
  return CALCULATION_MESSAGES.failed;
}

/**
 * The answer of a calculated question, or why it cannot be shown yet; null when it has no formula yet (nothing to
 * calculate, so no answer and no message).
 */
export function calculate(
  body: SchemaBody,
  itemId: number,
  answers: Answers,
  lang: string,
  now?: () => Date,
): { value: number } | { error: string } | null {
  const item = body.entities.items[itemId];
  if (!item || item.type !== 'calculated') return { error: CALCULATION_MESSAGES.failed };
  const formula = (item.options.formula ?? '').trim();
  if (formula === '') return null;
  let compiled: CompiledFormula;
  try {
    compiled = compileFormula(formula);
  } catch (err) {
    return { error: err instanceof FormulaCompileError ? err.display : CALCULATION_MESSAGES.failed };
  }
  for (const ref of compiled.refs) {
    if (ref.item === '*') continue;
    const dep = body.entities.items[ref.item];
    if (dep && !dep.deleted && !isAnswered(answers[String(ref.item)])) {
      return {
        error: CALCULATION_MESSAGES.answer(
          text(dep.name, lang) || dep.codeName,
          text(item.name, lang) || item.codeName,
        ),
      };
    }
  }
  const v = compiled.evaluate(answersContext(body, answers, now));
  if (v instanceof FormulaError) return { error: errorMessage(v) };
  const n = typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : Number.NaN;
  if (!Number.isFinite(n)) return { error: CALCULATION_MESSAGES.failed };
  return { value: item.options.allowDecimal === false ? Math.sign(n) * Math.round(Math.abs(n)) : n };
}

// Calculation objects.

export type CalculationOperator =
  'add' | 'multiply' | 'subtract' | 'divide' | 'power' | 'LN' | 'LOG' | 'LOG10' | 'SQRT' | 'ABS';

export type Calculation =
  | { type: 'answer'; itemId: number }
  | { type: 'constant'; value: number }
  | { type: 'aggregate'; aggregator: string; filters?: unknown; itemId: number }
  | { type: 'expression'; operator: CalculationOperator; operands: Calculation[] };

export interface CalculationSource {
  /** The answer of a question; undefined when unanswered; `ancestor` when it belongs to an ancestor response. */
  answer(itemId: number): { value: number | undefined; ancestor?: boolean; name: string };
  aggregate(aggregator: string, itemId: number, filters: unknown): number | undefined;
}

export class CalculationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalculationError';
  }
}

/** Evaluates a calculation object; throws CalculationError with the spec's message. */
export function evaluateCalculation(calc: Calculation, source: CalculationSource, name = ''): number {
  switch (calc.type) {
    case 'constant':
      return calc.value;
    case 'answer': {
      const a = source.answer(calc.itemId);
      if (a.value === undefined)
        throw new CalculationError(
          a.ancestor ? CALCULATION_MESSAGES.ancestor : CALCULATION_MESSAGES.answer(a.name, name),
        );
      return a.value;
    }
    case 'aggregate': {
      const v = source.aggregate(calc.aggregator, calc.itemId, calc.filters);
      if (v === undefined || !Number.isFinite(v)) throw new CalculationError(CALCULATION_MESSAGES.failed);
      return v;
    }
    case 'expression': {
      const xs = calc.operands.map((o) => evaluateCalculation(o, source, name));
      const [a = Number.NaN, b = Number.NaN] = xs;
      switch (calc.operator) {
        case 'add':
          return xs.reduce((s, x) => s + x, 0);
        case 'multiply':
          return xs.reduce((s, x) => s * x, 1);
        case 'subtract':
          return a - b;
        case 'divide':
          if (b === 0 || !Number.isFinite(b)) throw new CalculationError(CALCULATION_MESSAGES.division);
          return a / b;
        case 'power':
          return a ** b;
        case 'LN':
          if (a <= 0) throw new CalculationError(CALCULATION_MESSAGES.log);
          return Math.log(a);
        case 'LOG':
          if (a <= 0 || b <= 0 || b === 1) throw new CalculationError(CALCULATION_MESSAGES.log);
          return Math.log(a) / Math.log(b);
        case 'LOG10':
          if (a <= 0) throw new CalculationError(CALCULATION_MESSAGES.log);
          return Math.log10(a);
        case 'SQRT':
          if (a < 0) throw new CalculationError(CALCULATION_MESSAGES.sqrt);
          return Math.sqrt(a);
        case 'ABS':
          return Math.abs(a);
      }
    }
  }
  throw new CalculationError(CALCULATION_MESSAGES.failed);
}
