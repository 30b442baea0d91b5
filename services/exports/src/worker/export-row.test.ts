// A page row from the responses service (responses.ExportRow) reads as the export columns read the JSON rows before.
import { describe, expect, it } from 'vitest';
import { responses } from '@fieldwork/proto';
import { exportResponse } from './run-export.js';

const overTheWire = (m: Parameters<typeof responses.ExportRow.fromPartial>[0]) =>
  responses.ExportRow.decode(responses.ExportRow.encode(responses.ExportRow.fromPartial(m)).finish());

describe('exportResponse', () => {
  it('keeps every value, and null where the response has none', () => {
    const full = overTheWire({
      response_id: '1-2-3',
      schema_id: 2,
      parent_id: '1-1-9',
      user_id: 7,
      site_id: 0,
      group_id: 4,
      team_id: 5,
      device_id: 'd',
      completed: true,
      time_created: '2026-01-01T00:00:00.000Z',
      time_updated: '2026-01-02T00:00:00.000Z',
      time_completed: '2026-01-03T00:00:00.000Z',
      time_uploaded: '2026-01-04T00:00:00.000Z',
      geotag: { type: 'Point', coordinates: [13.4, 52.5], timestamp: '2026-01-01T00:00:00.000Z' },
      data_json: '{"0":{"11":"yes","12":[1,2]}}',
    });
    expect(exportResponse(full)).toMatchObject({
      parent_id: '1-1-9',
      site_id: 0,
      group_id: 4,
      team_id: 5,
      time_completed: '2026-01-03T00:00:00.000Z',
      geotag: { coordinates: [13.4, 52.5] },
      data: { '0': { '11': 'yes', '12': [1, 2] } },
    });
    const bare = exportResponse(overTheWire({ response_id: '1-2-4', data_json: '{}' }));
    expect(bare).toMatchObject({
      parent_id: null,
      user_id: 0,
      site_id: null,
      group_id: null,
      team_id: null,
      time_completed: null,
      geotag: null,
      data: {},
    });
  });
});
