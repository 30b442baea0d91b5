// How much one request may hold (the spec names no bound; these are ours): the gateway refuses a bigger request
// before any service reads it, and the services check the same numbers again. Pure, no imports.

export const REQUEST_LIMITS = {
  /** Answers in one response, over all its repeats (a long household survey with a roster holds a few hundred). */
  answersPerResponse: 2000,
  /** Question filters of one query (the filter model's `filters`). */
  filtersPerQuery: 100,
  /** Date ranges of one query. */
  dateRangesPerQuery: 20,
  /** Ids in one list filter (site, group, team, collector). */
  idsPerFilter: 1000,
  /** Comparisons of one results query. */
  comparisonsPerQuery: 10,
} as const;

/**
 * Most bytes of a form (its schema body as JSON): what the builder may save, an import may make, and every service
 * reads in one gRPC message (service-kit's GRPC_MAX_MESSAGE_BYTES leaves room above it). A 20,000-row XLSForm with
 * two languages makes about 10 MB.
 */
export const FORM_MAX_BYTES = 16 * 1024 * 1024;

export const LIMIT_MESSAGES = {
  answers: `A response holds at most ${REQUEST_LIMITS.answersPerResponse} answers.`,
  /** Django REST framework's ListField wording. */
  list: (max: number) => `Ensure this field has no more than ${max} elements.`,
} as const;
