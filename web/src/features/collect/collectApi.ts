// The server's responses for the collect screens (spec 001 §7 Responses): a page of the filtered chunk, one response.
import type { Answers } from '@fieldwork/sampler';
import { api } from '../../app/api';

/** A response of the server, in the fields the screens use. */
export interface ServerResponse {
  id: number;
  response_id: string;
  sampler_schema: number;
  parent_id: string | null;
  data: Record<string, Answers>;
  completed: boolean;
  deleted: boolean;
  display_name: string;
  user: number | null;
  email: string;
  time_created: string;
  time_updated: string;
  time_completed: string | null;
  time_uploaded: string;
  site_id: number | null;
  children_count: number;
  version: number;
}

export const SORTS = ['time_updated', 'time_created', 'time_completed', 'time_uploaded'] as const;
export type Sort = (typeof SORTS)[number];
export const PAGE_SIZES = [25, 50, 100] as const;

/** What the response list asks for: the spec's filter model (site, collector, date range, status) and a sort. */
export interface ListQuery {
  projectId: number;
  schemaId: number;
  page: number;
  pageSize: number;
  site?: number;
  collector?: number;
  status: 'any' | 'completed' | 'open';
  sort: Sort;
  /** Unix seconds, inclusive. */
  from?: number;
  to?: number;
}

export const collectApi = api.injectEndpoints({
  endpoints: (build) => ({
    responsePage: build.query<{ results: ServerResponse[]; count: number }, ListQuery>({
      query: (q) => ({
        url: `project/${q.projectId}/response-chunk/filter/?page=${q.page}&page_size=${q.pageSize}`,
        method: 'POST',
        body: {
          currentSamplerSchema: q.schemaId,
          filters: {
            ...(q.site ? { site: q.site } : {}),
            ...(q.collector ? { collector: q.collector } : {}),
            status: q.status,
            sort: q.sort,
            date_ranges:
              q.from !== undefined || q.to !== undefined
                ? [{ entity: 'response', dateType: q.sort, startDateTime: q.from ?? null, endDateTime: q.to ?? null }]
                : [],
          },
        },
      }),
      providesTags: (_r, _e, q) => [{ type: 'Response', id: `project-${q.projectId}` }],
    }),
    oneResponse: build.query<ServerResponse, { projectId: number; responseId: string }>({
      query: ({ projectId, responseId }) => `project/${projectId}/response/single/${encodeURIComponent(responseId)}/`,
      providesTags: (_r, _e, a) => [{ type: 'Response', id: a.responseId }],
    }),
  }),
});

export const { useResponsePageQuery, useOneResponseQuery } = collectApi;

/** After an upload: the lists and that response are read again. */
export const responsesChanged = (projectId: number, responseId: string) =>
  collectApi.util.invalidateTags([
    { type: 'Response', id: `project-${projectId}` },
    { type: 'Response', id: responseId },
  ]);
