// The response filter model (spec 001 §3 Response filter) as sent by the web app; shared by the responses and
// results services. Pure parsing and checks.
import { z } from 'zod';
import { LIMIT_MESSAGES, REQUEST_LIMITS } from './limits.js';

// The list first: z.union takes the first branch that parses, and a coerced number parses [] as Number([]) = 0,
// which read an empty list as "site 0" (no responses at all, and now a 400 for an unknown site).
const ids = z
  .union([
    z.array(z.coerce.number().int()).max(REQUEST_LIMITS.idsPerFilter, LIMIT_MESSAGES.list(REQUEST_LIMITS.idsPerFilter)),
    z.coerce.number().int(),
  ])
  .nullish();

export const FILTER_DATE_TYPES = ['time_created', 'time_updated', 'time_completed', 'time_uploaded'] as const;
export const FILTER_OPERATORS = ['==', '!=', '>', '<', '>=', '<=', 'contains', 'in'] as const;

export const filterModel = z
  .object({
    collector: ids,
    group: ids,
    team: ids,
    site: ids,
    createdBy: z.coerce.number().int().nullish(),
    date_ranges: z
      .array(
        z.object({
          // "response" for the response's own times, or a date question's id.
          entity: z.union([z.literal('response'), z.coerce.number().int().positive()]).default('response'),
          dateType: z.enum(FILTER_DATE_TYPES).default('time_created'),
          startDateTime: z.coerce.number().nullish(),
          endDateTime: z.coerce.number().nullish(),
        }),
      )
      .max(REQUEST_LIMITS.dateRangesPerQuery, LIMIT_MESSAGES.list(REQUEST_LIMITS.dateRangesPerQuery))
      .default([]),
    filters: z
      .array(
        z.object({
          question: z.coerce.number().int().positive(),
          operator: z.enum(FILTER_OPERATORS).default('=='),
          value: z.unknown(),
        }),
      )
      .max(REQUEST_LIMITS.filtersPerQuery, LIMIT_MESSAGES.list(REQUEST_LIMITS.filtersPerQuery))
      .default([]),
    showDeleted: z.boolean().default(false),
    showOnlyCompleted: z.boolean().default(false),
    /** Response lists: completed or open (not completed) responses only; showOnlyCompleted is the spec's "completed". */
    status: z.enum(['any', 'completed', 'open']).default('any'),
    /** Response lists: newest first by this time (spec 001 §9 sort options). */
    sort: z.enum(FILTER_DATE_TYPES).default('time_updated'),
  })
  .passthrough();

export type FilterModel = z.infer<typeof filterModel>;

/** A list of ids from one id or several; -1 and empty mean "no filter" (createdBy default -1). */
export function idList(v: number | number[] | null | undefined): number[] {
  const list = v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
  return list.filter((x) => x >= 0);
}
