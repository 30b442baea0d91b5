import { describe, expect, it } from 'vitest';
import { linkExpired, readNewLink } from './link.js';

describe('linkExpired', () => {
  const open = { expiry_date: new Date(Date.now() + 60_000), revoked_at: null };
  it('lets a link in until its expiry date, while it is not revoked and its project is neither finalized nor deleted', () => {
    expect(linkExpired(open, 'O')).toBe(false);
    expect(linkExpired(open, 'P')).toBe(false);
    expect(linkExpired(open, 'G')).toBe(false);
    expect(linkExpired({ ...open, expiry_date: new Date(Date.now() - 1) }, 'O')).toBe(true);
    expect(linkExpired({ ...open, revoked_at: new Date() }, 'O')).toBe(true);
    expect(linkExpired(open, 'F')).toBe(true);
    expect(linkExpired(open, 'D')).toBe(true);
  });
});

describe('linkExpired without an expiry date', () => {
  it('lets an anonymous link without an expiry date in until it is revoked or its project closes', () => {
    const never = { expiry_date: null, revoked_at: null };
    expect(linkExpired(never, 'O', Date.parse('2999-01-01'))).toBe(false);
    expect(linkExpired({ ...never, revoked_at: new Date() }, 'O')).toBe(true);
    expect(linkExpired(never, 'F')).toBe(true);
  });
});

describe('readNewLink', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  it('reads a survey link (the default kind) with its expiry date, and an anonymous link with none', () => {
    expect(readNewLink({ kind: '', name: ' Door to door ', expiry_date: '2026-07-01T00:00:00Z' }, now)).toEqual({
      link: { kind: 'survey', name: 'Door to door', expiry_date: new Date('2026-07-01T00:00:00Z') },
    });
    expect(readNewLink({ kind: 'anonymous', name: '', expiry_date: '' }, now)).toEqual({
      link: { kind: 'anonymous', name: '', expiry_date: null },
    });
  });
  it('refuses a survey link without an expiry date, a date in the past or not a date, an unknown kind, a long name', () => {
    expect(readNewLink({ kind: 'survey', name: '', expiry_date: ' ' }, now)).toEqual({
      errors: { expiry_date: ['A survey link needs an expiry date.'] },
    });
    expect(readNewLink({ kind: 'anonymous', name: '', expiry_date: '2026-05-31T23:59:59Z' }, now)).toEqual({
      errors: { expiry_date: ['The expiry date must be in the future.'] },
    });
    expect(readNewLink({ kind: 'survey', name: '', expiry_date: 'tomorrow' }, now)).toEqual({
      errors: { expiry_date: ['Enter a valid date and time.'] },
    });
    expect(readNewLink({ kind: 'public', name: 'x'.repeat(101), expiry_date: '2026-07-01' }, now)).toEqual({
      errors: { kind: ['Choose anonymous or survey.'], name: ['Ensure this field has no more than 100 characters.'] },
    });
  });
});
