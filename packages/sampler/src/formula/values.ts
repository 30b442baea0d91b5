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
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const s = v.trim();
  if (s !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?%?$/.test(s)) {
    const n = Number(s.replace('%', ''));
    return s.endsWith('%') ? n / 100 : n;
  }
  return new FormulaError('VALUE');
}

/** Excel's text of a number: up to 15 significant digits, no trailing zeros. */
export function numberText(n: number): string {
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
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return v;
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

const rank = (v: Exclude<Scalar, FormulaError>) =>
  typeof v === 'number' || v === null ? 0 : typeof v === 'string' ? 1 : 2;

/** Excel's comparison: numbers < text < logicals; text compares case-insensitively; empty is 0 or "". */
export function compare(a: Exclude<Scalar, FormulaError>, b: Exclude<Scalar, FormulaError>): number {
  if (a === null && typeof b === 'string') a = '';
  if (b === null && typeof a === 'string') b = '';
  if (a === null && typeof b === 'boolean') a = false;
  if (b === null && typeof a === 'boolean') b = false;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return (Number(a ?? 0) > Number(b ?? 0) ? 1 : 0) - (Number(a ?? 0) < Number(b ?? 0) ? 1 : 0);
  if (ra === 1) {
    const x = String(a).toLowerCase();
    const y = String(b).toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}
