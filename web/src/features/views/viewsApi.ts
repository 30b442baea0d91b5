// The summary, performance and tracking views (spec 001 §2 filter sets): one POST each, typed from the gateway's
// OpenAPI document.
import { api } from '../../app/api';
import type { ApiBody, ApiReply } from '../../api/types';

export type Summary = ApiReply<'/api/project/{id}/summary/', 'post'>;
export type Performance = ApiReply<'/api/project/{id}/performance/', 'post'>;
export type Tracking = ApiReply<'/api/project/{id}/tracking/', 'post'>;
export type ViewRow = Summary['by_site']['results'][number];
export type ViewTable = Summary['by_site'];

type Id = { projectId: number };
const post = (view: string, { projectId, ...body }: Id & object) => ({
  url: `project/${projectId}/${view}/`,
  method: 'POST',
  body,
});

export const viewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    summary: build.query<Summary, Id & ApiBody<'/api/project/{id}/summary/', 'post'>>({
      query: (args) => post('summary', args),
      keepUnusedDataFor: 30,
    }),
    performance: build.query<Performance, Id & ApiBody<'/api/project/{id}/performance/', 'post'>>({
      query: (args) => post('performance', args),
      keepUnusedDataFor: 30,
    }),
    tracking: build.query<Tracking, Id & ApiBody<'/api/project/{id}/tracking/', 'post'>>({
      query: (args) => post('tracking', args),
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useSummaryQuery, usePerformanceQuery, useTrackingQuery } = viewsApi;
