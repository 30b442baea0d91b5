// Request and answer schemas of the summary, performance and tracking views (routes/views.ts; spec 001 §2 filter
// sets; issue 20). The filter sets are strict: a filter the view does not offer is refused with 400.
import { boundedInt } from '../schemas.js';
import { body, optText, params, query, ref, refList } from './common.js';

const ids = refList(1000);
/** Summary and performance: site (default), group, team, collector, created by. */
const filters = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { site: ids, group: ids, team: ids, collector: ids, createdBy: ids },
} as const;
/** Tracking: site, group, team (and the permanent date range, beside them). */
const trackingFilters = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { site: ids, group: ids, team: ids },
} as const;
const day = {
  type: ['string', 'null'],
  pattern: '^(\\d{4}-\\d{2}-\\d{2})?$',
  description: 'YYYY-MM-DD (inclusive); empty or null: no bound',
} as const;
const common = {
  /** The schema (level) of the project (0 or null: every schema). */
  schema: ref,
  /** The page of each table, 1-based, and its size (default 50, at most 200). */
  page: boundedInt(1, 1_000_000),
  page_size: boundedInt(1, 200),
  time_zone: optText(64),
};

const n = { type: 'integer' } as const;
const s = { type: 'string' } as const;
const nNum = { type: ['number', 'null'] } as const;
const nInt = { type: ['integer', 'null'] } as const;
const obj = (properties: Record<string, unknown>) =>
  ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties }) as const;

export const viewTotals = obj({
  responses: n,
  completed: n,
  in_progress: n,
  deleted: n,
  first_response: { type: ['string', 'null'] },
  last_response: { type: ['string', 'null'] },
  collectors: n,
  sites: n,
});
export const viewRow = obj({
  id: n,
  name: s,
  responses: n,
  completed: n,
  first_response: { type: ['string', 'null'] },
  last_response: { type: ['string', 'null'] },
  last_activity: { type: ['string', 'null'] },
  avg_duration_s: nNum,
  median_duration_s: nNum,
  collectors: n,
  target: n,
  percent: nNum,
  expected: nInt,
  parent_id: nInt,
});
const table = obj({ results: { type: 'array', items: viewRow }, count: n });

export const viewSchemas = {
  params: params('id'),
  summaryBody: body({ filters, ...common }),
  performanceBody: body({
    filters,
    ...common,
    period: { type: ['string', 'null'], enum: ['day', 'week', 'month', null] },
  }),
  trackingBody: body({ filters: trackingFilters, ...common, start_date: day, end_date: day }),
  summary: obj({
    totals: viewTotals,
    by_site: table,
    advanced_results: {
      type: 'array',
      items: obj({
        id: n,
        name: s,
        description: s,
        value: nNum,
        error: { type: ['string', 'null'] },
        status: { type: 'string', enum: ['above', 'below', 'within', 'none'] },
        threshold_value_upper: nNum,
        threshold_value_lower: nNum,
        display_type: s,
      }),
    },
  }),
  performance: obj({
    totals: viewTotals,
    by_collector: table,
    by_site: table,
    period: { type: 'string', enum: ['day', 'week', 'month'] },
    series: { type: 'array', items: obj({ period: s, responses: n, completed: n }) },
    series_truncated: { type: 'boolean' },
  }),
  /** The collector pickers: people with responses the caller sees, searched by name on the server. */
  collectorsQuery: query(
    {},
    {
      q: { type: 'string', maxLength: 200, description: 'Words every name holds (accents and case ignored).' },
      limit: { type: 'string', pattern: '^[0-9]{1,9}$', description: 'People a page, 1 to 100 (default 50).' },
      offset: { type: 'string', pattern: '^[0-9]{1,9}$', description: 'People to skip (default 0).' },
    },
  ),
  collectors: obj({
    results: { type: 'array', items: obj({ id: n, name: s, responses: n }) },
    count: n,
  }),
  tracking: obj({
    project: viewRow,
    by_site: table,
    by_group: table,
    by_team: table,
    start_date: { type: ['string', 'null'] },
    end_date: { type: ['string', 'null'] },
  }),
} as const;
