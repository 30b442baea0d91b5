import { describe, expect, it } from 'vitest';
import { expectedBy, pageOf, parseDay, percentOf } from './views.js';

describe('views', () => {
  it('pages 1-based with a default of 50 rows and a cap of 200', () => {
    expect(pageOf(0, 0)).toEqual({ page: 1, size: 50, offset: 0 });
    expect(pageOf(3, 20)).toEqual({ page: 3, size: 20, offset: 40 });
    expect(pageOf(2, 1_000_000)).toEqual({ page: 2, size: 200, offset: 200 });
  });

  it('reads calendar dates only', () => {
    expect(parseDay('')).toBeNull();
    expect(parseDay('2026-02-28')).toBe('2026-02-28');
    expect(parseDay('2026-02-30')).toBeUndefined();
    expect(parseDay('28/02/2026')).toBeUndefined();
  });

  it('gives progress in percent with one decimal, none without a target', () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(5, 4)).toBe(125);
    expect(percentOf(5, 0)).toBeUndefined();
  });

  it('expects an even pace between the start and end dates', () => {
    // 10 days, 100 responses: 10 a day; on the 3rd day 30.
    expect(expectedBy(100, '2026-01-01', '2026-01-10', '2026-01-03')).toBe(30);
    expect(expectedBy(100, '2026-01-01', '2026-01-10', '2025-12-31')).toBe(0);
    expect(expectedBy(100, '2026-01-01', '2026-01-10', '2026-03-01')).toBe(100);
    expect(expectedBy(100, '2026-01-01', null, '2026-01-03')).toBeUndefined();
    expect(expectedBy(0, '2026-01-01', '2026-01-10', '2026-01-03')).toBeUndefined();
  });
});
