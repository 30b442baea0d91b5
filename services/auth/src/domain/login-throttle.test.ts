import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  current,
  delayAfter,
  throttleKeys,
  waitMs,
  type Counter,
  type ThrottlePolicy,
} from './login-throttle.js';

const policy: ThrottlePolicy = {
  freeAttempts: 3,
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
    expect(current(c, at(15 * 60_000 + 1), policy)).toEqual({ attempts: 0, last_at: null });
    expect(afterAttempt(c, at(16 * 60_000), policy).attempts).toBe(1);
  });

  it('counts an account once whatever name it was given, its owner’s known address apart, and each client address', () => {
    expect(throttleKeys({ userId: 7, name: 'demo', knownAddress: false, ip: '203.0.113.5' })).toEqual({
      account: 'a:7',
      address: 'ip:203.0.113.5',
    });
    expect(throttleKeys({ userId: 7, name: 'demo@example.com', knownAddress: false, ip: '203.0.113.5' }).account).toBe(
      'a:7',
    );
    expect(throttleKeys({ userId: 7, name: 'demo', knownAddress: true, ip: '198.51.100.1' }).account).toBe(
      'a:7@198.51.100.1',
    );
    expect(throttleKeys({ userId: undefined, name: 'nobody', knownAddress: false, ip: '' })).toEqual({
      account: 'n:nobody',
      address: undefined,
    });
  });
});
