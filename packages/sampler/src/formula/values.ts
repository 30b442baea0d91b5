// Values of formulas and Excel's coercions between them.
import { FormulaError } from './errors.js';

/** A formula value: number, text, logical, empty (an unanswered question), an error, or a list (Q1_*). */
export type Scalar = number | string | boolean | null | FormulaError;
export type Value = Scalar | Scalar[];

/** Excel's date serial: days since 1899-12-30 (right for dates from 1900-03-01). */
const EPOCH = Date.UTC(1899, 11, 30);
export const toSerial = (d: Date): number => (d.getTime() - EPOCH) / 86_400_000;
export const fromSerial = (serial: number): Date => new Date(EPOCH + Math.round(serial * 86_400_000));

/** A number, or VALUE for text that is not one (empty counts as 0, TRUE as 1). */
export function toNumber(v: Scalar): number | FormulaError {
  if (v instanceof FormulaError) return v;
  if (v === null) return 0;
  if (typeof v === 'number') return Number.isFinite(v) ? v : new FormulaError('NUM');
  if (typeof v === 'boolean') return v ? 1 : 0;
  const s = v.trim();
  if (s !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?%?$/.test(s)) {
    const n = Number(s.replace('%', ''));
    // Text beyond the largest number ("1e400") is not a number to Excel: #VALUE!.
    return Number.isFinite(n) ? (s.endsWith('%') ? n / 100 : n) : new FormulaError('VALUE');
  }
  return new FormulaError('VALUE');
}

/** Excel's text of a number: up to 15 significant digits, no trailing zeros. */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`no text for ${n}`); // callers check first (toText gives NUM)
  if (Object.is(n, -0) || n === 0) return '0';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const p = Number(n.toPrecision(15));
  if (Math.abs(p) >= 1e-9 && Math.abs(p) < 1e15) {
    return String(p).includes('e') ? p.toFixed(20).replace(/\.?0+$/, '') : String(p);
  }
  const [m, e] = p.toExponential(14).split('e');
  return `${m!.replace(/\.?0+$/, '')}E${Number(e) < 0 ? '-' : '+'}${String(Math.abs(Number(e))).padStart(2, '0')}`;
}

export function toText(v: Scalar): string | FormulaError {
  if (v instanceof FormulaError) return v;
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? numberText(v) : new FormulaError('NUM');
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return typeof v === 'string' ? v : new FormulaError('VALUE');
}

export function toBool(v: Scalar): boolean | FormulaError {
  if (v instanceof FormulaError) return v;
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  const s = v.trim().toUpperCase();
  if (s === 'TRUE') return true;
  if (s === 'FALSE') return false;
  return new FormulaError('VALUE');
}

/** A finite number, or NUM (Excel has no infinities or NaN). */
export function finite(n: number): number | FormulaError {
  return Number.isFinite(n) ? n : new FormulaError('NUM');
}

/**
 * A value as a formula may hold it: what a question reference or a function gives that is not one (undefined, an
 * object, NaN, an infinity) becomes an error value, so that no JavaScript text ("undefined", "[object Object]", "NaN",
 * "Infinity") can ever reach a user.
 */
export function sane(v: unknown): Value {
  if (typeof v === 'number') return Number.isFinite(v) ? (v === 0 ? 0 : v) : new FormulaError('NUM');
  if (typeof v === 'string' || typeof v === 'boolean' || v === null || v instanceof FormulaError) return v;
  if (v === undefined) return null;
  if (Array.isArray(v))
    return v.map((x) => {
      const s = sane(x);
      return Array.isArray(s) ? new FormulaError('VALUE') : s;
    });
  return new FormulaError('VALUE');
}

/** A number at Excel's 15 significant digits (what Excel compares: 0.1+0.2 equals 0.3). */
const at15 = (n: number): number => Number(n.toPrecision(15));

/** Compares two numbers as Excel does, at 15 significant digits. */
export function compareNumbers(a: number, b: number): number {
  if (a === b) return 0;
  // Far apart (relative difference above 1e-13): the 15-digit forms differ the same way; no rounding needed.
  if (Math.abs(a - b) > 1e-13 * Math.max(Math.abs(a), Math.abs(b))) return a < b ? -1 : 1;
  const x = at15(a);
  const y = at15(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Excel's (and LibreOffice's) text order: case-insensitive, accented letters beside their base letter and after it
 * ("e" < "é" < "f"), accents significant for equality ("e" = "E" but "e" <> "é"): the collator's 'accent' strength.
 * The locale is fixed so that browser and server agree.
 */
const collator = new Intl.Collator('en', { sensitivity: 'accent', numeric: false, ignorePunctuation: false });

export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const c = collator.compare(a, b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

const rank = (v: Exclude<Scalar, FormulaError>) =>
  typeof v === 'number' || v === null ? 0 : typeof v === 'string' ? 1 : 2;

/** Excel's comparison: numbers < text < logicals; numbers at 15 digits; text in Excel's order; empty is 0 or "". */
export function compare(a: Exclude<Scalar, FormulaError>, b: Exclude<Scalar, FormulaError>): number {
  if (a === null && typeof b === 'string') a = '';
  if (b === null && typeof a === 'string') b = '';
  if (a === null && typeof b === 'boolean') a = false;
  if (b === null && typeof a === 'boolean') b = false;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return compareNumbers(Number(a ?? 0), Number(b ?? 0));
  if (ra === 1) return compareText(String(a), String(b));
  return Number(a) - Number(b);
}
