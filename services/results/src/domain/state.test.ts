import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResponseEvent } from './rows.js';
import { changesOf, dayIn, NO_DAY, stateKey, stateOf } from './state.js';

const event = (version: number, patch: Partial<ResponseEvent> = {}): ResponseEvent => ({
  response_id: '1-1-1-d-1',
  version,
  project: 1,
  schema: 1,
  user: 3,
  site: 2,
  group: null,
  team: null,
  completed: false,
  deleted: false,
  archived: false,
  parent_id: null,
  geotag: null,
  time_created: '2026-01-31T23:30:00.000Z',
  time_updated: '2026-02-01T10:00:00.000Z',
  time_completed: null,
  time_uploaded: '2026-02-01T10:00:01.000Z',
  data: { '0': { 1: 4.5, 2: [7, 8], 3: 'Some text', 4: '2026-01-15', 5: '' }, '1': { 1: 2 } },
  ...patch,
});

describe('dayIn', () => {
  it('gives the calendar day of an instant in a time zone', () => {
    expect(dayIn(Date.parse('2026-01-31T23:30:00Z'), 'UTC')).toBe('2026-01-31');
    expect(dayIn(Date.parse('2026-01-31T23:30:00Z'), 'Europe/Paris')).toBe('2026-02-01');
    expect(dayIn(Date.parse('2026-01-31T23:30:00Z'), 'America/Lima')).toBe('2026-01-31');
    expect(dayIn(Date.parse('1800-01-01T00:00:00Z'), 'UTC')).toBe('1900-01-01');
  });

  it('agrees with the IANA database at every instant, across daylight saving and odd offsets', () => {
    const zones = ['Europe/Paris', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Lima'];
    const byIntl = (ms: number, tz: string) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, tz) => dayIn(ms, tz) === byIntl(ms, tz),
      ),
      { numRuns: 20_000 },
    );
    // Around the changes of 2026 in Paris, minute by minute.
    for (const change of [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1)])
      for (let ms = change - 3 * 3_600_000; ms < change + 3 * 3_600_000; ms += 60_000)
        expect(dayIn(ms, 'Europe/Paris')).toBe(byIntl(ms, 'Europe/Paris'));
  });
});

describe('stateOf', () => {
  it('holds every answer (repeats too) in typed arrays, and the days of the timing columns', () => {
    const s = stateOf(event(1), 'Europe/Paris');
    expect(s.a_item).toEqual([1, 2, 3, 4, 1]);
    expect(s.a_num).toEqual([4.5, null, null, null, 2]);
    expect(s.a_choices).toEqual([[], [7, 8], [], [], []]);
    expect(s.a_date).toEqual([null, null, null, '2026-01-15', null]);
    expect(s.a_text).toEqual(['', '', 'Some text', '2026-01-15', '']);
    expect([s.d_created, s.d_updated, s.d_completed, s.d_uploaded]).toEqual([
      '2026-02-01',
      '2026-02-01',
      NO_DAY,
      '2026-02-01',
    ]);
    expect([s.user_id, s.site_id, s.group_id, s.team_id]).toEqual([3, 2, 0, 0]);
  });
});

describe('changesOf', () => {
  const tz = () => 'UTC';
  it('counts a new response once', () => {
    const { changes, states } = changesOf([event(1)], new Map(), tz);
    expect(changes.map((c) => [c.version, c.sign])).toEqual([[1, 1]]);
    expect(states.map((s) => s.version)).toEqual([1]);
  });

  it('retracts the counted version and adds the newest of the batch only', () => {
    const counted = new Map([[stateKey(1, '1-1-1-d-1'), stateOf(event(1), 'UTC')]]);
    const { changes } = changesOf([event(3), event(2), event(3)], counted, tz);
    expect(changes.map((c) => [c.version, c.sign])).toEqual([
      [1, -1],
      [3, 1],
    ]);
  });

  it('changes nothing for a redelivered or an older version', () => {
    const counted = new Map([[stateKey(1, '1-1-1-d-1'), stateOf(event(2), 'UTC')]]);
    expect(changesOf([event(2), event(1)], counted, tz)).toEqual({ changes: [], states: [] });
  });
});
