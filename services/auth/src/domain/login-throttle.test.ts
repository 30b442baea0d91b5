import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  afterSuccess,
  current,
  delayAfter,
  gateAttempt,
  throttleKeys,
  waitMs,
  type Counter,
  type ThrottlePolicy,
} from './login-throttle.js';

const policy: ThrottlePolicy = {
  freeAttempts: 3,
  accountFreeAttempts: 6,
  addressFreeAttempts: 10,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  windowMs: 15 * 60_000,
};
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('login throttle', () => {
  it('lets the free attempts through at once, then doubles the delay up to the cap: slowed, never locked', () => {
    expect([0, 1, 2].map((n) => delayAfter(n, 3, policy))).toEqual([0, 0, 0]);
    expect([3, 4, 5, 8, 9, 40].map((n) => delayAfter(n, 3, policy))).toEqual([
      1000, 2000, 4000, 32_000, 60_000, 60_000,
    ]);
  });

  it('says how long the next attempt waits, counted from the last one let through', () => {
    let c: Counter | undefined;
    for (let i = 0; i < 3; i++) {
      expect(waitMs(c, t0, 3, policy)).toBe(0);
      c = afterAttempt(c, t0, policy);
    }
    expect(waitMs(c, at(200), 3, policy)).toBe(800);
    expect(waitMs(c, at(1000), 3, policy)).toBe(0);
    c = afterAttempt(c, at(1000), policy);
    expect(waitMs(c, at(1500), 3, policy)).toBe(1500);
  });

  it('never slows a free attempt when a parallel login saved its time after this one read the clock', () => {
    // The loadtest's parallel logins of different accounts from one address met "try again in 1 seconds".
    const address = afterAttempt(undefined, at(5), policy);
    expect(waitMs(address, at(3), 10, policy)).toBe(0);
    let c: Counter | undefined;
    for (let i = 0; i < 3; i++) c = afterAttempt(c, at(5), policy);
    expect(waitMs(c, at(3), 3, policy)).toBe(1000);
  });

  it('allows at most about 70 attempts an hour on one account (ASVS 2.2.1: no more than 100)', () => {
    let c: Counter | undefined;
    let t = 0;
    let n = 0;
    while (t < 3_600_000) {
      t += waitMs(c, at(t), 3, policy);
      if (t >= 3_600_000) break;
      c = afterAttempt(c, at(t), policy);
      n++;
    }
    expect(n).toBeGreaterThan(50);
    expect(n).toBeLessThan(100);
  });

  it('starts a counter again after the window without attempts', () => {
    const c = afterAttempt(afterAttempt(undefined, t0, policy), t0, policy);
    expect(current(c, at(15 * 60_000 + 1), policy)).toEqual({ attempts: 0, last_at: null, started_at: null });
    expect(afterAttempt(c, at(16 * 60_000), policy).attempts).toBe(1);
  });

  it('starts an address’s counter again a window after it began, however busy the address stays', () => {
    // A busy NAT is never idle for a window: an idle window would remember its people's typos all day (issue 30).
    let c: Counter | undefined;
    for (let m = 0; m < 15; m++) c = afterAttempt(c, at(m * 60_000), policy, 'fixed');
    expect(current(c, at(14 * 60_000 + 30_000), policy, 'fixed').attempts).toBe(15);
    expect(current(c, at(15 * 60_000 + 1), policy, 'fixed').attempts).toBe(0);
    expect(current(c, at(15 * 60_000 + 1), policy, 'idle').attempts).toBe(15);
  });

  it('meets a known device’s own counter only; any other client the account’s, the account’s at its address and the address’s', () => {
    expect(throttleKeys({ userId: 7, name: 'demo', ip: '203.0.113.5' }, policy)).toEqual([
      { key: 'a:7', free: 6, window: 'idle' },
      { key: 'a:7@203.0.113.5', free: 3, window: 'idle' },
      { key: 'ip:203.0.113.5', free: 10, window: 'fixed' },
    ]);
    expect(throttleKeys({ userId: 7, name: 'demo@example.com', ip: '203.0.113.5' }, policy)[0]!.key).toBe('a:7');
    expect(throttleKeys({ userId: 7, name: 'demo', ip: '203.0.113.5', device: 'ab12' }, policy)).toEqual([
      { key: 'd:ab12', free: 3, window: 'idle' },
    ]);
    // A device token means nothing without an account (a name nobody has).
    expect(throttleKeys({ userId: undefined, name: 'nobody', ip: '', device: 'ab12' }, policy)).toEqual([
      { key: 'n:nobody', free: 6, window: 'idle' },
    ]);
  });

  it('after a right password, starts the client’s own counter again and gives the shared ones their attempt back', () => {
    const keys = throttleKeys({ userId: 7, name: 'demo', ip: '203.0.113.5' }, policy);
    expect(afterSuccess(keys)).toEqual({ clear: ['a:7@203.0.113.5'], refund: ['a:7', 'ip:203.0.113.5'] });
    expect(afterSuccess(throttleKeys({ userId: 7, name: 'demo', ip: '', device: 'ab' }, policy))).toEqual({
      clear: ['d:ab'],
      refund: [],
    });
  });

  it('slows a guesser at one address after a few, while the account’s owner elsewhere still gets in', () => {
    const counters = new Map<string, Counter>();
    const attempt = (ip: string, t: number, device?: string) => {
      const keys = throttleKeys({ userId: 7, name: 'demo', ip, device }, policy);
      const g = gateAttempt(keys, counters, at(t), policy);
      for (const [k, c] of g.save) counters.set(k, c);
      return g.waitMs;
    };
    expect([0, 1, 2].map((i) => attempt('203.0.113.5', i))).toEqual([0, 0, 0]);
    expect(attempt('203.0.113.5', 3)).toBeGreaterThan(0);
    // The owner at another address: the account as a whole is below its allowance.
    expect(attempt('198.51.100.1', 4)).toBe(0);
    // Guesses from many addresses use the account's allowance up: unknown clients wait...
    for (let i = 0; i < 3; i++) attempt(`192.0.2.${i}`, 5 + i);
    expect(attempt('198.51.100.2', 10)).toBeGreaterThan(0);
    // ...a known device does not.
    expect(attempt('198.51.100.2', 10, 'dev1')).toBe(0);
  });

  it('lets a busy NAT’s people through: the address slows unknown clients only past its large allowance', () => {
    const counters = new Map<string, Counter>();
    const waits: number[] = [];
    // Nine different people behind one address each mistype once (the address allows 10 failures).
    for (let i = 0; i < 9; i++) {
      const keys = throttleKeys({ userId: 100 + i, name: `p${i}`, ip: '100.64.0.1' }, policy);
      const g = gateAttempt(keys, counters, at(i), policy);
      waits.push(g.waitMs);
      for (const [k, c] of g.save) counters.set(k, c);
    }
    expect(waits).toEqual(Array(9).fill(0));
  });
});
