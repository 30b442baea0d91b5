import { describe, expect, it } from 'vitest';
import { backoffMs } from './supervise.js';

describe('supervision backoff', () => {
  it('waits 1 s after a first crash, doubles per crash in a row, and never more than the cap', () => {
    const policy = { firstBackoffMs: 1000, maxBackoffMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffMs(n, policy))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
