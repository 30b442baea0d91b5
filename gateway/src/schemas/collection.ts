// Request schemas of the collection link (survey) and reference routes (routes/collection.ts; spec 000 §7 Projects).
import { INT32_MAX } from '../schemas.js';
import { body, date, noBody, optText, params, ref, text } from './common.js';

export const collectionSchemas = {
  projectParams: params('id'),
  surveyParams: params('id', 'surveyId'),
  /**
   * A collection link: until when, and for which site (absent or null: none; another: "Invalid Project or Site Id!");
   * its kind (anonymous or survey; absent or null: survey), a name, and whether an anonymous link's respondents may
   * answer without logging in (absent or null: they may). A survey link needs an expiry date; an anonymous link may
   * have none (it never expires). The projects service checks the values and answers field errors.
   */
  survey: body({
    expiry_date: date,
    site: { type: ['integer', 'null'], maximum: INT32_MAX },
    kind: optText(20),
    name: optText(100),
    proceed_unauthenticated: { type: ['boolean', 'null'] },
  }),
  /** Add or remove a referenced project: {id, action: "add"}. */
  reference: body({ id: ref, action: text(20) }),
  /** Revoke or expire a collection link: nothing but the path. */
  revoke: noBody,
} as const;
