// The summary, performance and tracking views of a project (spec 001 §2 filter sets; issue 20): POST
// project/{id}/summary/, performance/ and tracking/ with {filters, schema, page, page_size, time_zone} (performance:
// period; tracking: start_date and end_date). Read with the results permission or read_sites (route-access.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { views } from '@fieldwork/proto';
import type { Clients } from '../clients.js';
import { id, str } from '../wire.js';
import { viewSchemas as S } from '../schemas/views.js';
import { projectId } from './projects.js';
import { apiKeyRoute, meta, secured, withSchema } from './util.js';

type Json = Record<string, unknown>;
type V = { Params: { id: string }; Body: Json | null };

const list = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);
const nullIfEmpty = (v: string) => (v === '' ? null : v);

/** The view request of a body (already checked by its schema). */
function request(r: FastifyRequest<V>): views.ViewRequest {
  const b = r.body ?? {};
  const f = (b.filters ?? {}) as Json;
  return {
    caller: r.caller,
    project_id: projectId(r),
    schema_id: id(b.schema),
    filters: {
      site: list(f.site),
      group: list(f.group),
      team: list(f.team),
      collector: list(f.collector),
      created_by: list(f.createdBy),
    },
    page: typeof b.page === 'number' ? b.page : 0,
    page_size: typeof b.page_size === 'number' ? b.page_size : 0,
    period: str(b.period),
    time_zone: str(b.time_zone),
    start_date: str(b.start_date),
    end_date: str(b.end_date),
  };
}

/** A row on the wire: times and figures absent are null. */
const rowJson = (r: views.ViewRow | undefined) =>
  r && {
    ...r,
    first_response: nullIfEmpty(r.first_response),
    last_response: nullIfEmpty(r.last_response),
    last_activity: nullIfEmpty(r.last_activity),
    avg_duration_s: r.avg_duration_s ?? null,
    median_duration_s: r.median_duration_s ?? null,
    percent: r.percent ?? null,
    expected: r.expected ?? null,
    parent_id: r.parent_id || null,
  };
const tableJson = (t: views.ViewTable | undefined) => ({
  results: (t?.results ?? []).map(rowJson),
  count: t?.count ?? 0,
});
const totalsJson = (t: views.ViewTotals | undefined) =>
  t && { ...t, first_response: nullIfEmpty(t.first_response), last_response: nullIfEmpty(t.last_response) };

export default async function viewRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const opts = { preHandler: app.authenticate, config: apiKeyRoute, schema: { tags: ['views'], security: secured } };
  const route = (b: object, reply: object) => withSchema(opts, { params: S.params, body: b, response: { 200: reply } });

  app.post<V>('/api/project/:id/summary/', route(S.summaryBody, S.summary), async (r) => {
    const out = await clients.results.summary(request(r), meta(r));
    return {
      totals: totalsJson(out.totals),
      by_site: tableJson(out.by_site),
      advanced_results: out.advanced_results.map((a) => ({
        ...a,
        value: a.value ?? null,
        error: a.error || null,
        threshold_value_upper: a.threshold_value_upper ?? null,
        threshold_value_lower: a.threshold_value_lower ?? null,
      })),
    };
  });
  app.post<V>('/api/project/:id/performance/', route(S.performanceBody, S.performance), async (r) => {
    const out = await clients.results.performance(request(r), meta(r));
    return {
      ...out,
      totals: totalsJson(out.totals),
      by_collector: tableJson(out.by_collector),
      by_site: tableJson(out.by_site),
    };
  });
  // The collector and created-by pickers of results and views: the people whose responses the caller sees.
  app.get<{ Params: { id: string }; Querystring: { q?: string; limit?: string; offset?: string } }>(
    '/api/project/:id/results/collectors/',
    withSchema(opts, { params: S.params, querystring: S.collectorsQuery, response: { 200: S.collectors } }),
    async (r) =>
      clients.results.collectors(
        {
          caller: r.caller,
          project_id: projectId(r),
          q: r.query.q ?? '',
          limit: Number(r.query.limit ?? 0),
          offset: Number(r.query.offset ?? 0),
        },
        meta(r),
      ),
  );
  app.post<V>('/api/project/:id/tracking/', route(S.trackingBody, S.tracking), async (r) => {
    const out = await clients.results.tracking(request(r), meta(r));
    return {
      project: rowJson(out.project),
      by_site: tableJson(out.by_site),
      by_group: tableJson(out.by_group),
      by_team: tableJson(out.by_team),
      start_date: nullIfEmpty(out.start_date),
      end_date: nullIfEmpty(out.end_date),
    };
  });
}
