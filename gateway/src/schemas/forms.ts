// Request schemas of the form routes (routes/forms.ts; spec 001 §7 Schema and create-form-from-upload).
import { body, fileReply, flag, noBody, openObject, optText, params, ref } from './common.js';
import { ref as record } from './records.js';
import { optBoundedInt } from '../schemas.js';

export const formSchemas = {
  schemaParams: params('id'),
  versionParams: params('id', 'versionId'),
  projectParams: params('id'),
  /**
   * A save: the form document itself (form, counters, entities, languages…; checked whole by the forms service, with
   * per-item messages), its revision (the one the editor started from; 0 or none: any) and its name.
   */
  save: body({ revision: optBoundedInt(0), name: optText(500) }),
  /** A form from an uploaded file: the file (file_identifier, or file_id), the schema to fill (none: the first level's), and the confirmation a replacement of forms with responses needs. */
  convert: body({ file_identifier: optText(200), file_id: optText(200), schema: ref, confirm: flag }),
  /** Put an earlier version back: nothing but the path. */
  restore: noBody,

  /** Answers. */
  xlsForm: fileReply(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'The form as an XLSForm workbook (an attachment)',
  ),
  languages: openObject({
    results: {
      type: 'array',
      items: openObject({ iso_code_1: { type: 'string' }, name: { type: 'string' }, native_name: { type: 'string' } }),
    },
    count: { type: 'integer' },
  }),
  /** The forms a file made: the one filled (null: none), those of the levels below it, and what the file lost. */
  converted: openObject({
    schema: { anyOf: [record('SamplerSchema'), { type: 'null' }] },
    levels: { type: 'array', items: record('SamplerSchema') },
    notes: {
      type: 'array',
      items: openObject({
        sheet: { type: 'string' },
        row: { type: 'integer' },
        message: { type: 'string' },
        column: { type: 'string' },
      }),
    },
    format: { type: 'string' },
    questions: { type: 'integer' },
    summary: { type: 'string' },
  }),
  versions: openObject({
    results: {
      type: 'array',
      items: openObject({
        id: { type: 'integer', description: 'The revision this version was saved as' },
        time_saved: { type: 'string' },
        name: { type: 'string' },
        questions: { type: 'integer' },
      }),
    },
    count: { type: 'integer' },
  }),
} as const;
