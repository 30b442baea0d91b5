import { describe, expect, it } from 'vitest';
import { answerValue, chTime, rowsOf, type ResponseEvent } from './rows.js';

const event: ResponseEvent = {
  response_id: '1-2-3-d-1',
  version: 2,
  project: 1,
  schema: 2,
  user: 3,
  site: 4,
  group: null,
  team: null,
  completed: true,
  deleted: false,
  archived: false,
  parent_id: null,
  geotag: { coordinates: [2.35, 48.85] },
  time_created: '2026-01-02T03:04:05.678Z',
  time_updated: '2026-01-02T03:04:06.000Z',
  time_completed: null,
  time_uploaded: '2026-01-02T03:04:07.000Z',
  data: {
    '0': { 10: 4.5, 11: [7, 8], 12: 'hello', 13: '2026-05-01', 14: { type: 'Point', coordinates: [1, 2] }, 15: '' },
  },
  removed: ['0.16'],
};

describe('rows of a response event', () => {
  it('puts each answer in the columns of its kind, with the response fields', () => {
    const { response, answers } = rowsOf(event);
    expect(response).toMatchObject({
      response_id: '1-2-3-d-1',
      version: 2,
      user_id: 3,
      site_id: 4,
      group_id: 0,
      completed: 1,
      lng: 2.35,
      lat: 48.85,
      time_created: '2026-01-02 03:04:05.678',
    });
    expect(answers.map((a) => [a.item_id, a.num, a.choices, a.text, a.date, a.lng, a.removed])).toEqual([
      [10, 4.5, [], '', null, null, 0],
      [11, null, [7, 8], '', null, null, 0],
      [12, null, [], 'hello', null, null, 0],
      [13, null, [], '2026-05-01', '2026-05-01', null, 0],
      [14, null, [], '', null, 1, 0],
      [16, null, [], '', null, null, 1],
    ]);
    expect(answers.every((a) => a.version === 2 && a.site_id === 4)).toBe(true);
  });

  it('keeps booleans as numbers and drops malformed choice ids', () => {
    expect(answerValue(true).num).toBe(1);
    expect(answerValue([1, 'x', -2, 3.5, 4]).choices).toEqual([1, 4]);
    expect(chTime('2026-12-31T23:59:59.999Z')).toBe('2026-12-31 23:59:59.999');
  });
});
