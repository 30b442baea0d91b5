// Request schemas of the export and import routes (routes/exports.ts; spec 001 §7 Export and Import).
import { body, flag, noBody, openObject, optText, params, query } from './common.js';
import { ref } from './records.js';

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
  exportQuery: query(
    {
      schema: 'The schema to export (an id; none: the first level).',
      lang: 'The language of the labels (ISO 639-1).',
      profile: 'A lookup profile: only that respondent’s responses.',
    },
    {
      // Any other value is refused: it used to be read as "wait".
      wait: {
        type: 'string',
        enum: ['0', '1'],
        description: '0: answer at once with the job; 1 (or none): wait up to 10 s for the file.',
      },
      layout: {
        type: 'string',
        enum: ['wide', 'long'],
        description:
          'Repeats: wide (default) writes a column per repeat instance (a long table past 20); long writes a row per response and instance.',
      },
    },
  ),
  /** The import request: the mapping at the top level, or inside `data` as the spec's web app sends it. */
  import: body({ ...mapping, data: { type: ['object', 'null'], additionalProperties: true, properties: mapping } }),
  /** Refresh the export files, enable or disable SQL access, cancel a job: no body. */
  noBody,

  /** Answers. An export finished within the wait: its file's url and the job. */
  exportDone: openObject({ url: { type: ['string', 'null'] }, job: ref('Job') }),
  /** An export or import still running (202): the job to follow with GET exports/jobs/{id}/. */
  jobQueued: openObject({ job: ref('Job'), url: { type: 'null' } }),
  /** The mapping screen's preview: the file's columns, its first rows and what is wrong with the mapping. */
  importPreview: openObject({
    columns: {
      type: 'array',
      items: openObject({
        header: { type: 'string' },
        target_kind: { type: 'string' },
        item_id: { type: 'integer' },
        target: { type: 'string' },
        label: { type: 'string' },
      }),
    },
    rows: { description: 'The first rows of the file as lists of cells' },
    errors: { description: 'Field errors of the mapping ({} when it is fine)' },
    row_problems: { description: 'Problems of each previewed row by column header' },
    questions: { description: 'The questions a column may be mapped to: [{id, code, label, type}]' },
  }),
  /** SQL access for BI tools: where to connect; the password only in the answer that enables it. */
  sqlAccess: openObject({
    enabled: { type: 'boolean' },
    host: { type: 'string' },
    port: { type: 'integer' },
    database: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    view: { type: 'string' },
    time_created: { type: 'string' },
  }),
  sqlDisabled: openObject({ enabled: { type: 'boolean' } }),
} as const;
