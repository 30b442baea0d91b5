import { describe, expect, it } from 'vitest';
import { refreshDecision } from './refresh-reuse.js';

const succ = Buffer.from('successor');
const at = (ms: number) => new Date(1_000_000 + ms);

describe('refreshDecision (issue 30 item 3)', () => {
  it('rotates a token used for the first time', () => {
    expect(refreshDecision({ used_at: null, replaced_by: null, successor_used_at: null }, succ, at(0), 10_000)).toBe(
      'rotate',
    );
  });

  it('answers the successor already issued to a replay within the window while the successor is unused', () => {
    const spent = { used_at: at(0), replaced_by: succ, successor_used_at: null };
    expect(refreshDecision(spent, succ, at(10_000), 10_000)).toBe('resend');
  });

  it('ends the session on a replay after the window, even when the successor was never used', () => {
    const spent = { used_at: at(0), replaced_by: succ, successor_used_at: null };
    expect(refreshDecision(spent, succ, at(10_001), 10_000)).toBe('revoke');
  });

  it('ends the session on a replay within the window once the successor was used (two clients rotate one session)', () => {
    const spent = { used_at: at(0), replaced_by: succ, successor_used_at: at(1) };
    expect(refreshDecision(spent, succ, at(2), 10_000)).toBe('revoke');
  });

  it('ends the session when the recorded successor is not the one this token derives (a token of before)', () => {
    const spent = { used_at: at(0), replaced_by: Buffer.from('other'), successor_used_at: null };
    expect(refreshDecision(spent, succ, at(1), 10_000)).toBe('revoke');
    expect(refreshDecision({ ...spent, replaced_by: null }, succ, at(1), 10_000)).toBe('revoke');
  });
});
