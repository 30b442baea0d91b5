import { describe, expect, it } from 'vitest';
import { dayOf, dayRange, dayStartMs } from './days';

describe('dayStartMs', () => {
  it('is the first millisecond of the day on the clock of the zone', () => {
    expect(new Date(dayStartMs('2026-03-01', 'UTC')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(new Date(dayStartMs('2026-03-01', 'Africa/Nairobi')).toISOString()).toBe('2026-02-28T21:00:00.000Z');
    expect(new Date(dayStartMs('2026-03-01', 'America/Lima')).toISOString()).toBe('2026-03-01T05:00:00.000Z');
    expect(new Date(dayStartMs('2026-03-01', 'Asia/Kathmandu')).toISOString()).toBe('2026-02-28T18:15:00.000Z');
  });

  it('holds across daylight saving, including a day that starts at 01:00', () => {
    for (const tz of ['Europe/Paris', 'America/Santiago', 'Australia/Lord_Howe', 'America/St_Johns'])
      for (let d = Date.UTC(2026, 0, 1); d < Date.UTC(2027, 0, 1); d += 86_400_000) {
        const day = new Date(d).toISOString().slice(0, 10);
        const start = dayStartMs(day, tz);
        expect(dayOf(start, tz)).toBe(day);
        expect(dayOf(start - 1, tz)).not.toBe(day);
      }
  });
});

describe('dayRange', () => {
  it('runs from the first millisecond of the first day to the last of the last', () => {
    const r = dayRange('2026-03-01', '2026-03-31', 'Europe/Paris');
    expect(new Date(r.start! * 1000).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(new Date(Math.round(r.end! * 1000)).toISOString()).toBe('2026-03-31T21:59:59.999Z');
    expect(dayRange('', '2026-03-31', 'UTC')).toEqual({
      start: null,
      end: Date.parse('2026-03-31T23:59:59.999Z') / 1000,
    });
  });
});
