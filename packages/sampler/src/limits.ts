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

export const LIMIT_MESSAGES = {
  answers: `A response holds at most ${REQUEST_LIMITS.answersPerResponse} answers.`,
  /** Django REST framework's ListField wording. */
  list: (max: number) => `Ensure this field has no more than ${max} elements.`,
} as const;
