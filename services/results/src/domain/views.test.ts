import { describe, expect, it } from 'vitest';
import { collectorPage, dayRuns, expectedBy, pageOf, parseDay, percentOf } from './views.js';

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

  describe('collectorPage', () => {
    const rows = [
      { id: 7, name: 'Zoé Kamau', responses: 3 },
      { id: 3, name: 'collector 10', responses: 1 },
      { id: 4, name: 'Collector 2', responses: 9 },
      { id: 9, name: '', responses: 2 },
      { id: 5, name: 'Amina Otieno', responses: 5 },
    ];

    it('orders names naturally (2 before 10, case and accents ignored), a nameless person as #id', () => {
      expect(collectorPage(rows, '', 0, 50).results.map((r) => r.name)).toEqual([
        '#9',
        'Amina Otieno',
        'Collector 2',
        'collector 10',
        'Zoé Kamau',
      ]);
    });

    it('keeps the names holding every word of the query, accents and case ignored, and counts them all', () => {
      expect(collectorPage(rows, 'ZOE', 0, 50)).toEqual({
        results: [{ id: 7, name: 'Zoé Kamau', responses: 3 }],
        count: 1,
      });
      expect(collectorPage(rows, 'collector 1', 0, 50).results.map((r) => r.id)).toEqual([3]);
      expect(collectorPage(rows, 'nobody', 0, 50)).toEqual({ results: [], count: 0 });
    });

    it('answers a page and the count of all matches', () => {
      const page = collectorPage(rows, 'o', 1, 2);
      expect(page.count).toBe(4);
      expect(page.results.map((r) => r.name)).toEqual(['Collector 2', 'collector 10']);
    });
  });
});

describe('dayRuns', () => {
  it('merges consecutive days into runs, across months and years, ignoring order and repeats', () => {
    expect(dayRuns([])).toEqual([]);
    expect(dayRuns(['2026-01-05', '2026-01-03', '2026-01-04', '2026-01-05', '2026-01-09'])).toEqual([
      { from: '2026-01-03', to: '2026-01-05' },
      { from: '2026-01-09', to: '2026-01-09' },
    ]);
    expect(dayRuns(['2026-01-01', '2025-12-31', '2024-02-29', '2024-03-01'])).toEqual([
      { from: '2024-02-29', to: '2024-03-01' },
      { from: '2025-12-31', to: '2026-01-01' },
    ]);
  });
});
