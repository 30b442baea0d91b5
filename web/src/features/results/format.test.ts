import { describe, expect, it } from 'vitest';
import {
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
  it('chooses the chart of an item', () => {
    const three = { type: 'choice', answers: [1, 2, 3] };
    expect(chartKind(three, 'single')).toBe('bar');
    expect(chartKind({ type: 'choice', answers: [1, 2] }, 'single')).toBe('pie');
    expect(chartKind({ type: 'binary', answers: [1, 2] }, 'single')).toBe('pie');
    expect(chartKind({ type: 'number' }, 'single')).toBe('pie');
    expect(chartKind({ type: 'date' }, 'single')).toBe('line');
    expect(chartKind(three, 'trend')).toBe('line');
    expect(chartKind({ type: 'currency' }, 'trend')).toBe('box');
    expect(chartKind({ type: 'number' }, 'single', 'profile')).toBe('area-spline');
    for (const type of ['open', 'geotag', 'barcode', 'image', 'signature'])
      expect(chartKind({ type }, 'single')).toBe('none');
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
  it('formats currency, percent, numbers and dates', () => {
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
    expect(formatResultDate('2026-03-04T10:00:00Z')).toBe('03/04/2026');
    expect(formatChartDate('2026-03-04 00:00:00', 'day')).toBe('03-04-2026');
    expect(formatChartDate('2026-03-01 00:00:00', 'month')).toBe('03-2026');
    expect(formatChartDate('2026-01-01 00:00:00', 'quarter')).toBe('01-2026');
    expect(formatChartDate('2026-01-01 00:00:00', 'decade')).toBe('2026');
    expect(formatChartDate('2026-03-04 10:20:00', 'hour')).toBe('03-04-2026 10:20');
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
