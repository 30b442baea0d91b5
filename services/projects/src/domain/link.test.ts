import { describe, expect, it } from 'vitest';
import { linkExpired } from './link.js';

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
