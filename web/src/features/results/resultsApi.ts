// The results calls (spec 001 §7 Results): items of a schema with filters and a comparison, share tokens, and the
// public results of a shared item.
import type { FilterModel } from '@fieldwork/sampler';
import { api } from '../../app/api';
import type { Comparison } from './resultsSlice';

export type Localized = Record<string, string>;
export interface NumberStats {
  count: number;
  sum: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  stddev: number | null;
  var: number | null;
  quartiles: [number, number, number] | null;
  ci95: [number, number] | null;
  ci99: [number, number] | null;
}
export interface ChoiceCount {
  choice_id: number;
  name?: Localized;
  code_name?: string;
  count: number;
}
/** A group's figures: a number's statistics, or a count (with the first and last date of a date question). */
export type GroupStats = Partial<Omit<NumberStats, 'min' | 'max'>> & {
  count: number;
  min?: number | string | null;
  max?: number | string | null;
};
export interface ComparisonGroup {
  key: string;
  stats?: GroupStats;
  answers?: ChoiceCount[];
  /** The value of the item's aggregator in this group. */
  value?: number | string | null;
}
/** An item's results per group of one comparison; past its limit, the largest groups and the rest as `other`. */
export interface ComparedItem {
  by: Comparison;
  groups: ComparisonGroup[];
  capped?: { limit: number; groups: number; other: ComparisonGroup | null };
}
/** The periods of a timeline comparison asked for: the latest, at most the API's 100. */
export const PERIODS_SHOWN = 100;
/** Spec 001 §9 aggregators. */
export const AGGREGATORS = ['sum', 'avg', 'count', 'min', 'max', 'stddev', 'var'] as const;
export interface ItemResult {
  schema_id: number;
  item_id: number;
  type: string;
  name: Localized;
  code_name: string;
  currency?: string;
  multiselect?: boolean;
  stats: Partial<NumberStats> & { count: number; min?: number | string | null; max?: number | string | null };
  answers?: ChoiceCount[];
  histogram?: { lower: number; upper: number; count: number }[];
  /** The answers are whole numbers and so are the histogram's bins. */
  integer_bins?: boolean;
  series?: { date: string; count: number }[];
  points?: [number, number][];
  /** Text questions: the latest answers, and for open questions the words found in most answers. */
  samples?: { text: string; time: string }[];
  words?: { word: string; count: number }[];
  /** Words counted in one answer in this many (a sample past 5,000 answers). */
  words_every?: number;
  /** The aggregator the item is shown with (count where its type does not take the one asked) and its value. */
  aggregator?: string;
  value?: number | string | null;
  comparison: ComparedItem | null;
  comparisons?: ComparedItem[];
}
export interface Level {
  schema_id: number;
  name: string;
  level: number;
  total_filtered_responses: number;
  first_response: string | null;
  last_response: string | null;
}
export interface ResultsPayload {
  items: ItemResult[];
  levels: Level[];
  meta: { timing_column: string; time_zone: string; aggregator: string; processor: string };
}

/** The view of an item a share link answers: the filters, comparison, time zone and aggregator it was shared with. */
export interface SharedView {
  filters: Partial<FilterModel>;
  comparison: Comparison | null;
  timeZone: string;
  aggregator?: string;
}

export interface ItemsArgs {
  projectId: number;
  schemaId: number;
  itemIds: number[];
  filters: Partial<FilterModel>;
  comparison: Comparison | null;
  timeZone: string;
  /** Spec 001 §9 aggregator of the value per item and group (the service's count when absent). */
  aggregator?: string;
  /** The profile view: one response of a lookup schema and those below it. */
  profile?: { schemaId: number; responseId: string };
}

export interface Lookups {
  results: {
    schema_id: number;
    name: string;
    items: { item_id: number; name: Localized; code_name: string; primary_key: boolean }[];
    /** How many profiles of this schema match the search (the responses are a page of them). */
    count: number;
    responses: { response_id: string; key: string | null; display_name: string }[];
  }[];
}

/** Profiles a picker asks for at once (the server answers at most 100). */
export const LOOKUP_PAGE = 50;
/** People a page in the collector pickers. */
export const PEOPLE_PAGE = 50;

/** A page of the people with responses in a project (GET project/{id}/results/collectors/). */
export interface People {
  results: { id: number; name: string; responses: number }[];
  count: number;
}

export const resultsApi = api.injectEndpoints({
  endpoints: (build) => ({
    itemResults: build.query<ResultsPayload, ItemsArgs>({
      query: ({ projectId, schemaId, itemIds, filters, comparison, timeZone, aggregator, profile }) => ({
        url: profile
          ? `project/${projectId}/results/schema/${profile.schemaId}/response/${encodeURIComponent(profile.responseId)}/`
          : `project/${projectId}/results/schema/${schemaId}/item/`,
        method: 'POST',
        body: {
          item_ids: itemIds,
          filters,
          // A timeline keeps its latest 100 periods (the most the API gives), other comparisons their 50 largest groups.
          ...(comparison
            ? { comparisons: [comparison.by === 'period' ? { ...comparison, limit: PERIODS_SHOWN } : comparison] }
            : {}),
          time_zone: timeZone,
          ...(aggregator ? { aggregator } : {}),
          ...(profile ? { schema: schemaId } : {}),
        },
      }),
      keepUnusedDataFor: 30,
    }),
    // Searched on the server, a page at a time: the picker asks again as the user types.
    lookups: build.query<Lookups, { projectId: number; q: string }>({
      query: ({ projectId, q }) => ({
        url: `project/${projectId}/results/lookups/`,
        params: { limit: LOOKUP_PAGE, ...(q ? { q } : {}) },
      }),
      keepUnusedDataFor: 30,
    }),
    // The people whose responses the caller sees (collector and created-by pickers), searched on the server.
    collectors: build.query<People, { projectId: number; q: string; limit?: number }>({
      query: ({ projectId, q, limit }) => ({
        url: `project/${projectId}/results/collectors/`,
        params: { limit: limit ?? PEOPLE_PAGE, ...(q ? { q } : {}) },
      }),
      keepUnusedDataFor: 30,
    }),
    shareItem: build.mutation<
      { token: string; expires_in: number },
      { projectId: number; schemaId: number; itemId: number; view?: SharedView }
    >({
      query: ({ projectId, schemaId, itemId, view }) => ({
        url: `project/${projectId}/results/schema/${schemaId}/item/${itemId}/token/`,
        method: 'POST',
        body: view
          ? {
              filters: view.filters,
              ...(view.comparison ? { comparisons: [view.comparison] } : {}),
              time_zone: view.timeZone,
              ...(view.aggregator ? { aggregator: view.aggregator } : {}),
            }
          : {},
      }),
    }),
    sharedItem: build.query<ResultsPayload, { token: string; filters?: Partial<FilterModel> }>({
      query: ({ token, filters }) => ({
        url: `item-results/${token}/`,
        method: 'POST',
        body: { filters: filters ?? {} },
      }),
    }),
  }),
});

export const { useItemResultsQuery, useLookupsQuery, useCollectorsQuery, useShareItemMutation, useSharedItemQuery } =
  resultsApi;
