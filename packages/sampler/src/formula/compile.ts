// Parses a formula once and compiles it to a closure; compiled formulas are cached by their text. A formula that
// cannot compile answers a FormulaCompileError: parse errors name the line, column and expected tokens.
import { FormulaCompileError, FormulaError, FORMULA_ERRORS } from './errors.js';
import { FUNCTIONS, isAggregate, power, type Arg, type EvalContext } from './functions.js';
import type * as ohm from 'ohm-js';
import type { AstNode } from './ast.js';
import { fastParse } from './fast-parse.js';
import { grammar } from './grammar.js';
import { compare, finite, sane, toNumber, toText, type Scalar, type Value } from './values.js';

export type { EvalContext };
export type { AstNode };

/** A question reference of a formula: Q{block}_{item}, or Q{block}_* for every question of the block. */
export interface FormulaRef {
  block: number;
  item: number | '*';
}

export interface CompiledFormula {
  text: string;
  refs: FormulaRef[];
  functions: string[];
  evaluate(ctx: EvalContext): Value;
}

const ast = (n: ohm.Node): AstNode => (n as unknown as { ast(): AstNode }).ast();
const bin =
  (op: string) =>
  (a: ohm.Node, _op: ohm.Node, b: ohm.Node): AstNode => ({ k: 'bin', op, a: ast(a), b: ast(b) });

const semantics = grammar.createSemantics().addOperation<AstNode>('ast', {
  Formula: (_eq, e, _end) => ast(e),
  Comparison_ne: bin('<>'),
  Comparison_le: bin('<='),
  Comparison_ge: bin('>='),
  Comparison_eq: bin('='),
  Comparison_lt: bin('<'),
  Comparison_gt: bin('>'),
  Comparison_not: bin('<>'),
  Concat_join: bin('&'),
  Additive_plus: bin('+'),
  Additive_minus: bin('-'),
  Multiplicative_times: bin('*'),
  Multiplicative_divide: bin('/'),
  Power_power: bin('^'),
  Postfix_percent: (x, _p) => ({ k: 'pct', x: ast(x) }),
  Unary_neg: (_m, x) => ({ k: 'neg', x: ast(x) }),
  Unary_pos: (_p, x) => ({ k: 'pos', x: ast(x) }),
  Primary_paren: (_o, e, _c) => ast(e),
  Primary_name: (i) => ({ k: 'name', name: i.sourceString }),
  Call_none: (name, _o, _c) => ({ k: 'call', name: name.sourceString.toUpperCase(), args: [] }),
  Call_args: (name, _o, list, _c) => ({
    k: 'call',
    name: name.sourceString.toUpperCase(),
    args: list.asIteration().children.map((c) => ast(c)),
  }),
  Arg_given: (e) => ast(e),
  Arg_missing: () => ({ k: 'missing' }),
  time(_h1, _h2, _c1, _m1, _m2, _c2, _s1, _s2, _ampm) {
    const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(this.sourceString)!;
    const [h, min, sec, ampm] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0), m[4]?.toUpperCase()];
    const bad = min > 59 || sec > 59 || (ampm ? h < 1 || h > 12 : h > 23);
    if (bad) throw new FormulaCompileError('VALUE', FORMULA_ERRORS.VALUE, undefined, this.sourceString);
    const hours = ampm ? (h % 12) + (ampm === 'PM' ? 12 : 0) : h;
    return { k: 'num', v: hours / 24 + min / 1440 + sec / 86_400 };
  },
  number_whole(_a, _b, _c, _d) {
    return { k: 'num', v: Number(this.sourceString) };
  },
  number_fraction(_a, _b, _c) {
    return { k: 'num', v: Number(this.sourceString) };
  },
  string_double: (_o, chars, _c) => ({ k: 'str', v: chars.sourceString.replaceAll('""', '"') }),
  string_single: (_o, chars, _c) => ({ k: 'str', v: chars.sourceString.replaceAll("''", "'") }),
  boolean(_w) {
    return { k: 'bool', v: this.sourceString.toUpperCase() === 'TRUE' };
  },
  ref(_q, _d, _u, _i) {
    const m = /^[Qq](\d+)_(\d+|\*)$/.exec(this.sourceString)!;
    return { k: 'ref', block: Number(m[1]), item: m[2] === '*' ? '*' : Number(m[2]) };
  },
});

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/**
 * A compile error of a name (unknown name or function, wrong argument count, bad time) with where its token first
 * stands in the text, outside quotes, for the builder to point at.
 */
function located(err: FormulaCompileError, text: string): FormulaCompileError {
  if (err.position || !err.token) return err;
  const token = err.token.toUpperCase();
  const upper = text.toUpperCase();
  let quote = '';
  for (let i = 0; i < upper.length; i++) {
    const c = upper[i]!;
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (upper.startsWith(token, i) && !/[A-Z0-9_.]/.test(upper[i - 1] ?? '')) {
      return new FormulaCompileError(err.code, err.message, { ...position(text, i), expected: [] }, err.token);
    }
  }
  return err;
}

/**
 * How big a formula may be (the spec names no bound; these are ours, far beyond any form's calculation; Excel allows
 * 8,192 characters and 64 nested functions). The parser and the compiler recurse once per nesting level and once per
 * operation of a chain (1+1+...+1 is a tree as deep as it is long), so a formula beyond these would exhaust the stack
 * or take seconds of CPU: it is refused before it is parsed, in one pass that does not recurse.
 */
export const FORMULA_LIMITS = {
  /** Characters. */
  length: 4000,
  /** Operators (+ - * / ^ & % and comparisons, unary signs included). */
  operators: 256,
  /** Levels of parentheses and function calls, plus a run of operators such as the signs of --1. */
  depth: 32,
} as const;

export const FORMULA_LIMIT_MESSAGES = {
  length: `${FORMULA_ERRORS.ERROR} A formula holds at most ${FORMULA_LIMITS.length} characters.`,
  operators: `${FORMULA_ERRORS.ERROR} A formula holds at most ${FORMULA_LIMITS.operators} operators.`,
  depth: `${FORMULA_ERRORS.ERROR} A formula nests at most ${FORMULA_LIMITS.depth} levels of parentheses, functions and signs.`,
} as const;

const OPERATOR = new Set(['+', '-', '*', '/', '^', '&', '%', '=', '<', '>']);

/** Refuses (FormulaCompileError, code ERROR) a formula too long, with too many operators or nested too deep. */
export function checkFormulaBounds(text: string): void {
  const at = (offset: number) => ({ ...position(text, offset), expected: [] });
  if (text.length > FORMULA_LIMITS.length)
    throw new FormulaCompileError('ERROR', FORMULA_LIMIT_MESSAGES.length, at(FORMULA_LIMITS.length));
  let operators = 0;
  let parens = 0;
  let run = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      // Inside a string; a doubled quote is a quote character, not the end.
      if (c === quote) {
        if (text[i + 1] === quote) i++;
        else quote = '';
      }
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      run = 0;
    } else if (c === '(') {
      parens++;
      run = 0;
    } else if (c === ')') {
      parens = Math.max(0, parens - 1);
      run = 0;
    } else if (OPERATOR.has(c)) {
      if (++operators > FORMULA_LIMITS.operators)
        throw new FormulaCompileError('ERROR', FORMULA_LIMIT_MESSAGES.operators, at(i));
      run++;
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') {
      run = 0;
    }
    if (parens + run > FORMULA_LIMITS.depth)
      throw new FormulaCompileError('ERROR', FORMULA_LIMIT_MESSAGES.depth, at(i));
  }
}

/**
 * The syntax tree of a formula (bounded first: checkFormulaBounds); throws FormulaCompileError. The common forms take
 * the fast path (fast-parse.ts, the same tree); anything else, errors included, is parsed by ohm-js.
 */
export function parseFormula(text: string): AstNode {
  checkFormulaBounds(text);
  return fastParse(text) ?? parseWithOhm(text);
}

/** The syntax tree of a formula by the ohm-js grammar (no bounds check: parseFormula does it). */
export function parseWithOhm(text: string): AstNode {
  const match = grammar.match(text);
  if (match.failed()) {
    const at = position(text, match.getRightmostFailurePosition());
    const expectedText = match.getExpectedText();
    throw new FormulaCompileError(
      'ERROR',
      `${FORMULA_ERRORS.ERROR} Line ${at.line}, col ${at.column}: expected ${expectedText}.`,
      {
        ...at,
        expected: expectedText.replace(/^one of /, '').split(/, (?:or )?| or /),
      },
    );
  }
  return (semantics(match) as unknown as { ast(): AstNode }).ast();
}

const scalarOf = (v: Value): Scalar => (Array.isArray(v) ? new FormulaError('VALUE') : v);

function arith(op: string, a: Value, b: Value): Value {
  const x = toNumber(scalarOf(a));
  if (x instanceof FormulaError) return x;
  const y = toNumber(scalarOf(b));
  if (y instanceof FormulaError) return y;
  switch (op) {
    case '+':
      return finite(x + y);
    case '-':
      return finite(x - y);
    case '*':
      return finite(x * y);
    case '/':
      return y === 0 ? new FormulaError('DIV_ZERO', 'division') : finite(x / y);
    default:
      return power(x, y);
  }
}

type Closure = (ctx: EvalContext) => Value;

function compileNode(n: AstNode, refs: FormulaRef[], functions: Set<string>): Closure {
  switch (n.k) {
    case 'missing':
      return () => null;
    case 'num': {
      // A literal beyond the largest number (1e400) is #NUM!, as in Excel; never Infinity.
      const v = finite(n.v);
      return () => v;
    }
    case 'str':
    case 'bool': {
      const v = n.v;
      return () => v;
    }
    case 'ref': {
      refs.push({ block: n.block, item: n.item });
      const { block, item } = n;
      return (ctx) => sane(ctx.ref(block, item));
    }
    case 'name':
      throw new FormulaCompileError('NAME', FORMULA_ERRORS.NAME, undefined, n.name);
    case 'call': {
      const def = FUNCTIONS[n.name];
      if (!def) throw new FormulaCompileError('NAME', FORMULA_ERRORS.NAME, undefined, n.name);
      if (n.args.length < def.min) throw new FormulaCompileError('ARGLENL', FORMULA_ERRORS.ARGLENL, undefined, n.name);
      if (n.args.length > def.max) throw new FormulaCompileError('ARGLENM', FORMULA_ERRORS.ARGLENM, undefined, n.name);
      functions.add(n.name);
      const args = n.args.map((a) => ({
        fn: compileNode(a, refs, functions),
        ref: a.k === 'ref',
        missing: a.k === 'missing',
        ...(a.k === 'ref' ? { refTo: { block: a.block, item: a.item } } : {}),
      }));
      const fn = def.fn;
      const name = n.name;
      const aggregate = isAggregate(name);
      // The argument objects are made once; the context of the evaluation under way is kept beside them (and put
      // back afterwards, should the same formula be evaluated from within a reference).
      let current: EvalContext | undefined;
      const argObjects = args.map((a): Arg => {
        const f = a.fn;
        return {
          get: () => f(current!),
          ref: a.ref,
          missing: a.missing,
          ...(a.refTo ? { refTo: a.refTo } : {}),
        };
      });
      // A function's result passes the guard: NaN, an infinity or a non-value becomes an error value.
      return (ctx) => {
        const before = current;
        current = ctx;
        try {
          // An aggregate over whole questions may be answered by the caller (advanced results: ClickHouse's sums).
          if (aggregate && ctx.aggregate) {
            const v = ctx.aggregate(name, argObjects);
            if (v !== undefined) return sane(v);
          }
          return sane(fn(argObjects, ctx));
        } finally {
          current = before;
        }
      };
    }
    case 'neg':
    case 'pos': {
      const x = compileNode(n.x, refs, functions);
      const sign = n.k === 'neg' ? -1 : 1;
      // A unary sign on something that is not a number gives 0 (spec 001 §5); real errors still spread.
      return (ctx) => {
        const v = toNumber(scalarOf(x(ctx)));
        if (v instanceof FormulaError) return v.code === 'VALUE' ? 0 : v;
        return sign * v;
      };
    }
    case 'pct': {
      const x = compileNode(n.x, refs, functions);
      return (ctx) => {
        const v = toNumber(scalarOf(x(ctx)));
        return v instanceof FormulaError ? v : v / 100;
      };
    }
    case 'bin': {
      const a = compileNode(n.a, refs, functions);
      const b = compileNode(n.b, refs, functions);
      const op = n.op;
      if (op === '&') {
        return (ctx) => {
          const x = toText(scalarOf(a(ctx)));
          if (x instanceof FormulaError) return x;
          const y = toText(scalarOf(b(ctx)));
          return y instanceof FormulaError ? y : x + y;
        };
      }
      // Numbers on both sides (the common case) are computed at once; anything else goes through Excel's coercions.
      switch (op) {
        case '+':
          return (ctx) => {
            const x = a(ctx);
            const y = b(ctx);
            return typeof x === 'number' && typeof y === 'number' ? finite(x + y) : arith(op, x, y);
          };
        case '-':
          return (ctx) => {
            const x = a(ctx);
            const y = b(ctx);
            return typeof x === 'number' && typeof y === 'number' ? finite(x - y) : arith(op, x, y);
          };
        case '*':
          return (ctx) => {
            const x = a(ctx);
            const y = b(ctx);
            return typeof x === 'number' && typeof y === 'number' ? finite(x * y) : arith(op, x, y);
          };
        case '/':
        case '^':
          return (ctx) => arith(op, a(ctx), b(ctx));
      }
      return (ctx) => {
        const x = scalarOf(a(ctx));
        if (x instanceof FormulaError) return x;
        const y = scalarOf(b(ctx));
        if (y instanceof FormulaError) return y;
        const c = compare(x, y);
        switch (op) {
          case '=':
            return c === 0;
          case '<>':
            return c !== 0;
          case '<':
            return c < 0;
          case '<=':
            return c <= 0;
          case '>':
            return c > 0;
          default:
            return c >= 0;
        }
      };
    }
  }
}

/**
 * The final guard: what a formula answers is a number, a text, a logical, empty, an error value or a list of these
 * (a reference alone; the caller picks from it). NaN, an infinity, undefined or an object becomes an error value, so
 * that nothing such as "NaN", "Infinity", "undefined" or "[object Object]" ever reaches a user.
 */
function guarded(closure: Closure): (ctx: EvalContext) => Value {
  return (ctx) => {
    const v = closure(ctx);
    if (typeof v === 'number') return Number.isFinite(v) ? v : new FormulaError('NUM');
    if (typeof v === 'string' || typeof v === 'boolean' || v === null || v instanceof FormulaError) return v;
    return sane(v);
  };
}

const CACHE_SIZE = 2000;
const cache = new Map<string, CompiledFormula | FormulaCompileError>();

/** Compiles (once: the result is cached by text) a formula; throws FormulaCompileError when it cannot compile. */
export function compileFormula(text: string): CompiledFormula {
  const hit = cache.get(text);
  if (hit instanceof FormulaCompileError) throw hit;
  if (hit) return hit;
  let result: CompiledFormula | FormulaCompileError;
  try {
    const refs: FormulaRef[] = [];
    const functions = new Set<string>();
    const closure = compileNode(parseFormula(text), refs, functions);
    result = { text, refs, functions: [...functions], evaluate: guarded(closure) };
  } catch (err) {
    if (!(err instanceof FormulaCompileError)) throw err;
    result = located(err, text);
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, result);
  if (result instanceof FormulaCompileError) throw result;
  return result;
}

/** Compiles without the cache (for measuring parse + compile). */
export function compileUncached(text: string): CompiledFormula {
  const refs: FormulaRef[] = [];
  const functions = new Set<string>();
  try {
    const evaluate = guarded(compileNode(parseFormula(text), refs, functions));
    return { text, refs, functions: [...functions], evaluate };
  } catch (err) {
    throw err instanceof FormulaCompileError ? located(err, text) : err;
  }
}
