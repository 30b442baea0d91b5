import { describe, expect, it } from 'vitest';
import {
  durationDays,
  hierarchyProblems,
  isValidGeotag,
  normalizeColor,
  normalizeIcon,
  parseDate,
  statusProblem,
  trendProblems,
} from './project.js';
import { rolesFromNames } from './roles.js';

describe('project rules', () => {
  it('validates geotags as points of two coordinates in range', () => {
    expect(isValidGeotag({ latitude: -1.29, longitude: 36.82 })).toBe(true);
    expect(isValidGeotag({ latitude: 91, longitude: 0 })).toBe(false);
    expect(isValidGeotag({ latitude: Number.NaN, longitude: 0 })).toBe(false);
    expect(isValidGeotag(undefined)).toBe(false);
  });
  it('defaults the colour to 5da83d and the icon to place', () => {
    expect(normalizeColor('')).toBe('5da83d');
    expect(normalizeColor('#1E88E5')).toBe('1e88e5');
    expect(normalizeColor('green')).toBeUndefined();
    expect(normalizeIcon('')).toBe('place');
    expect(normalizeIcon('local_pizza')).toBe('local_pizza');
    expect(normalizeIcon('rocket')).toBeUndefined();
  });
  it('refuses going live without a question: "State is invalid"', () => {
    expect(statusProblem('O', 0)).toBe('State is invalid');
    expect(statusProblem('O', 1)).toBeUndefined();
    expect(statusProblem('D', 0)).toBeUndefined();
  });
  it('checks trend series options', () => {
    expect(
      trendProblems(
        { time_particle: 'month', trend_question: 'Q1_1', aggregator: 'avg', trend_question_schema: 1 },
        [1, 2],
      ),
    ).toEqual({});
    // Another project's (or workspace's) form is not this project's trend schema.
    expect(
      trendProblems(
        { time_particle: 'month', trend_question: 'Q1_1', aggregator: 'avg', trend_question_schema: 9 },
        [1, 2],
      ),
    ).toEqual({ trend_question_schema: ['No schema of this project has this id.'] });
    expect(
      Object.keys(
        trendProblems(
          {
            time_particle: 'fortnight',
            trend_question: ' ',
            aggregator: 'median',
            trend_question_schema: 0,
          },
          [1],
        ),
      ).sort(),
    ).toEqual(['aggregator', 'time_particle', 'trend_question']);
  });
  it('parses dates and counts duration days, -1 when not set', () => {
    expect(parseDate('2026-02-30')).toBeUndefined();
    expect(parseDate('2026-03-01T10:00:00Z')).toBe('2026-03-01');
    expect(durationDays('2026-03-01', '2026-03-31')).toBe(30);
    expect(durationDays(null, '2026-03-31')).toBe(-1);
  });
  it('numbers hierarchy levels 0..n-1 and allows several only when hierarchical', () => {
    expect(
      hierarchyProblems(true, [
        { level: 0, name: 'Household', schema_id: 1 },
        { level: 1, name: 'Member', schema_id: 0 },
      ]),
    ).toBeUndefined();
    expect(
      hierarchyProblems(false, [
        { level: 0, name: 'a', schema_id: 1 },
        { level: 1, name: 'b', schema_id: 0 },
      ]),
    ).toMatch(/hierarchical/);
    expect(hierarchyProblems(true, [{ level: 1, name: 'a', schema_id: 1 }])).toMatch(/numbered/);
  });
  it('reads role names, with guest as no role', () => {
    expect(rolesFromNames(['Collector', 'data manager', 'guest', 'boss'])).toEqual({
      roles: {
        project_owner: false,
        project_admin: false,
        researcher: false,
        collector: true,
        data_manager: true,
        staff_admin: false,
      },
      unknown: ['boss'],
    });
    expect(rolesFromNames(['staff admin']).roles.staff_admin).toBe(true);
  });
});
