// Request schemas of the results routes (routes/results.ts; spec 001 §7 Results, advanced results, shared items).
import { boundedInt } from '../schemas.js';
import {
  anyJson,
  body,
  flag,
  openObject,
  optNumber,
  optText,
  params,
  query as queryOf,
  ref,
  refList,
  text,
} from './common.js';

/** Spec 001 §9 aggregators (the results service checks them again). */
const AGGREGATORS = ['sum', 'avg', 'count', 'min', 'max', 'stddev', 'var'] as const;

/**
 * The comparisons of a results query, each answered per item (`comparisons`, the first also as `comparison`): by
 * site, group, team, collector, a choice question (item_id) or a period; each keeps at most `limit` groups (default
 * 50, at most 100: the largest, or the latest periods) and reports the rest as `capped: {limit, groups, other}`.
 * The list's length is bounded by limits.ts (boundComparisons); the fields are checked by the results service.
 */
const comparisons = () => ({
  description:
    'A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}.',
  type: ['array', 'null'],
  items: { type: 'object' },
});

/**
 * The query of every results call (with or without a login): filters and comparisons as the results screens build
 * them (bounded by limits.ts), numbers bounded before they reach an int32 field; the results service draws 1 to
 * 100 histogram buckets (0: its default). No body is an empty query.
 */
const query = {
  filters: anyJson,
  comparisons: comparisons(),
  /** Spec 001 §9: the value shown per item and per comparison group (items whose type does not take it: count). */
  aggregator: { type: ['string', 'null'], enum: [...AGGREGATORS, null] },
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
   * A page of profiles, searched on the server (the results service bounds limit to 100 and offset to 1,000,000 with
   * a field message; a number of 10 digits or more, or not a number, is refused here).
   */
  lookupsQuery: queryOf(
    {},
    {
      q: {
        type: 'string',
        maxLength: 200,
        description: 'Only profiles whose lookup or primary-key answer holds this (case-insensitive).',
      },
      limit: { type: 'string', pattern: '^[0-9]{1,9}$', description: 'Profiles a page, 1 to 100 (default 50).' },
      offset: { type: 'string', pattern: '^[0-9]{1,9}$', description: 'Profiles to skip (default 0).' },
    },
  ),
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
