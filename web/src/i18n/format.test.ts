import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from './index';
import { formatDate, formatDateTime, formatDay, formatInteger, formatMonth, formatNumber, intlLocale } from './format';

afterEach(async () => {
  await setLanguage('en');
});

describe('format (one date and number format per language)', () => {
  it('shows DD/MM/YYYY in English, with HH:mm when the time is not midnight', () => {
    expect(formatDate(new Date(2026, 10, 22, 0, 0, 0))).toBe('22/11/2026');
    expect(formatDate(new Date(2026, 10, 22, 9, 5, 0))).toBe('22/11/2026 09:05');
    expect(formatDateTime(new Date(2026, 0, 2, 3, 4, 5))).toBe('02/01/2026 03:04:05');
    expect(formatDay(new Date(2026, 2, 4, 10, 0, 0))).toBe('04/03/2026');
    expect(formatMonth(new Date(2026, 2, 4))).toBe('03/2026');
    expect(formatMonth(new Date(2026, 2, 4), 'year')).toBe('2026');
  });
  it('is empty for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });
  it('groups whole numbers per language (stat tiles)', async () => {
    expect(formatInteger(10000)).toBe('10,000');
    expect(formatInteger(1234567.4)).toBe('1,234,567');
    expect(formatNumber(3.14159)).toBe('3.142');
    expect(formatNumber(null)).toBe('—');
    await setLanguage('fr');
    expect(formatInteger(10000)).toBe('10\u202f000');
    expect(formatNumber(2.5)).toBe('2,5');
    await setLanguage('es');
    expect(formatInteger(10000)).toBe('10.000');
    await setLanguage('pt');
    expect(formatInteger(10000)).toBe('10.000');
    expect(formatNumber(2.5)).toBe('2,5');
  });
  it('formats dates in each language', async () => {
    const d = new Date(2026, 10, 22, 14, 30, 0);
    await setLanguage('fr');
    expect(formatDate(d)).toBe('22/11/2026 14:30');
    await setLanguage('es');
    expect(formatDay(d)).toBe('22/11/2026');
    await setLanguage('pt');
    expect(formatDay(d)).toBe('22/11/2026');
    await setLanguage('ar');
    // Arabic keeps its right-to-left marks between the parts.
    expect(formatDay(d).replace(/\u200f/g, '')).toBe('22/11/2026');
  });
  it('maps interface languages to Intl locales', () => {
    expect(intlLocale('en')).toBe('en-GB');
    expect(intlLocale('pt')).toBe('pt-BR');
    expect(intlLocale('ar')).toBe('ar');
  });
});
