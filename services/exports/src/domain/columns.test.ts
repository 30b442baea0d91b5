import { describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import {
  answerCell,
  dictionaryRows,
  exportColumns,
  exportLayout,
  isFileOfResponse,
  longRows,
  MULTI_DELIMITER,
  REPEAT_COLUMN_LIMIT,
  time,
  type ExportResponse,
  type Names,
} from './columns.js';

function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const members = addItem(b.body, b.id, 'number', 'en', 'Members');
  const fuel = addItem(members.body, b.id, 'choice', 'en', 'Fuel');
  let body = updateItem(fuel.body, fuel.id, {
    options: { ...fuel.body.entities.items[fuel.id]!.options, multiselect: true },
  });
  const gas = addChoice(body, fuel.id, 'en', 'Gas');
  const wood = addChoice(gas.body, fuel.id, 'en', 'Wood');
  const visit = addItem(wood.body, b.id, 'date', 'en', 'Visit');
  const where = addItem(visit.body, b.id, 'geotag', 'en', 'Where');
  const note = addItem(where.body, b.id, 'open', 'en', 'Note');
  body = note.body;
  return {
    body,
    ids: {
      members: members.id,
      fuel: fuel.id,
      gas: gas.id,
      wood: wood.id,
      visit: visit.id,
      where: where.id,
      note: note.id,
    },
  };
}

const names: Names = {
  site: (id) => `Site ${id}`,
  group: (id) => `Group ${id}`,
  team: (id) => `Team ${id}`,
  user: (id) => `User ${id}`,
};

describe('export columns (spec 001 §7 Exports)', () => {
  const { body, ids } = form();
  const response: ExportResponse = {
    response_id: 'r1',
    parent_id: null,
    user_id: 4,
    site_id: 2,
    group_id: null,
    team_id: 0,
    device_id: 'web',
    completed: true,
    time_created: new Date('2026-03-04T05:06:07.890Z'),
    time_updated: '2026-03-04T05:07:00Z',
    time_completed: null,
    time_uploaded: null,
    geotag: { coordinates: [2.35, 48.85] },
    data: {
      '0': {
        [ids.members]: 4,
        [ids.fuel]: [ids.gas, ids.wood],
        [ids.visit]: '2026-03-01',
        [ids.where]: { type: 'Point', coordinates: [3.5, 45.25] },
        [ids.note]: '=HYPERLINK("x")',
      },
    },
  };
  it('puts response fields first, then questions in form order, named or coded', () => {
    const named = exportColumns(body, 'named', 'en');
    expect(named.map((c) => c.header).slice(14)).toEqual([
      'Members',
      'Fuel',
      'Visit',
      'Where (latitude)',
      'Where (longitude)',
      'Note',
    ]);
    expect(named.map((c) => c.cell(response, names))).toEqual([
      'r1',
      '',
      'Site 2',
      '',
      '',
      'User 4',
      'web',
      1,
      '2026-03-04 05:06:07',
      '2026-03-04 05:07:00',
      '',
      '',
      48.85,
      2.35,
      4,
      `Gas${MULTI_DELIMITER}Wood`,
      '2026-03-01',
      45.25,
      3.5,
      '=HYPERLINK("x")',
    ]);
    const coded = exportColumns(body, 'coded', 'en');
    const codes = Object.fromEntries(Object.values(body.entities.choices).map((c) => [c.id, c.codeName]));
    expect(coded.map((c) => c.header).slice(2, 6)).toEqual(['site_id', 'group_id', 'team_id', 'user_id']);
    expect(coded[15]!.cell(response, names)).toBe(`${codes[ids.gas]}${MULTI_DELIMITER}${codes[ids.wood]}`);
    expect(coded[2]!.cell(response, names)).toBe(2);
  });
  it('keeps numbers as numbers and text as it is (the CSV writer guards text), and formats dates and times', () => {
    const item = body.entities.items[ids.members]!;
    expect(answerCell(body, item, -5, 'named', 'en')).toBe(-5);
    expect(answerCell(body, item, '=5', 'named', 'en')).toBe('=5');
    expect(answerCell(body, body.entities.items[ids.visit]!, '2026-12-31T10:00:00Z', 'named', 'en')).toBe('2026-12-31');
    expect(answerCell(body, item, undefined, 'named', 'en')).toBe('');
    expect(time('not a date')).toBe('');
  });
  it('writes times and dates the same on the fast path for ISO text as through a Date', () => {
    expect(time('2026-01-02T03:04:05.678Z')).toBe('2026-01-02 03:04:05');
    expect(time('2026-01-02T03:04:05Z')).toBe('2026-01-02 03:04:05');
    expect(time(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02 03:04:05');
    // Days past the 28th go through Date as before (which rolls 30 February over), invalid months are refused.
    expect(time('2026-02-30T00:00:00.000Z')).toBe('2026-03-02 00:00:00');
    expect(time('2026-13-01T00:00:00.000Z')).toBe('');
    expect(time('2026-01-02T03:04:05+02:00')).toBe('2026-01-02 01:04:05');
    const visit = body.entities.items[ids.visit]!;
    expect(answerCell(body, visit, '2025-02-28', 'named', 'en')).toBe('2025-02-28');
    expect(answerCell(body, visit, '2025-02-29', 'named', 'en')).toBe('2025-03-01');
    expect(answerCell(body, visit, '2025-13-01', 'named', 'en')).toBe('2025-13-01');
  });
  it('describes every column in the data dictionary', () => {
    const rows = dictionaryRows(body, 'en');
    expect(rows[0]).toEqual(['column', 'code', 'label', 'type', 'required', 'choices (code = label)']);
    const fuel = rows.find((r) => r[0] === 'Fuel')!;
    expect(fuel[3]).toBe('choice');
    expect(fuel[5]).toMatch(/= Gas \| .* = Wood$/);
    expect(rows.filter((r) => r[2] === 'Where')).toHaveLength(2);
    expect(rows).toHaveLength(exportColumns(body, 'named', 'en').length + 1);
  });
});

describe('repeats', () => {
  const { body, ids } = form();
  const names: Names = { site: String, group: String, team: String, user: String };
  const row = (data: ExportResponse['data']): ExportResponse => ({
    response_id: 'r',
    parent_id: null,
    user_id: 1,
    site_id: null,
    group_id: null,
    team_id: null,
    device_id: 'd',
    completed: false,
    time_created: '2026-01-01T00:00:00Z',
    time_updated: '2026-01-01T00:00:00Z',
    time_completed: null,
    time_uploaded: null,
    geotag: null,
    data,
  });

  it('adds a column per further instance of a question answered in repeats, up to REPEAT_COLUMN_LIMIT', () => {
    const cols = exportColumns(body, 'coded', 'en', new Map([[ids.members, 2]]));
    const members = cols.filter((c) => c.item?.id === ids.members);
    expect(members.map((c) => c.header)).toEqual(['members', 'members [2]', 'members [3]']);
    const r = row({ '0': { [ids.members]: 4 }, '2': { [ids.members]: 6 } });
    expect(members.map((c) => c.cell(r, names))).toEqual([4, '', 6]);
    const capped = exportColumns(body, 'coded', 'en', new Map([[ids.members, 99]]));
    expect(capped.filter((c) => c.item?.id === ids.members)).toHaveLength(REPEAT_COLUMN_LIMIT);
  });

  it('turns to a long table past the limit: one row per instance, a repeat column', () => {
    expect(exportLayout(new Map([[ids.members, REPEAT_COLUMN_LIMIT - 1]]))).toBe('wide');
    expect(exportLayout(new Map([[ids.members, REPEAT_COLUMN_LIMIT]]))).toBe('long');
    expect(exportLayout(new Map(), 'long')).toBe('long');
    const cols = exportColumns(body, 'coded', 'en', new Map([[ids.members, 30]]), 'long');
    expect(cols.map((c) => c.header).filter((h) => h.startsWith('members') || h === 'repeat')).toEqual([
      'repeat',
      'members',
    ]);
    const rows = longRows(row({ '2': { [ids.members]: 6 }, '0': { [ids.members]: 4 } }));
    const repeat = cols.find((c) => c.header === 'repeat')!;
    const members = cols.find((c) => c.header === 'members')!;
    expect(rows.map((r) => [repeat.cell(r, names), members.cell(r, names)])).toEqual([
      [0, 4],
      [2, 6],
    ]);
  });
});

describe('file answers in an export', () => {
  it('links only keys shaped as a file of the row own response', () => {
    expect(isFileOfResponse('images/7/7-2-r_1/0f-door.png', 7, '7-2-r:1')).toBe(true);
    expect(isFileOfResponse('signatures/7/7-2-r1/0f-sig.png', 7, '7-2-r1')).toBe(true);
    for (const k of [
      'images/7/../125/x.png',
      'images/7/7-2-r1/../x.png',
      'images/7/7-2-r1/..',
      'images/7/7-2-r2/0f-door.png',
      'images/8/7-2-r1/0f-door.png',
      'images/7/7-2-r1/a/b.png',
      'exports/7/1/named.csv',
      'images/7/7-2-r1/x\\y.png',
    ])
      expect(isFileOfResponse(k, 7, '7-2-r1'), k).toBe(false);
  });
});
