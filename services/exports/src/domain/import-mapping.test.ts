import { describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import { exportColumns } from './columns.js';
import {
  importedResponseId,
  mediaKey,
  parseTime,
  placesOf,
  resolveMapping,
  rowToPayload,
  suggestMapping,
  type RowContext,
} from './import-mapping.js';

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
  const photo = addItem(note.body, b.id, 'image', 'en', 'Photo');
  body = photo.body;
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
      photo: photo.id,
    },
  };
}

describe('import mapping (spec 001 §7 Import)', () => {
  const { body, ids } = form();
  const places = placesOf({ sites: [{ id: 7, name: 'North' }], groups: [], teams: [{ id: 9, name: 'Blue' }] });

  it('recognises every column of a named and a coded export', () => {
    for (const mode of ['named', 'coded'] as const) {
      const headers = exportColumns(body, mode, 'en').map((c) => c.header);
      const targets = suggestMapping(body, headers);
      expect(
        targets.every((t) => t !== undefined),
        `${mode}: ${headers.filter((_, i) => !targets[i]).join(', ')}`,
      ).toBe(true);
      const items = targets.filter((t) => t?.kind === 'item');
      expect(items).toHaveLength(7); // six questions, the geotag in two parts
    }
  });

  it('maps by label_map and mapped_columns, drops columns, and refuses unknown names and doubles', () => {
    const headers = ['A', 'B', 'C', 'D'];
    const ok = resolveMapping(body, headers, {
      labelMap: { A: 'Members', B: body.entities.items[ids.fuel]!.codeName },
      mappedColumns: { C: `${ids.where}_lat` },
      droppedColumns: ['D'],
    });
    expect(ok.errors).toEqual({});
    expect(ok.targets.map((t) => (t?.kind === 'item' ? `${t.item.id}${t.part ?? ''}` : t?.kind))).toEqual([
      String(ids.members),
      String(ids.fuel),
      `${ids.where}lat`,
      'ignored',
    ]);
    const bad = resolveMapping(body, headers, {
      labelMap: { A: 'Nope', Z: 'Members' },
      mappedColumns: { B: ids.members },
    });
    expect(bad.errors.label_map).toEqual([
      'Column "A": no question or response field of this form is "Nope".',
      'The file has no column "Z".',
    ]);
    const twice = resolveMapping(body, ['Members', 'Other'], { labelMap: { Other: 'Members' } });
    expect(twice.errors.non_field_errors).toEqual(['Two columns are mapped to "Other"\'s question.']);
  });

  const ctx = (headers: string[], over: Partial<RowContext> = {}): RowContext => ({
    body,
    projectId: 3,
    schemaId: 4,
    targets: suggestMapping(body, headers),
    headers,
    places,
    valueDelimiter: ' | ',
    importCurrent: false,
    deviceId: 'dev',
    ...over,
  });

  it('reads cells the way exports write them', () => {
    const headers = [
      'response_id',
      'Site',
      'Team',
      'completed',
      'time_created',
      'Members',
      'Fuel',
      'Visit',
      'Where (latitude)',
      'Where (longitude)',
      'Note',
      'Photo',
    ];
    const out = rowToPayload(
      ctx(headers),
      [
        '9-9-x',
        'North',
        '9',
        '1',
        '2026-11-20 10:11:12',
        '4',
        `Wood | ${body.entities.choices[ids.gas]!.codeName}`,
        '2026-11-01',
        '48.5',
        '2.25',
        '=1+1',
        'https://s3/bucket/images/3/r/k-a%20b.png?X-Amz=1',
      ],
      1,
    );
    expect(out.problems).toEqual({});
    expect(out.action).toBe('complete');
    expect(out.payload).toMatchObject({
      project: 3,
      sampler_schema: 4,
      site: 7,
      team: 9,
      device_id: 'dev',
      time_created: '2026-11-20T10:11:12.000Z',
      response_id: importedResponseId(3, 4, 'id:9-9-x'),
      data: {
        '0': {
          [ids.members]: 4,
          [ids.fuel]: [ids.wood, ids.gas],
          [ids.visit]: '2026-11-01',
          [ids.where]: { type: 'Point', coordinates: [2.25, 48.5] },
          [ids.note]: '=1+1',
          [ids.photo]: 'images/3/r/k-a b.png',
        },
      },
    });
    // import_current keeps an id of this project and form.
    expect(rowToPayload(ctx(headers, { importCurrent: true }), ['3-4-abc'], 1).payload?.response_id).toBe('3-4-abc');
  });

  it('reports each bad cell by its column, with sampler checks too', () => {
    const headers = ['Members', 'Fuel', 'Visit', 'Where (latitude)', 'Site', 'completed', 'time_updated'];
    const out = rowToPayload(ctx(headers), ['x', 'Coal', '2026-02-30', '10', 'South', 'maybe', 'yesterday'], 2);
    expect(out.payload).toBeUndefined();
    expect(out.problems).toEqual({
      Members: 'Enter a number.',
      Fuel: '"Coal" is not a choice of this question.',
      Visit: 'Enter a date as YYYY-MM-DD.',
      'Where (latitude)': 'Give both latitude and longitude, or neither.',
      Site: 'No site of this project is "South".',
      completed: 'Enter 1 or 0 (or yes/no, true/false).',
      time_updated: 'Enter a time as YYYY-MM-DD HH:mm:ss (UTC).',
    });
  });

  it('gives a row the same id on every import, and different rows different ids', () => {
    const headers = ['Members'];
    const a = rowToPayload(ctx(headers), ['1'], 1).payload!.response_id;
    expect(rowToPayload(ctx(headers, { deviceId: 'other' }), ['1'], 1).payload!.response_id).toBe(a);
    expect(rowToPayload(ctx(headers), ['1'], 2).payload!.response_id).not.toBe(a);
    expect(rowToPayload(ctx(headers), ['2'], 1).payload!.response_id).not.toBe(a);
  });

  it('parses times and media links', () => {
    expect(parseTime('2026-11-20')).toBe('2026-11-20T00:00:00.000Z');
    expect(parseTime('2026-11-20T01:02:03+02:00')).toBe('2026-11-19T23:02:03.000Z');
    expect(parseTime(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    expect(parseTime('20/11/2026')).toBeUndefined();
    expect(mediaKey('/api/files/signatures/1/r/x.png?sig=1')).toBe('signatures/1/r/x.png');
    expect(mediaKey('plain')).toBe('plain');
  });
});
