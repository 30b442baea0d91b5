// The functions of the formula language, with the number of arguments each takes (a call with fewer or more does
// not compile: ARGLENL, ARGLENM). Semantics follow Excel's. The table is documented in docs/formula-language.md.
import { FormulaError } from './errors.js';
import { compare, finite, fromSerial, toBool, toNumber, toSerial, toText, type Scalar, type Value } from './values.js';

/** One argument: evaluated on demand; `ref` marks question references (Excel treats them like cell references). */
export interface Arg {
  get: () => Value;
  ref: boolean;
}

export interface EvalContext {
  /** The answer of a question (or the answers of a whole block, for Q{b}_*). */
  ref(block: number, item: number | '*'): Value;
  /** Now, for TODAY() and NOW(). */
  now(): Date;
}

export interface FunctionDef {
  min: number;
  max: number;
  fn: (args: Arg[], ctx: EvalContext) => Value;
}

const err = (
  code: ConstructorParameters<typeof FormulaError>[0],
  cause?: ConstructorParameters<typeof FormulaError>[1],
) => new FormulaError(code, cause);
const isErr = (v: unknown): v is FormulaError => v instanceof FormulaError;

/** One scalar from an argument (a list gives VALUE). */
function scalar(a: Arg): Scalar {
  const v = a.get();
  return Array.isArray(v) ? err('VALUE') : v;
}

function num(a: Arg): number | FormulaError {
  return toNumber(scalar(a));
}

function txt(a: Arg): string | FormulaError {
  return toText(scalar(a));
}

/**
 * The numbers of aggregate arguments: lists and references give their numbers (text, logicals and empties are
 * skipped); values typed in directly count logicals and numeric text, and other text is VALUE.
 */
function numbers(args: Arg[], countMode = false): number[] | FormulaError {
  const out: number[] = [];
  for (const a of args) {
    const v = a.get();
    const list = Array.isArray(v) ? v : a.ref ? [v] : undefined;
    if (list) {
      for (const x of list) {
        if (isErr(x)) {
          if (countMode) continue;
          return x;
        }
        if (typeof x === 'number') out.push(x);
      }
      continue;
    }
    if (isErr(v)) {
      if (countMode) continue;
      return v;
    }
    if (v === null) continue;
    const n = toNumber(v as Scalar);
    if (isErr(n)) {
      if (countMode) continue;
      return n;
    }
    out.push(n);
  }
  return out;
}

/** Rounds |x|·10^digits after removing binary noise (as Excel shows it), then applies `how`. */
function roundWith(x: number, digits: number, how: (y: number) => number): number {
  const d = Math.trunc(digits);
  const f = 10 ** d;
  const y = Number((Math.abs(x) * f).toPrecision(15));
  return (Math.sign(x) * how(y)) / f;
}

function logicals(args: Arg[]): boolean[] | FormulaError {
  const out: boolean[] = [];
  for (const a of args) {
    const v = a.get();
    if (Array.isArray(v) || a.ref) {
      for (const x of Array.isArray(v) ? v : [v]) {
        if (isErr(x)) return x;
        if (typeof x === 'boolean') out.push(x);
        else if (typeof x === 'number') out.push(x !== 0);
      }
      continue;
    }
    const b = toBool(v);
    if (isErr(b)) return b;
    out.push(b);
  }
  return out.length === 0 ? err('VALUE') : out;
}

/** A date serial from a number or a date text (YYYY-MM-DD or an ISO time). */
function serial(a: Arg): number | FormulaError {
  const v = scalar(a);
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v.trim())) {
    const d = new Date(v.trim().length === 10 ? `${v.trim()}T00:00:00Z` : v.trim());
    return Number.isNaN(d.getTime()) ? err('VALUE') : toSerial(d);
  }
  const n = toNumber(v);
  if (isErr(n)) return n;
  return n < 0 ? err('NUM') : n;
}

const monthsBetween = (a: Date, b: Date) => {
  let m = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  if (b.getUTCDate() < a.getUTCDate()) m--;
  return m;
};

const unary = (f: (x: number) => number | FormulaError): FunctionDef => ({
  min: 1,
  max: 1,
  fn: ([a]) => {
    const x = num(a!);
    return isErr(x) ? x : f(x);
  },
});

const text1 = (f: (s: string) => Value): FunctionDef => ({
  min: 1,
  max: 1,
  fn: ([a]) => {
    const s = txt(a!);
    return isErr(s) ? s : f(s);
  },
});

export const FUNCTIONS: Record<string, FunctionDef> = {
  SUM: {
    min: 1,
    max: 255,
    fn: (args) => {
      const n = numbers(args);
      return isErr(n) ? n : finite(n.reduce((s, x) => s + x, 0));
    },
  },
  AVERAGE: {
    min: 1,
    max: 255,
    fn: (args) => {
      const n = numbers(args);
      if (isErr(n)) return n;
      return n.length === 0 ? err('DIV_ZERO', 'division') : n.reduce((s, x) => s + x, 0) / n.length;
    },
  },
  MIN: {
    min: 1,
    max: 255,
    fn: (args) => {
      const n = numbers(args);
      return isErr(n) ? n : n.length === 0 ? 0 : Math.min(...n);
    },
  },
  MAX: {
    min: 1,
    max: 255,
    fn: (args) => {
      const n = numbers(args);
      return isErr(n) ? n : n.length === 0 ? 0 : Math.max(...n);
    },
  },
  COUNT: { min: 1, max: 255, fn: (args) => (numbers(args, true) as number[]).length },
  IF: {
    min: 2,
    max: 3,
    fn: ([cond, then, otherwise]) => {
      const c = toBool(scalar(cond!));
      if (isErr(c)) return c;
      if (c) return then!.get();
      return otherwise ? otherwise.get() : false;
    },
  },
  AND: {
    min: 1,
    max: 255,
    fn: (args) => {
      const b = logicals(args);
      return isErr(b) ? b : b.every(Boolean);
    },
  },
  OR: {
    min: 1,
    max: 255,
    fn: (args) => {
      const b = logicals(args);
      return isErr(b) ? b : b.some(Boolean);
    },
  },
  NOT: {
    min: 1,
    max: 1,
    fn: ([a]) => {
      const b = toBool(scalar(a!));
      return isErr(b) ? b : !b;
    },
  },
  ROUND: {
    min: 2,
    max: 2,
    fn: ([a, d]) => {
      const x = num(a!);
      const n = num(d!);
      return isErr(x) ? x : isErr(n) ? n : roundWith(x, n, Math.round);
    },
  },
  ROUNDUP: {
    min: 2,
    max: 2,
    fn: ([a, d]) => {
      const x = num(a!);
      const n = num(d!);
      return isErr(x) ? x : isErr(n) ? n : roundWith(x, n, Math.ceil);
    },
  },
  ROUNDDOWN: {
    min: 2,
    max: 2,
    fn: ([a, d]) => {
      const x = num(a!);
      const n = num(d!);
      return isErr(x) ? x : isErr(n) ? n : roundWith(x, n, Math.floor);
    },
  },
  INT: unary((x) => Math.floor(x)),
  MOD: {
    min: 2,
    max: 2,
    fn: ([a, b]) => {
      const x = num(a!);
      const d = num(b!);
      if (isErr(x)) return x;
      if (isErr(d)) return d;
      if (d === 0) return err('DIV_ZERO', 'division');
      return Number((x - d * Math.floor(x / d)).toPrecision(15));
    },
  },
  ABS: unary(Math.abs),
  SQRT: unary((x) => (x < 0 ? err('NUM', 'sqrt') : Math.sqrt(x))),
  POWER: { min: 2, max: 2, fn: ([a, b]) => power(num(a!), num(b!)) },
  EXP: unary((x) => finite(Math.exp(x))),
  LN: unary((x) => (x <= 0 ? err('NUM', 'log') : Math.log(x))),
  LOG10: unary((x) => (x <= 0 ? err('NUM', 'log') : Math.log10(x))),
  LOG: {
    min: 1,
    max: 2,
    fn: ([a, b]) => {
      const x = num(a!);
      const base = b ? num(b) : 10;
      if (isErr(x)) return x;
      if (isErr(base)) return base;
      if (x <= 0 || base <= 0) return err('NUM', 'log');
      if (base === 1) return err('DIV_ZERO', 'log');
      return Math.log(x) / Math.log(base);
    },
  },
  CONCATENATE: {
    min: 1,
    max: 255,
    fn: (args) => {
      let out = '';
      for (const a of args) {
        const s = txt(a);
        if (isErr(s)) return s;
        out += s;
      }
      return out;
    },
  },
  LEN: text1((s) => [...s].length),
  LEFT: { min: 1, max: 2, fn: ([a, n]) => slice(a!, n, (s, k) => s.slice(0, k)) },
  RIGHT: { min: 1, max: 2, fn: ([a, n]) => slice(a!, n, (s, k) => (k === 0 ? '' : s.slice(-k))) },
  MID: {
    min: 3,
    max: 3,
    fn: ([a, start, n]) => {
      const s = txt(a!);
      const p = num(start!);
      const k = num(n!);
      if (isErr(s)) return s;
      if (isErr(p)) return p;
      if (isErr(k)) return k;
      if (p < 1 || k < 0) return err('VALUE');
      return [...s].slice(Math.trunc(p) - 1, Math.trunc(p) - 1 + Math.trunc(k)).join('');
    },
  },
  UPPER: text1((s) => s.toUpperCase()),
  LOWER: text1((s) => s.toLowerCase()),
  TRIM: text1((s) => s.trim().replace(/ {2,}/g, ' ')),
  TODAY: { min: 0, max: 0, fn: (_a, ctx) => Math.floor(toSerial(ctx.now())) },
  NOW: { min: 0, max: 0, fn: (_a, ctx) => toSerial(ctx.now()) },
  YEAR: { min: 1, max: 1, fn: ([a]) => datePart(a!, (d) => d.getUTCFullYear()) },
  MONTH: { min: 1, max: 1, fn: ([a]) => datePart(a!, (d) => d.getUTCMonth() + 1) },
  DAY: { min: 1, max: 1, fn: ([a]) => datePart(a!, (d) => d.getUTCDate()) },
  DATEDIF: {
    min: 3,
    max: 3,
    fn: ([a, b, u]) => {
      const s = serial(a!);
      const e = serial(b!);
      const unit = txt(u!);
      if (isErr(s)) return s;
      if (isErr(e)) return e;
      if (isErr(unit)) return unit;
      if (s > e) return err('NUM');
      const start = fromSerial(Math.floor(s));
      const end = fromSerial(Math.floor(e));
      switch (unit.toUpperCase()) {
        case 'D':
          return Math.floor(e) - Math.floor(s);
        case 'M':
          return monthsBetween(start, end);
        case 'Y':
          return Math.floor(monthsBetween(start, end) / 12);
        case 'YM':
          return monthsBetween(start, end) % 12;
        case 'MD': {
          const back = new Date(
            Date.UTC(
              end.getUTCFullYear(),
              end.getUTCMonth() - (end.getUTCDate() < start.getUTCDate() ? 1 : 0),
              start.getUTCDate(),
            ),
          );
          return Math.round((end.getTime() - back.getTime()) / 86_400_000);
        }
        case 'YD': {
          let anniversary = new Date(Date.UTC(end.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
          if (anniversary > end)
            anniversary = new Date(Date.UTC(end.getUTCFullYear() - 1, start.getUTCMonth(), start.getUTCDate()));
          return Math.round((end.getTime() - anniversary.getTime()) / 86_400_000);
        }
        default:
          return err('NUM');
      }
    },
  },
};

function datePart(a: Arg, part: (d: Date) => number): Value {
  const s = serial(a);
  return isErr(s) ? s : part(fromSerial(Math.floor(s)));
}

function slice(a: Arg, n: Arg | undefined, take: (s: string, k: number) => string): Value {
  const s = txt(a);
  const k = n ? num(n) : 1;
  if (isErr(s)) return s;
  if (isErr(k)) return k;
  if (k < 0) return err('VALUE');
  return take(s, Math.trunc(k));
}

/** x^y as Excel does it: 0^negative is DIV_ZERO, a negative base with a fractional power is NUM. */
export function power(x: number | FormulaError, y: number | FormulaError): Value {
  if (isErr(x)) return x;
  if (isErr(y)) return y;
  if (x === 0 && y < 0) return err('DIV_ZERO', 'division');
  if (x === 0 && y === 0) return err('NUM');
  if (x < 0 && !Number.isInteger(y)) return err('NUM');
  return finite(x ** y);
}

export { compare };
