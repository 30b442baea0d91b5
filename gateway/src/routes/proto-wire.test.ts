// Answers built from typed proto messages (once JSON strings) are the JSON the API answered before: each message goes
// through the proto codec (encoded as a service sends it, decoded as the gateway receives it), then to JSON.
import { describe, expect, it } from 'vitest';
import { exports_, responses } from '@fieldwork/proto';
import { jobJson, jobResult, previewJson } from './exports.js';
import { responseJson } from './responses.js';

/** The message as the gateway receives it: encoded by the service, decoded here. */
const responseOverTheWire = (m: Partial<responses.Response>) =>
  responses.Response.decode(responses.Response.encode(responses.Response.fromPartial(m)).finish());

describe('responseJson', () => {
  it('answers the geotag as GeoJSON, with accuracy and timestamp only when known', () => {
    const m = responseOverTheWire({
      geotag: { type: 'Point', coordinates: [13.4, 52.5], accuracy: 7.5, timestamp: '2026-01-02T03:04:05.000Z' },
      geotag_history: [
        { type: 'Point', coordinates: [1, 2] },
        { type: 'Point', coordinates: [13.4, 52.5], accuracy: 0, timestamp: '2026-01-02T03:04:05.000Z' },
      ],
    });
    const json = JSON.parse(JSON.stringify(responseJson(m))) as Record<string, unknown>;
    expect(JSON.stringify(json.geotag)).toBe(
      '{"type":"Point","coordinates":[13.4,52.5],"accuracy":7.5,"timestamp":"2026-01-02T03:04:05.000Z"}',
    );
    expect(JSON.stringify(json.geotag_history)).toBe(
      '[{"type":"Point","coordinates":[1,2]},' +
        '{"type":"Point","coordinates":[13.4,52.5],"accuracy":0,"timestamp":"2026-01-02T03:04:05.000Z"}]',
    );
  });

  it('answers null and an empty history for a response without a location', () => {
    const json = responseJson(responseOverTheWire({}));
    expect(json.geotag).toBeNull();
    expect(json.geotag_history).toEqual([]);
  });
});

/** The message as the gateway receives it: encoded by the service, decoded here. */
const overTheWire = (m: Parameters<typeof exports_.Job.fromPartial>[0]) =>
  exports_.Job.decode(exports_.Job.encode(exports_.Job.fromPartial(m)).finish());

describe('jobJson', () => {
  it('answers {} for an export and for an import not yet done, and no proto-only field', () => {
    const json = jobJson(overTheWire({ id: 'j1', kind: 'named_csv', status: 'done', url: 'http://x/f.csv' }));
    expect(json.result).toEqual({});
    expect(json.url).toBe('http://x/f.csv');
    expect(json.report_url).toBeNull();
    expect(Object.keys(json)).not.toContain('import_counts');
    expect(Object.keys(json)).not.toContain('users_report');
  });

  it("answers a responses import's counts, zeros included", () => {
    const j = overTheWire({ kind: 'import_responses', import_counts: { stored: 2, failed: 3 } });
    expect(jobJson(j).result).toEqual({ stored: 2, unmodified: 0, ignored: 0, failed: 3 });
    const none = overTheWire({ kind: 'import_responses', import_counts: {} });
    expect(jobJson(none).result).toEqual({ stored: 0, unmodified: 0, ignored: 0, failed: 0 });
  });

  it("answers a users import's report with its rows", () => {
    const j = overTheWire({
      kind: 'import_users',
      users_report: {
        added: 1,
        updated: 0,
        failed: 1,
        rows: [
          { row: 1, email: 'a@example.org', status: 'added', errors: [], user_id: 7 },
          { row: 2, email: 'b@example.org', status: 'failed', errors: ['No site "Atlantis" in this project.'] },
        ],
      },
    });
    expect(jobResult(j)).toEqual({
      added: 1,
      updated: 0,
      failed: 1,
      rows: [
        { row: 1, email: 'a@example.org', status: 'added', errors: [], user_id: 7 },
        {
          row: 2,
          email: 'b@example.org',
          status: 'failed',
          errors: ['No site "Atlantis" in this project.'],
          user_id: 0,
        },
      ],
    });
  });
});

describe('previewJson', () => {
  const overTheWire = (m: Parameters<typeof exports_.ImportPreview.fromPartial>[0]) =>
    exports_.ImportPreview.decode(exports_.ImportPreview.encode(exports_.ImportPreview.fromPartial(m)).finish());

  it('answers the rows, errors, row problems and questions as the JSON the mapping screen reads', () => {
    const p = overTheWire({
      columns: [{ header: 'Where', target_kind: 'field', item_id: 0, target: 'site', label: 'site' }],
      rows: [
        { cells: [{ text: 'North' }, { number: 2.5 }, {}, { flag: true }, { text: '' }, { number: 0 }] },
        { cells: [{ text: 'South' }] },
      ],
      errors: { label_map: { messages: ['Column "X": no such column.', 'Another.'] } },
      row_problems: [{ problems: {} }, { problems: { Hectares: 'Enter a number.' } }],
      questions: [
        { id: 4, code: 'where_lat', label: 'Where (latitude)', type: 'geotag', part: 'lat' },
        { id: 5, code: 'area', label: 'Area', type: 'number' },
      ],
    });
    expect(JSON.stringify(previewJson(p))).toBe(
      JSON.stringify({
        columns: [{ header: 'Where', target_kind: 'field', item_id: 0, target: 'site', label: 'site' }],
        rows: [['North', 2.5, null, true, '', 0], ['South']],
        errors: { label_map: ['Column "X": no such column.', 'Another.'] },
        row_problems: [{}, { Hectares: 'Enter a number.' }],
        questions: [
          { id: 4, code: 'where_lat', label: 'Where (latitude)', type: 'geotag', part: 'lat' },
          { id: 5, code: 'area', label: 'Area', type: 'number' },
        ],
      }),
    );
  });
});
