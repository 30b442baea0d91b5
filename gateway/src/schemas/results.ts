// Request schemas of the results routes (routes/results.ts; spec 001 §7 Results, advanced results, shared items).
import { boundedInt } from '../schemas.js';
import { anyJson, body, flag, openObject, optNumber, optText, params, ref, refList, text } from './common.js';

/**
 * The query of every results call (with or without a login): filters and comparisons as the results screens build
 * them (bounded by limits.ts), numbers bounded before they reach an int32 field; the results service draws 1 to
 * 100 histogram buckets (0: its default). No body is an empty query.
 */
const query = {
  filters: anyJson,
  comparisons: anyJson,
  buckets: boundedInt(0, 100),
  timing_column: optText(200),
  time_zone: optText(64),
  item_ids: refList(),
  /** Profile results and advanced results: the schema shown (0: every schema) and the block. */
  schema: ref,
  block: ref,
};

export const resultSchemas = {
  projectParams: params('id'),
  schemaParams: params('id', 'schemaId'),
  blockParams: params('id', 'schemaId', 'blockId'),
  itemParams: params('id', 'schemaId', 'itemId'),
  profileParams: params('id', 'schemaId', 'profile'),
  advancedParams: params('id', 'arId'),
  tokenParams: params('token'),
  query: body(query),
  /**
   * An advanced result's definition. The formula is checked by the results service (its own length and nesting
   * bounds, with the formula messages), so no length is set here.
   */
  advanced: body({
    name: text(200),
    description: optText(5000),
    threshold_value_upper: optNumber,
    threshold_value_lower: optNumber,
    formula: { type: 'string' },
    editor_state: anyJson,
    show_on_project_summary: flag,
    show_on_site_summary: flag,
    display_type: optText(50),
    editMode: flag,
    edit_mode: flag,
  }),

  /** Answers. A shared item's link token and its lifetime in seconds. */
  shareReply: openObject({ token: { type: 'string' }, expires_in: { type: 'integer' } }),
  responseIds: openObject({ response_ids: { type: 'array', items: { type: 'string' } } }),
  advancedList: openObject({ results: { type: 'array', items: { $ref: 'AdvancedResult#' } } }),
} as const;
