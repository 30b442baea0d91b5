import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../i18n';
import { distinct, groupName, OTHER, type NameSources } from './labels';

// Every kind holds an entity of id 7 (and the project's owner is user 7): a group's key names an entity of its own
// comparison's kind only. The names are written here, not taken from the code under test.
const sources: NameSources = {
  sites: [
    { id: 7, name: 'North' },
    { id: 8, name: 'South' },
  ],
  groups: [{ id: 7, name: 'Ward A' }],
  teams: [{ id: 7, name: 'Team Blue' }],
  users: [
    { user_id: 7, display_name: 'Demo User', username: 'demo', email: 'demo@example.org' },
    { user_id: 9, display_name: '', username: 'amina', email: 'amina@example.org' },
  ],
  people: new Map([[11, 'Removed Person']]),
  choice: (id) => ({ 7: 'Piped water', 8: 'Well' })[id],
};

describe('names of comparison groups', () => {
  afterEach(() => setLanguage('en'));

  it('names a key from its own comparison kind, never from another kind with the same id', () => {
    expect(groupName({ by: 'question', item_id: 3 }, '7', sources)).toBe('Piped water');
    expect(groupName({ by: 'question', item_id: 3 }, '8', sources)).toBe('Well');
    expect(groupName({ by: 'site' }, '7', sources)).toBe('North');
    expect(groupName({ by: 'group' }, '7', sources)).toBe('Ward A');
    expect(groupName({ by: 'team' }, '7', sources)).toBe('Team Blue');
    expect(groupName({ by: 'collector' }, '7', sources)).toBe('Demo User');
  });

  it('names the anonymous collector and the responses of no site, group or team', () => {
    expect(groupName({ by: 'collector' }, '0', sources)).toBe('Anonymous');
    expect(groupName({ by: 'site' }, '0', sources)).toBe('No site');
    expect(groupName({ by: 'group' }, '0', sources)).toBe('No group');
    expect(groupName({ by: 'team' }, '0', sources)).toBe('No team');
  });

  it('names collectors from the people list past the embedded users, and by username without a display name', () => {
    expect(groupName({ by: 'collector' }, '11', sources)).toBe('Removed Person');
    expect(groupName({ by: 'collector' }, '9', sources)).toBe('amina');
  });

  it('shows an id nothing names with its kind, never as a bare number', () => {
    expect(groupName({ by: 'site' }, '99', sources)).toBe('Site #99');
    expect(groupName({ by: 'group' }, '8', sources)).toBe('Group #8');
    expect(groupName({ by: 'team' }, '8', sources)).toBe('Team #8');
    expect(groupName({ by: 'collector' }, '12', sources)).toBe('Collector #12');
    expect(groupName({ by: 'question', item_id: 3 }, '9', sources)).toBe('Choice #9');
    expect(groupName({ by: 'site' }, '7', {})).toBe('Site #7');
  });

  it('formats periods in the chart date format of their unit', () => {
    expect(groupName({ by: 'period', period: 'month' }, '2026-03-01 00:00:00', sources)).toBe('03-2026');
    expect(groupName({ by: 'period', period: 'day' }, '2026-03-04', sources)).toBe('03-04-2026');
    expect(groupName({ by: 'period', period: 'year' }, '2026-01-01', sources)).toBe('2026');
    expect(groupName({ by: 'period', period: 'decade' }, '2020', sources)).toBe('2020');
    expect(groupName({ by: 'period', period: 'hour' }, '2026-03-04 10:00:00', sources)).toBe('03-04-2026 10:00');
  });

  it('reads a bare day or year as that day or year west of UTC too', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(groupName({ by: 'period', period: 'month' }, '2026-03-01', sources)).toBe('03-2026');
      expect(groupName({ by: 'period', period: 'decade' }, '2020', sources)).toBe('2020');
    } finally {
      process.env.TZ = tz;
      if (tz === undefined) delete process.env.TZ;
    }
  });

  it('names the capped rest Other, whatever the kind', () => {
    expect(groupName({ by: 'collector' }, OTHER, sources)).toBe('Other');
    expect(groupName({ by: 'question', item_id: 3 }, OTHER, sources)).toBe('Other');
  });

  it('speaks the user language', async () => {
    await setLanguage('fr');
    expect(groupName({ by: 'collector' }, '0', sources)).toBe('Anonyme');
    expect(groupName({ by: 'site' }, '0', sources)).toBe('Sans site');
    expect(groupName({ by: 'site' }, '99', sources)).toBe('Site n° 99');
  });

  it('makes equal labels of one axis distinct', () => {
    expect(distinct(['North', 'South', 'North', 'North'])).toEqual(['North', 'South', 'North (2)', 'North (3)']);
    expect(distinct(['A', 'A (2)', 'A'])).toEqual(['A', 'A (2)', 'A (3)']);
    expect(distinct([])).toEqual([]);
  });
});
