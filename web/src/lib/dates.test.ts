import { describe, expect, it } from 'vitest';
import { formatDate, formatDisplayTime } from './dates';
import { splitName, titleCase } from './text';
import { decodeAccess } from './jwt';

describe('formatDate', () => {
  it('shows DD/MM/YYYY at midnight and adds HH:mm otherwise', () => {
    expect(formatDate(new Date(2026, 10, 22, 0, 0, 0))).toBe('22/11/2026');
    expect(formatDate(new Date(2026, 10, 22, 9, 5, 0))).toBe('22/11/2026 09:05');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
  it('shows display times as YYYY-MM-DD HH:mm:ss', () => {
    expect(formatDisplayTime(new Date(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 03:04:05');
  });
});

describe('text', () => {
  it('title-cases project names', () => {
    expect(titleCase('household survey of KISUMU')).toBe('Household Survey Of Kisumu');
  });
  it('splits a name into its first and last word', () => {
    expect(splitName('  Ada  Maria   Lovelace ')).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(splitName('Ada')).toEqual({ first_name: 'Ada', last_name: '' });
  });
  it('reads user_id from an access token', () => {
    const payload = btoa(JSON.stringify({ user_id: 7, exp: 1 })).replace(/=+$/, '');
    expect(decodeAccess(`x.${payload}.y`)).toEqual({ user_id: 7, exp: 1 });
    expect(decodeAccess('garbage')).toBeNull();
  });
});
