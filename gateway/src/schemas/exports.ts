// Request schemas of the export and import routes (routes/exports.ts; spec 001 §7 Export and Import).
import { body, flag, optText, params, query } from './common.js';

const mapping = {
  file_identifier: optText(200),
  schema: { type: ['integer', 'null'], minimum: 0, maximum: 2_147_483_647 },
  schema_id: { type: ['integer', 'null'], minimum: 0, maximum: 2_147_483_647 },
  /** Column header → question: an object (checked by the exports service against the form). */
  label_map: { type: ['object', 'null'] },
  mapped_columns: { type: ['object', 'null'] },
  dropped_columns: { type: ['array', 'null'], maxItems: 1000, items: { type: 'string', maxLength: 1000 } },
  value_delimiter: optText(10),
  import_current: flag,
  device_id: optText(200),
  lang: optText(20),
} as const;

export const exportSchemas = {
  projectParams: params('id'),
  jobParams: params('jobId'),
  exportQuery: query({
    schema: 'The schema to export (an id; none: the first level).',
    lang: 'The language of the labels (ISO 639-1).',
    wait: '0: answer at once with the job; else wait up to 10 s for the file.',
    profile: 'A lookup profile: only that respondent’s responses.',
  }),
  /** The import request: the mapping at the top level, or inside `data` as the spec's web app sends it. */
  import: body({ ...mapping, data: { type: ['object', 'null'], additionalProperties: true, properties: mapping } }),
} as const;
