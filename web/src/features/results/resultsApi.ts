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
export interface ComparisonGroup {
  key: string;
  stats?: Partial<NumberStats> & { count: number };
  answers?: ChoiceCount[];
}
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
  series?: { date: string; count: number }[];
  points?: [number, number][];
  comparison: { by: Comparison; groups: ComparisonGroup[] } | null;
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

/** The view of an item a share link answers: the filters, comparison and time zone it was shared with. */
export interface SharedView {
  filters: Partial<FilterModel>;
  comparison: Comparison | null;
  timeZone: string;
}

export interface ItemsArgs {
  projectId: number;
  schemaId: number;
  itemIds: number[];
  filters: Partial<FilterModel>;
  comparison: Comparison | null;
  timeZone: string;
  /** The profile view: one response of a lookup schema and those below it. */
  profile?: { schemaId: number; responseId: string };
}

export interface Lookups {
  results: {
    schema_id: number;
    name: string;
    items: { item_id: number; name: Localized; code_name: string; primary_key: boolean }[];
    responses: { response_id: string; key: string | null; display_name: string }[];
  }[];
}

export const resultsApi = api.injectEndpoints({
  endpoints: (build) => ({
    itemResults: build.query<ResultsPayload, ItemsArgs>({
      query: ({ projectId, schemaId, itemIds, filters, comparison, timeZone, profile }) => ({
        url: profile
          ? `project/${projectId}/results/schema/${profile.schemaId}/response/${encodeURIComponent(profile.responseId)}/`
          : `project/${projectId}/results/schema/${schemaId}/item/`,
        method: 'POST',
        body: {
          item_ids: itemIds,
          filters,
          ...(comparison ? { comparisons: [comparison] } : {}),
          time_zone: timeZone,
          ...(profile ? { schema: schemaId } : {}),
        },
      }),
      keepUnusedDataFor: 30,
    }),
    lookups: build.query<Lookups, number>({ query: (projectId) => `project/${projectId}/results/lookups/` }),
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

export const { useItemResultsQuery, useLookupsQuery, useShareItemMutation, useSharedItemQuery } = resultsApi;
