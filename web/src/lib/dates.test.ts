import { describe, expect, it } from 'vitest';
import { splitName, titleCase } from './text';
import { decodeAccess } from './jwt';

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
