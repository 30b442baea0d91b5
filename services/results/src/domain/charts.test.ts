import { describe, expect, it } from 'vitest';
import { aggregatorFor, niceBins, niceWidth } from './charts.js';

describe('niceBins', () => {
  it('rounds widths up to 1, 2 or 5 × 10^k', () => {
    expect([0.3, 1, 1.01, 2.5, 7, 13, 0.042, 450].map(niceWidth)).toEqual([0.5, 1, 2, 5, 10, 20, 0.05, 500]);
  });
  it('starts at a multiple of the width and covers the maximum', () => {
    // 0.37 to 98.2 in about 10 bins: 0, 10, 20 ... 90 (the last one holds 98.2).
    expect(niceBins(0.37, 98.2, 10, false)).toEqual({ lo: 0, width: 10, n: 10, integer: false });
    // 0 to 100 in 10: ten bins of 10, 100 in the last one.
    expect(niceBins(0, 100, 10, false)).toEqual({ lo: 0, width: 10, n: 10, integer: false });
    // Negative and decimal: -1.3 to 2.2 in about 5 bins of 1: -2, -1, 0, 1, 2.
    expect(niceBins(-1.3, 2.2, 5, false)).toEqual({ lo: -2, width: 1, n: 5, integer: false });
    expect(niceBins(0.12, 0.31, 10, false)).toEqual({ lo: 0.12, width: 0.02, n: 10, integer: false });
  });
  it('gives whole numbers whole bins: one value each when the range is small', () => {
    expect(niceBins(1, 6, 10, true)).toEqual({ lo: 1, width: 1, n: 6, integer: true });
    // 0 to 100 in 10: 0-9, 10-19 ... 90-99 and 100.
    expect(niceBins(0, 100, 10, true)).toEqual({ lo: 0, width: 10, n: 11, integer: true });
    expect(niceBins(3, 3, 10, true)).toEqual({ lo: 3, width: 1, n: 1, integer: true });
    expect(niceBins(1995, 2026, 10, true)).toEqual({ lo: 1995, width: 5, n: 7, integer: true });
  });
  it('never makes more than target + 1 bins', () => {
    for (const [min, max, t] of [
      [0.001, 1e9, 10],
      [-5e6, 7e6, 100],
      [0, 1, 100],
      [12.5, 12.50001, 3],
    ] as const) {
      const b = niceBins(min, max, t, false);
      expect(b.n).toBeLessThanOrEqual(t + 1);
      expect(b.lo).toBeLessThanOrEqual(min);
      expect(b.lo + b.n * b.width).toBeGreaterThanOrEqual(max);
    }
  });
});

describe('aggregatorFor (spec 001 §9)', () => {
  it('uses the requested aggregator where the type takes it, else count', () => {
    expect(aggregatorFor('number', 'sum')).toBe('sum');
    expect(aggregatorFor('currency', 'var')).toBe('var');
    expect(aggregatorFor('date', 'max')).toBe('max');
    expect(aggregatorFor('date', 'sum')).toBe('count');
    expect(aggregatorFor('choice', 'avg')).toBe('count');
    expect(aggregatorFor('open', 'count')).toBe('count');
  });
});
