import { describe, expect, it } from 'vitest';
import { addBlock, addItem, ANSWER_MESSAGES, newSchemaBody, updateBlock } from '@fieldwork/sampler';
import {
  answerPlacementProblems,
  earlyTimes,
  TIME_FLOOR,
  REPEAT_LIMIT,
  SHAPE_MESSAGES,
  clientTime,
  decide,
  nextHistory,
  responseIdFits,
  stateRefusal,
  uploadPayload,
  type Geotag,
  type StoredVersion,
} from './upload.js';

const v = (t: number, data: unknown = { 0: { 1: 2 } }, completed = false): StoredVersion => ({
  time_updated: new Date(t),
  data,
  completed,
  deleted: false,
  locked: false,
  archived: false,
});

describe('decide', () => {
  it('stores new and newer versions, ignores older ones, skips the same one as unmodified', () => {
    expect(decide(undefined, v(1))).toBe('new');
    expect(decide(v(10), v(20, { 0: { 1: 3 } }))).toBe('newer');
    expect(decide(v(20), v(10, { 0: { 1: 3 } }))).toBe('ignored');
    expect(decide(v(10), v(10))).toBe('unmodified');
    expect(decide(v(10), v(20))).toBe('unmodified');
    expect(decide(v(10), v(20, { 0: { 1: 2 } }, true))).toBe('newer');
  });
});

describe('payload', () => {
  it('accepts the spec payload and refuses bad ids and geotags', () => {
    const ok = uploadPayload.safeParse({
      project: 1,
      sampler_schema: 2,
      response_id: '1-2-3-web-1700000000000-1',
      data: { 0: { 5: 'x' } },
      geotag: { type: 'Point', coordinates: [36.8, -1.3] },
    });
    expect(ok.success).toBe(true);
    expect(uploadPayload.safeParse({ project: 1, sampler_schema: 2, response_id: 'bad id', data: {} }).success).toBe(
      false,
    );
    expect(
      uploadPayload.safeParse({
        project: 1,
        sampler_schema: 2,
        response_id: 'x',
        data: {},
        geotag: { type: 'Point', coordinates: [1] },
      }).success,
    ).toBe(false);
    expect(responseIdFits('4-9-1-web-1-1', 4, 9)).toBe(true);
    expect(responseIdFits('5-9-1-web-1-1', 4, 9)).toBe(false);
  });
  it('reads client times and refuses ones from the future', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(clientTime(undefined, now)).toBe(now);
    expect(clientTime('2026-11-22T09:00:00Z', now)?.toISOString()).toBe('2026-11-22T09:00:00.000Z');
    expect(clientTime(Date.parse('2026-11-25T00:00:00Z'), now)).toBeUndefined();
    expect(clientTime('yesterday', now)).toBeUndefined();
  });
});

describe('geotag history', () => {
  const g = (x: number): Geotag => ({ type: 'Point', coordinates: [x, 0] });
  it('keeps at most 10 entries, newest last, without repeating an unchanged point', () => {
    let h: Geotag[] = [];
    for (let i = 0; i < 12; i++) h = nextHistory(h, g(i));
    expect(h).toHaveLength(10);
    expect(h[0]!.coordinates[0]).toBe(2);
    expect(nextHistory(h, g(11))).toHaveLength(10);
    expect(nextHistory(h, g(11))).toBe(h);
  });
});

describe('stateRefusal', () => {
  it('takes nothing in a deleted project, and in a finalized one only changes from those who edit completed responses', () => {
    for (const state of ['P', 'O', 'G']) expect(stateRefusal(state, true, false)).toBeUndefined();
    expect(stateRefusal('D', false, true)).toBe('deleted');
    expect(stateRefusal('F', true, true)).toBe('finalized');
    expect(stateRefusal('F', false, false)).toBe('finalized');
    expect(stateRefusal('F', false, true)).toBeUndefined();
  });
});

describe('answerPlacementProblems', () => {
  const once = addBlock(newSchemaBody('S'), { en: 'Household' });
  const head = addItem(once.body, once.id, 'number', 'en', 'Adults');
  const asked = updateBlock(head.body, once.id, { askOnce: true });
  const people = addBlock(asked, { en: 'People' });
  const age = addItem(people.body, people.id, 'number', 'en', 'Age');
  const gone = addBlock(age.body, { en: 'Dropped' });
  const orphan = addItem(gone.body, gone.id, 'number', 'en', 'Orphan');
  const body = updateBlock(orphan.body, gone.id, { deleted: true } as never);
  it('takes instances 0..n-1 and questions of live categories, a category asked once in instance 0 only', () => {
    expect(answerPlacementProblems(body, { '0': { [head.id]: 2, [age.id]: 30 }, '1': { [age.id]: 4 } })).toEqual({});
    expect(answerPlacementProblems(body, {})).toEqual({});
  });
  it('refuses gaps, made-up instances and more than REPEAT_LIMIT of them', () => {
    expect(answerPlacementProblems(body, { '0': {}, '5': { [age.id]: 1 }, '01': {} })).toEqual({
      '5': SHAPE_MESSAGES.repeats,
      '01': SHAPE_MESSAGES.repeats,
    });
    const many = Object.fromEntries(Array.from({ length: 1999 }, (_, i) => [String(i), { [age.id]: 1 }]));
    const p = answerPlacementProblems(body, many);
    expect(Object.keys(p)).toHaveLength(1999 - REPEAT_LIMIT);
    expect(p[String(REPEAT_LIMIT)]).toBe(SHAPE_MESSAGES.repeats);
    expect(p[String(REPEAT_LIMIT - 1)]).toBeUndefined();
  });
  it('refuses a question of a category asked once in a later instance, and one in no live category', () => {
    expect(answerPlacementProblems(body, { '0': { [orphan.id]: 1 }, '1': { [head.id]: 1 } })).toEqual({
      [`0.${orphan.id}`]: ANSWER_MESSAGES.unknown,
      [`1.${head.id}`]: SHAPE_MESSAGES.once,
    });
  });
});

describe('earlyTimes', () => {
  it('refuses for everyone times before 2000, and for a link times before the link', () => {
    const link = Date.parse('2026-05-01T00:00:00Z');
    const t = (s: string) => new Date(s);
    expect(earlyTimes({ time_created: t('1900-01-01T00:00:00Z'), time_updated: t('2026-05-02T00:00:00Z') })).toEqual({
      time_created: 'floor',
    });
    expect(earlyTimes({ time_created: t('2001-01-01T00:00:00Z'), time_updated: undefined })).toEqual({});
    expect(earlyTimes({ time_created: t('2026-04-01T00:00:00Z') }, link)).toEqual({ time_created: 'link' });
    expect(TIME_FLOOR.toISOString()).toBe('2000-01-01T00:00:00.000Z');
  });
});
