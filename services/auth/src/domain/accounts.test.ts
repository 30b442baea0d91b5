import { describe, expect, it } from 'vitest';
import {
  checkAgreedVersion,
  displayName,
  isValidEmail,
  legalAcceptance,
  MESSAGES,
  normalizeLogin,
  passwordProblems,
  splitName,
  usernameFromEmail,
} from './accounts.js';

describe('normalizeLogin', () => {
  it('lower-cases and trims the username and trims the password', () => {
    expect(normalizeLogin('  Demo@Example.COM ', '  secret pass  ')).toEqual({
      username: 'demo@example.com',
      password: 'secret pass',
    });
  });
});

describe('isValidEmail', () => {
  it('accepts standard addresses after trimming and refuses the rest', () => {
    expect(isValidEmail(' ana.lopez+x@example.co.uk ')).toBe(true);
    for (const bad of ['', 'ana', 'ana@', '@example.com', 'ana@example', 'ana lopez@example.com', 'ana@@example.com']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
  it('makes usernames from lower-cased emails', () => {
    expect(usernameFromEmail(' Ana@Example.com')).toBe('ana@example.com');
  });
});

describe('passwordProblems', () => {
  it('refuses short, numeric and username-like passwords', () => {
    expect(passwordProblems('sh0rt!x')).toEqual([MESSAGES.passwordShort]);
    expect(passwordProblems('8302916475')).toEqual([MESSAGES.passwordNumeric]);
    expect(passwordProblems('anamaria2024', { username: 'anamaria2024' })).toEqual([MESSAGES.passwordSimilar]);
    expect(passwordProblems('ana.lopez', { email: 'ana.lopez@example.com' })).toEqual([MESSAGES.passwordSimilar]);
    expect(passwordProblems('fieldwork-demo', { username: 'demo', email: 'demo@example.com' })).toEqual([]);
    expect(passwordProblems('fieldwork-demo', { username: 'alice', email: 'alice@example.com' })).toEqual([]);
  });

  it('refuses the passwords seen most in breaches, whatever their case', () => {
    expect(passwordProblems('password123')).toEqual([MESSAGES.passwordCommon]);
    expect(passwordProblems('QwertyUiop')).toEqual([MESSAGES.passwordCommon]);
    expect(passwordProblems('1234567890')).toEqual([MESSAGES.passwordNumeric, MESSAGES.passwordCommon]);
    expect(passwordProblems('correct horse battery')).toEqual([]);
  });
});

describe('names', () => {
  it('splits a profile name into its first and last word', () => {
    expect(splitName('  Ana  Maria   Lopez ')).toEqual({ first_name: 'Ana', last_name: 'Lopez' });
    expect(splitName('Ana')).toEqual({ first_name: 'Ana', last_name: '' });
    expect(splitName('   ')).toEqual({ first_name: '', last_name: '' });
  });
  it('shows the username when both names are blank', () => {
    expect(displayName({ first_name: '', last_name: '', username: 'demo' })).toBe('demo');
    expect(displayName({ first_name: 'Ana', last_name: 'Lopez', username: 'x' })).toBe('Ana Lopez');
  });
});

describe('terms and privacy', () => {
  it('needs terms 1.1 and privacy 1.0, each separately', () => {
    expect(legalAcceptance({ agreed_terms: '1.1', agreed_privacy: '' })).toEqual({ terms: true, privacy: false });
    expect(legalAcceptance({ agreed_terms: '1.0', agreed_privacy: '1.0' })).toEqual({ terms: false, privacy: true });
    expect(checkAgreedVersion('agreed_terms', '1.1')).toEqual([]);
    expect(checkAgreedVersion('agreed_privacy', '1.1')).toHaveLength(1);
  });
});
