// Request schemas of the form routes (routes/forms.ts; spec 001 §7 Schema and create-form-from-upload).
import { body, flag, optText, params, ref } from './common.js';
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
} as const;
