import { describe, expect, it } from 'vitest';
import { filterModel } from '@fieldwork/sampler';
import { planResults, planView, type PlanInput } from './planner.js';

type Over = Omit<Partial<PlanInput>, 'filters'> & { filters?: unknown };
const base = (over: Over = {}): PlanInput => ({
  comparisons: [],
  tz: 'UTC',
  timing: 'time_created',
  profile: false,
  scoped: false,
  aggregates: { tz: 'UTC', ready: true },
  ...over,
  filters: filterModel.parse(over.filters ?? {}),
});
const day = (iso: string) => Date.parse(iso) / 1000;

describe('planResults', () => {
  it('answers each request from the smallest table that holds what it filters and compares by', () => {
    expect(planResults(base())).toEqual({ path: 'aggregates', table: 'values', days: [] });
    expect(planResults(base({ filters: { showOnlyCompleted: true } }))).toMatchObject({ table: 'values' });
    // Site, group and team: the sites' rollup.
    expect(planResults(base({ filters: { site: [1, 2] } }))).toMatchObject({ path: 'aggregates', table: 'sites' });
    expect(planResults(base({ filters: { group: 3, team: [4] } }))).toMatchObject({ table: 'sites' });
    expect(planResults(base({ comparisons: [{ by: 'site' }, { by: 'team' }] }))).toMatchObject({ table: 'sites' });
    // Periods of a month or longer of time_created: the months' rollup.
    for (const period of ['month', 'quarter', 'year', 'decade'] as const)
      expect(planResults(base({ comparisons: [{ by: 'period', period }] }))).toMatchObject({ table: 'months' });
    expect(planResults(base({ comparisons: [{ by: 'period' }], filters: { site: 1 } }))).toMatchObject({
      table: 'months',
    });
    // Collectors, a caller's scope, days and weeks, other timing columns: the cube.
    expect(planResults(base({ scoped: true }))).toMatchObject({ path: 'aggregates', table: 'cube' });
    expect(planResults(base({ filters: { collector: [5] } }))).toMatchObject({ table: 'cube' });
    expect(planResults(base({ filters: { createdBy: 5 } }))).toMatchObject({ table: 'cube' });
    expect(planResults(base({ comparisons: [{ by: 'collector' }] }))).toMatchObject({ table: 'cube' });
    expect(planResults(base({ comparisons: [{ by: 'period', period: 'week' }] }))).toMatchObject({ table: 'cube' });
    expect(planResults(base({ comparisons: [{ by: 'period', period: 'day' }] }))).toMatchObject({ table: 'cube' });
    expect(
      planResults(base({ timing: 'time_updated', comparisons: [{ by: 'period', period: 'month' }] })),
    ).toMatchObject({ table: 'cube' });
  });

  it('reads whole months of time_created from the months rollup, any other days from the cube', () => {
    const range = (from: string, to: string | null, dateType = 'time_created') => ({
      date_ranges: [
        {
          entity: 'response',
          dateType,
          startDateTime: day(`${from}T00:00:00Z`),
          endDateTime: to === null ? null : day(`${to}T23:59:59.999Z`),
        },
      ],
    });
    const plan = (f: unknown) => planResults(base({ filters: f }));
    expect(plan(range('2025-03-01', '2025-08-31'))).toEqual({
      path: 'aggregates',
      table: 'months',
      days: [{ column: 'time_created', from: '2025-03-01', to: '2025-08-31' }],
    });
    // February's last day, in a leap year and not; an open end.
    expect(plan(range('2024-02-01', '2024-02-29'))).toMatchObject({ table: 'months' });
    expect(plan(range('2025-02-01', '2025-02-28'))).toMatchObject({ table: 'months' });
    expect(plan(range('2025-02-01', null))).toMatchObject({ table: 'months' });
    expect(plan(range('2024-02-01', '2024-02-28'))).toMatchObject({ table: 'cube' });
    expect(plan(range('2025-03-02', '2025-08-31'))).toMatchObject({ table: 'cube' });
    expect(plan(range('2025-03-01', '2025-08-30'))).toMatchObject({ table: 'cube' });
    expect(plan(range('2025-03-01', '2025-08-31', 'time_updated'))).toMatchObject({ table: 'cube' });
  });

  it('takes date ranges of whole days in the aggregates time zone as days', () => {
    const range = {
      entity: 'response',
      dateType: 'time_updated',
      startDateTime: day('2026-03-01T00:00:00Z'),
      endDateTime: day('2026-03-31T23:59:59.999Z'),
    };
    expect(planResults(base({ filters: { date_ranges: [range] } }))).toEqual({
      path: 'aggregates',
      table: 'cube',
      days: [{ column: 'time_updated', from: '2026-03-01', to: '2026-03-31' }],
    });
    // Paris: midnight is 23:00 UTC the day before in winter; 29 March 2026 has 23 hours.
    const paris = {
      entity: 'response',
      dateType: 'time_created',
      startDateTime: day('2026-03-28T23:00:00Z'),
      endDateTime: day('2026-03-29T21:59:59.999Z'),
    };
    expect(
      planResults(
        base({
          tz: 'Europe/Paris',
          aggregates: { tz: 'Europe/Paris', ready: true },
          filters: { date_ranges: [paris] },
        }),
      ),
    ).toMatchObject({ path: 'aggregates', days: [{ from: '2026-03-29', to: '2026-03-29' }] });
    // An open end, and an open start.
    expect(planResults(base({ filters: { date_ranges: [{ ...range, endDateTime: null }] } }))).toMatchObject({
      days: [{ from: '2026-03-01', to: null }],
    });
  });

  it('scans what the aggregates cannot answer, and says why', () => {
    const notWhole = {
      entity: 'response',
      dateType: 'time_created',
      startDateTime: day('2026-03-01T00:00:00Z'),
      // The last second, not the last millisecond: answers from 23:59:59.001 on are outside it.
      endDateTime: day('2026-03-31T23:59:59Z'),
    };
    const cases: [Over, string][] = [
      [{ aggregates: undefined }, 'the project has no aggregates yet'],
      [{ aggregates: { tz: 'UTC', ready: false } }, "the project's aggregates are being counted"],
      [{ profile: true }, 'a profile'],
      [{ filters: { filters: [{ question: 3, operator: '>', value: 2 }] } }, 'a filter on answers'],
      [{ filters: { date_ranges: [notWhole] } }, 'a date range that is not whole days'],
      [{ filters: { date_ranges: [{ ...notWhole, entity: 7 }] } }, 'a date question range'],
      [{ comparisons: [{ by: 'question', item_id: 4 }] }, 'a comparison by question'],
      [{ comparisons: [{ by: 'period', period: 'hour' }] }, 'a period shorter than a day'],
      [{ comparisons: [{ by: 'period', period: 'day' }], timing: 'time_completed' }, 'periods of time_completed'],
      [
        { comparisons: [{ by: 'period', period: 'day' }], tz: 'Asia/Tokyo' },
        'the time zone Asia/Tokyo (the aggregates count days in UTC)',
      ],
    ];
    for (const [input, reason] of cases) expect(planResults(base(input))).toEqual({ path: 'scan', reasons: [reason] });
    // Another time zone matters only when days do.
    expect(planResults(base({ tz: 'Asia/Tokyo' }))).toMatchObject({ path: 'aggregates' });
  });
});

describe('planView', () => {
  const ready = { tz: 'Europe/Paris', ready: true };
  it('answers a view from ready aggregates, in any time zone when no day matters', () => {
    expect(planView({ days: false, tz: 'UTC', aggregates: ready })).toEqual({ path: 'aggregates' });
    expect(planView({ days: true, tz: 'Europe/Paris', aggregates: ready })).toEqual({ path: 'aggregates' });
  });

  it('scans when the aggregates are missing, being counted, or count days in another time zone', () => {
    expect(planView({ days: false, tz: 'UTC', aggregates: undefined })).toEqual({
      path: 'scan',
      reasons: ['the project has no aggregates yet'],
    });
    expect(planView({ days: false, tz: 'UTC', aggregates: { tz: 'UTC', ready: false } })).toEqual({
      path: 'scan',
      reasons: ["the project's aggregates are being counted"],
    });
    expect(planView({ days: true, tz: 'UTC', aggregates: ready })).toEqual({
      path: 'scan',
      reasons: ['the time zone UTC (the aggregates count days in Europe/Paris)'],
    });
  });
});
