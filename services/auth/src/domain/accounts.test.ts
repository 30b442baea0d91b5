import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  checkAgreedVersion,
  displayName,
  invitationAnswer,
  isUnconfirmed,
  isValidEmail,
  legalAcceptance,
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

describe('accounts made by someone else (issue 30 items 2 and 7)', () => {
  it('are unconfirmed until a password is chosen from a mailed link or someone signs in', () => {
    expect(isUnconfirmed({ password_hash: null, last_login: null })).toBe(true);
    expect(isUnconfirmed({ password_hash: '$argon2id$...', last_login: null })).toBe(false);
    // Signed in through an identity provider: no password, but confirmed.
    expect(isUnconfirmed({ password_hash: null, last_login: new Date() })).toBe(false);
  });

  it('are answered as an invitation made only of what the caller sent', () => {
    const roles = { owner: false, user_admin: true, project_admin: false, billing_admin: false };
    const answer = invitationAnswer({
      email: 'New.Hire@corp.example',
      first_name: '',
      last_name: '',
      organization: 4,
      roles,
    });
    expect(answer).toEqual({
      id: 0,
      user: 0,
      orguser_id: 0,
      name: 'new.hire@corp.example',
      email: 'New.Hire@corp.example',
      username: 'new.hire@corp.example',
      first_name: '',
      last_name: '',
      ...roles,
      organization: 4,
      is_active: false,
      invited: true,
    });
  });
});
