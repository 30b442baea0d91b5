// Request schemas of the collection link (survey) and reference routes (routes/collection.ts; spec 000 §7 Projects).
import { INT32_MAX } from '../schemas.js';
import { body, date, params, ref, text } from './common.js';

export const collectionSchemas = {
  projectParams: params('id'),
  surveyParams: params('id', 'surveyId'),
  /** A collection link: until when, and for which site (absent or null: none; another: "Invalid Project or Site Id!"). */
  survey: body({ expiry_date: date, site: { type: ['integer', 'null'], maximum: INT32_MAX } }),
  /** Add or remove a referenced project: {id, action: "add"}. */
  reference: body({ id: ref, action: text(20) }),
} as const;
