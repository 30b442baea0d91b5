// The functions of the formula language, with the number of arguments each takes (a call with fewer or more does
// not compile: ARGLENL, ARGLENM). Semantics follow Excel's. The table is documented in docs/formula-language.md.
import { FormulaError } from './errors.js';
import { compare, finite, fromSerial, toBool, toNumber, toSerial, toText, type Scalar, type Value } from './values.js';

/** One argument: evaluated on demand; `ref` marks question references (Excel treats them like cell references). */
export interface Arg {
  get: () => Value;
  ref: boolean;
  /** The question a reference argument names. */
  refTo?: { block: number; item: number | '*' };
  /** An empty argument (`SUM(1,,2)`): Excel's missing value, 0 to numbers, "" to text, FALSE to logicals. */
  missing?: boolean;
}

export interface EvalContext {
  /** The answer of a question (or the answers of a whole block, for Q{b}_*). */
  ref(block: number, item: number | '*'): Value;
  /** Now, for TODAY() and NOW(). */
  now(): Date;
  /**
   * An aggregate call (SUM, AVERAGE, MIN, MAX, COUNT) answered without the answers' list, from aggregates computed
   * elsewhere (advanced results, in ClickHouse); undefined: evaluate it as usual.
   */
  aggregate?(name: AggregateName, args: Arg[]): Value | undefined;
}

/** The functions an EvalContext may answer from aggregates. */
export const AGGREGATE_FUNCTIONS = ['SUM', 'AVERAGE', 'MIN', 'MAX', 'COUNT'] as const;
export type AggregateName = (typeof AGGREGATE_FUNCTIONS)[number];
export const isAggregate = (name: string): name is AggregateName =>
  (AGGREGATE_FUNCTIONS as readonly string[]).includes(name);

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
    if (a.missing) {
      out.push(0); // Excel: a missing argument of SUM, AVERAGE, MIN, MAX, COUNT is the number 0
      continue;
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

/**
 * Rounds |x|·10^digits after removing binary noise (as Excel shows it), then applies `how`. Digits past the 15
 * significant digits of x change nothing; a rounding place above the leading digit gives 0 (ROUND, ROUNDDOWN) or one
 * unit of that place (ROUNDUP), #NUM! when that is beyond the largest number: never NaN, whatever the digit count.
 */
function roundWith(x: number, digits: number, how: (y: number) => number): Value {
  if (x === 0) return 0;
  const d = Math.trunc(digits);
  const lead = Math.floor(Math.log10(Math.abs(x))); // the place of the leading digit
  if (d + lead >= 15) return x;
  if (d + lead < -1) {
    if (how !== Math.ceil) return 0;
    return finite(Math.sign(x) * 10 ** -d);
  }
  // |d| may pass 308 for numbers near the ends of the range: scale in two steps so that 10^d stays finite.
  const d1 = Math.max(-300, Math.min(300, d));
  const d2 = d - d1;
  const raw = Math.abs(x) * 10 ** d1 * 10 ** d2;
  // Binary noise matters only near a rounding boundary (x.5 for ROUND, a whole number for the others); elsewhere the
  // 15-digit form rounds the same way, and toPrecision (slow) is skipped.
  const frac = raw - Math.floor(raw);
  const far = raw < 1e9 && (how === Math.round ? Math.abs(frac - 0.5) > 1e-6 : frac > 1e-6 && frac < 1 - 1e-6);
  const y = far ? raw : Number(raw.toPrecision(15));
  return finite((Math.sign(x) * how(y)) / 10 ** d2 / 10 ** d1);
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

/** Excel's last date, 9999-12-31. */
const MAX_SERIAL = 2_958_465;

/**
 * Excel's serial of a day: y-m-d counted linearly from 1900-01-01 = 1, with Excel's 1900-02-29 (serial 60), so that
 * dates from 1900-03-01 are days since 1899-12-30. Month and day may be out of range: they roll over as in DATE.
 */
export function excelSerial(y: number, m: number, d: number): number {
  const first = toSerial(new Date(Date.UTC(y, m - 1, 1)));
  return (first < 61 ? first - 1 : first) + d - 1;
}

/** Year, month and day of an Excel serial (serial 0 is Excel's 1900-01-00, 60 its 1900-02-29). */
function excelParts(s: number): { y: number; m: number; d: number } {
  if (s === 0) return { y: 1900, m: 1, d: 0 };
  if (s === 60) return { y: 1900, m: 2, d: 29 };
  const date = fromSerial(s < 60 ? s + 1 : s);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})([T ].*)?$/;

/** A date serial from a number or a date text (YYYY-MM-DD or an ISO time); an impossible date is #VALUE!. */
function serial(a: Arg): number | FormulaError {
  const v = scalar(a);
  const m = typeof v === 'string' ? DATE_TEXT.exec(v.trim()) : null;
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    // Excel's DATEVALUE: no date before 1900, no 30 February (its 1900-02-29 aside).
    const days = mo === 2 && y === 1900 ? 29 : new Date(Date.UTC(y, mo, 0)).getUTCDate();
    if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > days) return err('VALUE');
    const day = excelSerial(y, mo, d);
    if (!m[4]) return day;
    const t = new Date(v as string);
    if (Number.isNaN(t.getTime())) return err('VALUE');
    return day + (toSerial(t) - Math.floor(toSerial(t)));
  }
  const n = toNumber(v);
  if (isErr(n)) return n;
  return n < 0 || n >= MAX_SERIAL + 1 ? err('NUM') : n;
}

/** What a function passes on as its result: a missing argument is 0 there (Excel: IF(TRUE,,1) is 0). */
const given = (a: Arg): Value => (a.missing ? 0 : a.get());

/** The one value of an argument for the IS functions and IFERROR (a list is #VALUE!, as in Excel). */
const one = (a: Arg): Scalar => (a.missing ? 0 : scalar(a));

const is = (test: (v: Scalar) => boolean): FunctionDef => ({ min: 1, max: 1, fn: ([a]) => test(one(a!)) });

/** A non-negative whole number of at most 32767 (Excel's TIME arguments), or the error. */
const timePart = (a: Arg): number | FormulaError => {
  const n = num(a);
  return isErr(n) ? n : n > 32767 ? err('NUM') : Math.trunc(n);
};

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

/**
 * Upper case letter by letter, as LibreOffice does: ß becomes ẞ, and a letter whose capital is several letters
 * (ŉ, ǰ, ligatures) stays as it is, so the text keeps its length (JavaScript's toUpperCase makes ß "SS").
 */
function upper(s: string): string {
  const u = s.toUpperCase();
  if (u.length === s.length) return u;
  let out = '';
  for (const c of s) {
    const cu = c === 'ß' ? 'ẞ' : c.toUpperCase();
    out += cu.length === c.length ? cu : c;
  }
  return out;
}

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
      if (c) return given(then!);
      return otherwise ? given(otherwise) : false;
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
  UPPER: text1(upper),
  LOWER: text1((s) => s.toLowerCase()),
  // Excel's TRIM removes the space character (U+0020) only: tabs and non-breaking spaces stay.
  TRIM: text1((s) => s.replace(/^ +| +$/g, '').replace(/ {2,}/g, ' ')),
  IFERROR: {
    min: 2,
    max: 2,
    fn: ([a, b]) => {
      const v = one(a!);
      return isErr(v) ? given(b!) : v;
    },
  },
  IFNA: {
    min: 2,
    max: 2,
    fn: ([a, b]) => {
      const v = one(a!);
      return isErr(v) && v.code === 'NA' ? given(b!) : v;
    },
  },
  // An unanswered question is blank; "" (text) is not.
  ISBLANK: is((v) => v === null),
  ISNUMBER: is((v) => typeof v === 'number'),
  ISTEXT: is((v) => typeof v === 'string'),
  ISERROR: is((v) => isErr(v)),
  COUNTA: {
    min: 1,
    max: 255,
    fn: (args) => {
      // Everything but an unanswered question counts, errors and "" included; a missing argument counts too.
      let n = 0;
      for (const a of args) {
        if (a.missing) {
          n++;
          continue;
        }
        const v = a.get();
        for (const x of Array.isArray(v) ? v : [v]) if (x !== null) n++;
      }
      return n;
    },
  },
  COUNTBLANK: {
    min: 1,
    max: 1,
    fn: ([a]) => {
      // Excel takes a range only: a question or Q{b}_*. Unanswered questions and "" count.
      if (!a!.ref && !Array.isArray(a!.get())) return err('VALUE');
      const v = a!.get();
      if (isErr(v)) return v; // a reference to no question: #REF!
      return (Array.isArray(v) ? v : [v]).filter((x) => x === null || x === '').length;
    },
  },
  DATE: {
    min: 3,
    max: 3,
    fn: ([y, m, d]) => {
      const year = num(y!);
      const month = num(m!);
      const day = num(d!);
      if (isErr(year)) return year;
      if (isErr(month)) return month;
      if (isErr(day)) return day;
      // Excel: years 0–1899 add 1900; below 0 or from 10000, #NUM!; months and days roll over.
      let yy = Math.trunc(year);
      if (yy >= 0 && yy < 1900) yy += 1900;
      if (yy < 1900 || yy > 9999) return err('NUM');
      const s = excelSerial(yy, Math.trunc(month), Math.trunc(day));
      return s < 0 || s > MAX_SERIAL ? err('NUM') : s;
    },
  },
  TIME: {
    min: 3,
    max: 3,
    fn: ([h, m, s]) => {
      const hh = timePart(h!);
      const mm = timePart(m!);
      const ss = timePart(s!);
      if (isErr(hh)) return hh;
      if (isErr(mm)) return mm;
      if (isErr(ss)) return ss;
      // Excel: a fraction of a day; past 24 hours it wraps (TIME(27,0,0) is TIME(3,0,0)); below 0, #NUM!.
      const total = hh * 3600 + mm * 60 + ss;
      return total < 0 ? err('NUM') : (total % 86_400) / 86_400;
    },
  },
  TODAY: { min: 0, max: 0, fn: (_a, ctx) => Math.floor(toSerial(ctx.now())) },
  NOW: { min: 0, max: 0, fn: (_a, ctx) => toSerial(ctx.now()) },
  YEAR: { min: 1, max: 1, fn: ([a]) => datePart(a!, 'y') },
  MONTH: { min: 1, max: 1, fn: ([a]) => datePart(a!, 'm') },
  DAY: { min: 1, max: 1, fn: ([a]) => datePart(a!, 'd') },
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

function datePart(a: Arg, part: 'y' | 'm' | 'd'): Value {
  const s = serial(a);
  return isErr(s) ? s : excelParts(Math.floor(s))[part];
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
