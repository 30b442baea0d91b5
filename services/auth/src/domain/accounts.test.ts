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
import { afterFailure, failureDelayMs, lockStatus, type ThrottlePolicy } from './login-throttle.js';

describe('normalizeLogin', () => {
  it('lower-cases and trims the username and trims the password', () => {
    expect(normalizeLogin('  Demo@Example.COM ', '  secret pass  ')).toEqual({ username: 'demo@example.com', password: 'secret pass' });
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

describe('login throttle', () => {
  const policy: ThrottlePolicy = { slowAfter: 3, slowMs: 100, lockAfter: 5, lockMinutes: 15 };
  const t0 = new Date('2026-01-01T00:00:00Z');
  it('slows after slowAfter failures, doubling up to 8 times the base', () => {
    expect(failureDelayMs(3, policy)).toBe(0);
    expect(failureDelayMs(4, policy)).toBe(100);
    expect(failureDelayMs(5, policy)).toBe(200);
    expect(failureDelayMs(20, policy)).toBe(800);
  });
  it('locks after lockAfter failures in the window, for lockMinutes', () => {
    let state = undefined as ReturnType<typeof afterFailure> | undefined;
    for (let i = 0; i < 5; i++) state = afterFailure(state, t0, policy);
    expect(state!.failures).toBe(5);
    expect(lockStatus(state, new Date(t0.getTime() + 60_000))).toEqual({ locked: true, minutes: 14 });
    expect(lockStatus(state, new Date(t0.getTime() + 15 * 60_000 + 1))).toEqual({ locked: false });
  });
  it('starts a new count after the window', () => {
    const state = afterFailure(afterFailure(undefined, t0, policy), t0, policy);
    expect(afterFailure(state, new Date(t0.getTime() + 16 * 60_000), policy).failures).toBe(1);
  });
});
