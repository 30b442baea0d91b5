import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import {
  binLabels,
  chartKind,
  cut,
  explicitWidth,
  forcedMode,
  formatChartDate,
  formatCurrency,
  formatNumber,
  formatPercent,
  formatResultDate,
  PALETTE,
  tooltipColumns,
} from './format';

describe('results formats (spec 001 §9)', () => {
  // Project types as the projects API sends them (spec 000: "single point (S), trend series (T), longitudinal (L)";
  // services/projects/src/domain/project.ts PROJECT_TYPES), written here, not taken from the code under test.
  const SINGLE = 'S';
  const TREND = 'T';
  it('chooses the chart of an item', () => {
    const three = { type: 'choice', answers: [1, 2, 3] };
    expect(chartKind(three, SINGLE)).toBe('bar');
    expect(chartKind({ type: 'choice', answers: [1, 2] }, SINGLE)).toBe('pie');
    expect(chartKind({ type: 'choice', answers: [1, 2], multiselect: true }, SINGLE)).toBe('bar');
    expect(chartKind({ type: 'binary', answers: [1, 2] }, SINGLE)).toBe('pie');
    for (const type of ['number', 'currency', 'calculated']) expect(chartKind({ type }, SINGLE)).toBe('histogram');
    expect(chartKind({ type: 'date' }, SINGLE)).toBe('line');
    expect(chartKind({ type: 'number' }, SINGLE, 'profile')).toBe('area-spline');
    for (const type of ['open', 'barcode', 'concatenation']) expect(chartKind({ type }, SINGLE)).toBe('text');
    for (const type of ['geotag', 'image', 'signature']) expect(chartKind({ type }, SINGLE)).toBe('none');
  });
  it('draws trend-series projects as lines and box-whiskers', () => {
    expect(chartKind({ type: 'choice', answers: [1, 2, 3] }, TREND)).toBe('line');
    expect(chartKind({ type: 'binary', answers: [1, 2] }, TREND)).toBe('line');
    expect(chartKind({ type: 'currency' }, TREND)).toBe('box');
    expect(chartKind({ type: 'number' }, TREND)).toBe('box');
    expect(chartKind({ type: 'number' }, 'L')).toBe('histogram');
  });
  it('labels histogram bins: whole numbers by the integers they hold, decimals by their edges', () => {
    const ones = [
      { lower: 1, upper: 2 },
      { lower: 2, upper: 3 },
    ];
    expect(binLabels(ones, true)).toEqual(['1', '2']);
    expect(binLabels([{ lower: 10_000, upper: 20_000 }], true)).toEqual(['10,000–19,999']);
    expect(binLabels([{ lower: 0.5, upper: 1 }], false)).toEqual(['0.5–1']);
    expect(binLabels([{ lower: 10_000, upper: 20_000 }], false)).toEqual(['10,000–20,000']);
  });
  it('forces tables in the profile view except for numbers and currency', () => {
    expect(forcedMode('choice', 'profile')).toBe('table');
    expect(forcedMode('number', 'profile')).toBeNull();
    expect(forcedMode('currency', 'profile')).toBeNull();
    expect(forcedMode('choice', 'results')).toBeNull();
  });
  it('cuts labels to their limits', () => {
    expect(cut('a'.repeat(101), 100)).toBe(`${'a'.repeat(97)}...`);
    expect(cut('a'.repeat(100), 100)).toBe('a'.repeat(100));
    expect(cut('b'.repeat(31), 30)).toHaveLength(30);
    expect(cut('short')).toBe('short');
    expect(cut('c'.repeat(21))).toBe(`${'c'.repeat(17)}...`);
  });
  it('formats currency, percent, numbers and dates', async () => {
    expect(formatCurrency(999)).toBe('999');
    expect(formatCurrency(1500, 'USD')).toBe('USD 1.5k');
    expect(formatCurrency(999_999_999)).toBe('999,999.999k');
    expect(formatCurrency(1_234_567_890)).toBe('1,234.568M');
    expect(formatCurrency(12_345_678_901_234)).toBe('12,345.679B');
    expect(formatPercent(0.0004)).toBe('0.000* %');
    expect(formatPercent(0)).toBe('0 %');
    expect(formatPercent(12.5)).toBe('12.5 %');
    expect(formatNumber(3.14159)).toBe('3.14');
    expect(formatNumber(null)).toBe('—');
    // English result and chart dates as spec 001 writes them (result dates MM/DD/YYYY; chart dates MM-DD-YYYY,
    // months and quarters MM-YYYY, years and larger YYYY, finer units with the time).
    expect(formatResultDate('2026-03-04T10:00:00')).toBe('03/04/2026');
    expect(formatResultDate(null)).toBe('—');
    expect(formatChartDate('2026-03-04 00:00:00', 'day')).toBe('03-04-2026');
    expect(formatChartDate('2026-03-01 00:00:00', 'month')).toBe('03-2026');
    expect(formatChartDate('2026-01-01 00:00:00', 'quarter')).toBe('01-2026');
    expect(formatChartDate('2026-01-01 00:00:00', 'decade')).toBe('2026');
    expect(formatChartDate('2026-03-04 10:20:00', 'hour')).toBe('03-04-2026 10:20');
    // Other languages: the same parts in their own order (French: day first).
    await setLanguage('fr');
    try {
      expect(formatResultDate('2026-03-04T10:00:00')).toBe('04/03/2026');
      expect(formatChartDate('2026-03-01 00:00:00', 'month')).toBe('03/2026');
    } finally {
      await setLanguage('en');
    }
  });
  it('lays out tooltips, widths and colours', () => {
    expect([tooltipColumns(3), tooltipColumns(4)]).toEqual([1, 2]);
    expect(explicitWidth('bar', 12)).toBeNull();
    expect(explicitWidth('bar', 5, 3)).toBe(450);
    expect(explicitWidth('line', 6)).toBeNull();
    expect(explicitWidth('line', 7)).toBe(420);
    expect(PALETTE).toHaveLength(8);
  });
});

describe('date series', () => {
  it('fills the days without answers so that the timeline is even', async () => {
    const { dateSeries } = await import('./figure');
    expect(
      dateSeries([
        { date: '2026-03-04', count: 2 },
        { date: '2026-03-01', count: 1 },
      ]),
    ).toEqual({
      period: 'day',
      points: [
        { date: '2026-03-01', count: 1 },
        { date: '2026-03-02', count: 0 },
        { date: '2026-03-03', count: 0 },
        { date: '2026-03-04', count: 2 },
      ],
    });
    const years = dateSeries([
      { date: '2001-05-05', count: 1 },
      { date: '2026-01-02', count: 3 },
    ]);
    expect(years.period).toBe('year');
    expect(years.points).toHaveLength(26);
    expect(years.points.at(-1)).toEqual({ date: '2026-01-01', count: 3 });
  });
  it('keeps days up to 60 and sums months beyond', async () => {
    const { dateSeries } = await import('./figure');
    const days = Array.from({ length: 61 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
      count: 1,
    }));
    expect(dateSeries(days.slice(0, 60)).period).toBe('day');
    expect(dateSeries(days)).toEqual({
      period: 'month',
      points: [
        { date: '2026-01-01', count: 31 },
        { date: '2026-02-01', count: 28 },
        { date: '2026-03-01', count: 2 },
      ],
    });
  });
});
