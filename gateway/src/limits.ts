// The shape of a request bounded before any service reads it (REQUEST_LIMITS, packages/sampler): answers per
// response, filters per query. A bigger request is refused at once with the field that is too big; the services
// check the same numbers again.
import { LIMIT_MESSAGES, REQUEST_LIMITS } from '@fieldwork/sampler/limits';
import { problems } from '@fieldwork/service-kit/problems';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refuses a response whose data holds more answers than a response may. */
export function boundAnswers(data: unknown): void {
  if (!isObject(data)) return;
  let answers = 0;
  for (const repeat of Object.values(data)) {
    answers += isObject(repeat) ? Object.keys(repeat).length : 1;
    if (answers > REQUEST_LIMITS.answersPerResponse) throw problems.invalidFields({ data: [LIMIT_MESSAGES.answers] });
  }
}

/** The filter model of a query (spec 001 §3 Response filter) with no list longer than a query may hold; as sent. */
export function boundFilters<T>(filters: T, field = 'filters'): T {
  if (!isObject(filters)) return filters;
  const lists: [string, number][] = [
    ['filters', REQUEST_LIMITS.filtersPerQuery],
    ['date_ranges', REQUEST_LIMITS.dateRangesPerQuery],
    ...(['collector', 'group', 'team', 'site'] as const).map((k): [string, number] => [k, REQUEST_LIMITS.idsPerFilter]),
  ];
  for (const [key, max] of lists) {
    const v = filters[key];
    if (Array.isArray(v) && v.length > max)
      throw problems.invalidFields({ [`${field}.${key}`]: [LIMIT_MESSAGES.list(max)] });
  }
  return filters;
}

/** The comparisons of a results query, at most comparisonsPerQuery. */
export function boundComparisons<T>(comparisons: T): T {
  if (Array.isArray(comparisons) && comparisons.length > REQUEST_LIMITS.comparisonsPerQuery) {
    throw problems.invalidFields({ comparisons: [LIMIT_MESSAGES.list(REQUEST_LIMITS.comparisonsPerQuery)] });
  }
  return comparisons;
}

/**
 * How deep a JSON body may nest (objects and arrays). Our deepest bodies (a form, a filter model, an editor state) nest
 * about 10 levels; JSON.stringify, schema validation and the services recurse once per level, so a body nested
 * 50,000 deep would exhaust the stack. Checked on the raw text, before parsing, in one pass that does not recurse.
 */
export const MAX_JSON_DEPTH = 64;
export const JSON_DEPTH_MESSAGE = `The JSON body nests more than ${MAX_JSON_DEPTH} levels of objects and lists.`;

/** Whether JSON text nests objects and arrays deeper than `max` (brackets inside strings do not count). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A declared body over the limit but under this is read and dropped after its 413, not cut off (app.ts). */
export const DRAIN_LIMIT = 64 * 1024 * 1024;
