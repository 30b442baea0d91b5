// Dates, date-times and numbers of every screen, formatted once per language with Intl (the formatters are memoized
// per locale and options). English shows dates as DD/MM/YYYY with a 24-hour clock (spec 000 §9's display format).
import i18n from 'i18next';

/** The Intl locale of each interface language. */
const INTL_LOCALES: Record<string, string> = { en: 'en-GB', fr: 'fr-FR', es: 'es-ES', pt: 'pt-BR', ar: 'ar' };

/** The Intl locale of a language code (the current language's by default). */
export function intlLocale(language: string = i18n.language || 'en'): string {
  return INTL_LOCALES[language.slice(0, 2)] ?? language;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function dateFormat(options: Intl.DateTimeFormatOptions, language?: string): Intl.DateTimeFormat {
  const locale = intlLocale(language);
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

/** The memoized number format of the current language with these options. */
export function numberFormat(options: Intl.NumberFormatOptions = {}, language?: string): Intl.NumberFormat {
  const locale = intlLocale(language);
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

const DATE: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(typeof value === 'string' ? value.replace(' ', 'T') : value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The date alone (04/03/2026 in English and French, 04/03/2026 in Spanish...). Empty when missing or invalid. */
export function formatDay(value: DateInput, options: { timeZone?: string } = {}): string {
  const d = toDate(value);
  return d ? dateFormat({ ...DATE, ...options }).format(d) : '';
}

/** The date, with the time (hours and minutes) when it is not midnight. Empty for missing or invalid input. */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return '';
  const midnight = d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;
  return midnight ? dateFormat(DATE).format(d) : `${dateFormat(DATE).format(d)} ${dateFormat(TIME).format(d)}`;
}

/** The date and the time to the second. Empty for missing or invalid input. */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? `${dateFormat(DATE).format(d)} ${dateFormat({ ...TIME, second: '2-digit' }).format(d)}` : '';
}

/** A month and year (03/2026), or the year alone. */
export function formatMonth(value: DateInput, part: 'month' | 'year' = 'month'): string {
  const d = toDate(value);
  if (!d) return '';
  return dateFormat(part === 'year' ? { year: 'numeric' } : { month: '2-digit', year: 'numeric' }).format(d);
}

/** A number with the language's grouping and decimal marks (at most 3 decimals unless told). */
export function formatNumber(value: number | null | undefined, options: Intl.NumberFormatOptions = {}): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return numberFormat({ maximumFractionDigits: 3, ...options }).format(value);
}

/** A whole number with the language's grouping (10,000 in English): counts and stat tiles. */
export function formatInteger(value: number | null | undefined): string {
  return formatNumber(value, { maximumFractionDigits: 0 });
}
