// Results (spec 001 §7 Results): a project, one of its schemas, a block or some items, with filters.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projects, results, type common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { id, ids, str } from '../wire.js';
import { projectId } from './projects.js';
import { apiKeyRoute, meta, parseId, secured, withSchema } from './util.js';
import { boundComparisons, boundFilters } from '../limits.js';
import { checkPublicView, queryOfView, sharedProjectAnswers, viewToShare } from '../shared-view.js';
import { resultSchemas as S } from '../schemas/results.js';
import { anyObject, ref } from '../schemas/records.js';
import { noContent } from '../schemas/common.js';

type Json = Record<string, unknown>;
type P = { Params: { id: string; schemaId?: string; blockId?: string; itemId?: string; profile?: string }; Body: Json };
type Where = {
  caller: common.Caller;
  project_id: number;
  schema_id: number;
  block_id: number;
  item_ids: number[];
  profile_schema_id?: number;
  profile_response_id?: string;
};

/** The body's query fields of every results call. */
const query = (b: Json) => ({
  filters_json: JSON.stringify(boundFilters(b.filters ?? {})),
  timing_column: str(b.timing_column),
  comparisons_json: b.comparisons === undefined ? '' : JSON.stringify(boundComparisons(b.comparisons)),
  buckets: typeof b.buckets === 'number' ? b.buckets : 0, // bounded by the schema (schemas/results.ts)
  time_zone: str(b.time_zone),
  aggregator: str(b.aggregator),
});

export default async function resultRoutes(
  app: FastifyInstance,
  { clients, shareTtlSeconds }: { clients: Clients; shareTtlSeconds: number },
) {
  const opts = { preHandler: app.authenticate, config: apiKeyRoute, schema: { tags: ['results'], security: secured } };
  // Reading results needs the results permission, or read_sites (spec 001 §6); sharing, the shareResults operation:
  // decided once, at the gateway, before the results service is called (route-access.ts).
  const queryOpts = { ...opts, schema: { ...opts.schema, body: S.query, response: { 200: anyObject } } };
  const readOpts = { ...opts, schema: { ...opts.schema, response: { 200: anyObject } } };
  // Sharing mints a long-lived token: a person's act, never an API key's (a key's share would outlive the key).
  const shareOpts = {
    preHandler: app.authenticate,
    schema: {
      tags: ['results'],
      security: secured,
      params: S.itemParams,
      body: S.query,
      response: { 200: S.shareReply },
    },
  };
  const getResults = async (r: FastifyRequest<{ Body: Json }>, where: Where) => {
    const out = await clients.results.getResults(
      results.ResultsRequest.fromPartial({ ...where, ...query(r.body ?? {}) }),
      meta(r),
    );
    return JSON.parse(out.payload_json) as { items: Json[] } & Json;
  };
  const handler = async (r: FastifyRequest<P>) =>
    getResults(r, {
      caller: r.caller,
      project_id: projectId(r),
      schema_id: r.params.schemaId ? parseId(r.params.schemaId, problems.invalidSchemaId) : 0,
      block_id: r.params.blockId ? parseId(r.params.blockId, problems.notFound) : 0,
      item_ids: ids(r.body?.item_ids),
    });

  // Sharing one item: a signed token that reads that item's results, with the sharer's view of them, without a login.
  // The body is the view shared (filters, comparisons, buckets, timing_column, time_zone; none: the whole item), kept
  // in the token: the link answers that view and no other (shared-view.ts).
  app.post<P>('/api/project/:id/results/schema/:schemaId/item/:itemId/token/', shareOpts, async (r) => {
    const pid = projectId(r);
    const item = {
      project_id: pid,
      schema_id: parseId(r.params.schemaId ?? '', problems.invalidSchemaId),
      item_id: parseId(r.params.itemId ?? '', problems.notFound),
    };
    const view = viewToShare(r.body ?? {});
    // The sharer must see the item's results in that view now (this also checks the item and the view).
    const found = await clients.results.getResults(
      results.ResultsRequest.fromPartial({
        caller: r.caller,
        ...item,
        block_id: 0,
        item_ids: [item.item_id],
        ...queryOfView(view),
      }),
      meta(r),
    );
    if ((JSON.parse(found.payload_json) as { items: Json[] }).items.length === 0) throw problems.notFound();
    return { token: app.signItemToken(r.caller, { ...item, view }, shareTtlSeconds), expires_in: shareTtlSeconds };
  });
  app.post<{ Params: { token: string }; Body: Json }>(
    '/api/item-results/:token/',
    { schema: { tags: ['results'], params: S.tokenParams, body: S.query, response: { 200: anyObject } } },
    async (r) => {
      const { caller, project_id, schema_id, item_id, view } = app.verifyItemToken(r.params.token);
      checkPublicView(r.body ?? {}, view);
      // The sharer's access to the project, decided (and cached) as for their own requests: its state says whether the
      // project still shares anything (deleted: 404, as an unknown link), and its grant goes to the results service.
      const decided = await app.accessGrants.decide(caller, project_id, r);
      if ('error' in decided) throw decided.error;
      if (!sharedProjectAnswers(decided.access.project_state)) throw problems.notFound();
      r.grant = decided.token;
      const out = await clients.results.getResults(
        results.ResultsRequest.fromPartial({
          caller,
          project_id,
          schema_id,
          block_id: 0,
          item_ids: [item_id],
          ...queryOfView(view),
        }),
        meta(r),
      );
      const payload = JSON.parse(out.payload_json) as { items: Json[] } & Json;
      // Only that item: the levels and the item, nothing else of the project; and the view it answers.
      return { ...payload, items: payload.items.filter((i) => i.item_id === item_id), shared_view: view };
    },
  );
  app.post<P>(
    '/api/project/:id/results/schema/:schemaId/responses/',
    withSchema(queryOpts, { params: S.schemaParams, response: { 200: S.responseIds } }),
    async (r) => {
      const b = r.body ?? {};
      const out = await clients.results.responseIds(
        results.ResultsRequest.fromPartial({
          caller: r.caller,
          project_id: projectId(r),
          schema_id: parseId(r.params.schemaId ?? '', problems.invalidSchemaId),
          filters_json: JSON.stringify(boundFilters(b.filters ?? {})),
        }),
        meta(r),
      );
      return { response_ids: out.response_ids };
    },
  );
  // Advanced results: definitions in the projects service, values from the results service.
  type A = { Params: { id: string; arId?: string }; Body: Json };
  const advancedJson = ({ editor_state_json, ...r }: projects.AdvancedResult) => ({
    ...r,
    editor_state: JSON.parse(editor_state_json || '{}') as unknown,
  });
  const threshold = (v: unknown): number | undefined =>
    v === undefined || v === null || v === ''
      ? undefined
      : typeof v === 'number'
        ? v
        : typeof v === 'string' && v.trim() !== ''
          ? Number(v)
          : Number.NaN;
  const fieldsOf = (b: Json): projects.AdvancedResult =>
    projects.AdvancedResult.fromPartial({
      name: str(b.name),
      description: str(b.description),
      threshold_value_upper: threshold(b.threshold_value_upper),
      threshold_value_lower: threshold(b.threshold_value_lower),
      formula: str(b.formula),
      editor_state_json: b.editor_state === undefined ? '{}' : JSON.stringify(b.editor_state),
      show_on_project_summary: b.show_on_project_summary === true,
      show_on_site_summary: b.show_on_site_summary === true,
      display_type: str(b.display_type),
      edit_mode: b.editMode === true || b.edit_mode === true,
    });
  const arId = (r: FastifyRequest<A>) => parseId(r.params.arId ?? '', problems.notFound);
  app.get<A>(
    '/api/project/:id/advanced_results/edit_list/',
    withSchema(opts, { params: S.projectParams, response: { 200: S.advancedList } }),
    async (r) => ({
      results: (
        await clients.projects.listAdvancedResults({ caller: r.caller, project_id: projectId(r) }, meta(r))
      ).results.map(advancedJson),
    }),
  );
  app.post<A>(
    '/api/project/:id/advanced_results/list/',
    withSchema(queryOpts, { params: S.projectParams }),
    async (r) => {
      const b = r.body ?? {};
      const out = await clients.results.advancedResults(
        results.ResultsRequest.fromPartial({
          caller: r.caller,
          project_id: projectId(r),
          schema_id: id(b.schema),
          filters_json: JSON.stringify(boundFilters(b.filters ?? {})),
        }),
        meta(r),
      );
      return JSON.parse(out.payload_json) as Json;
    },
  );
  app.post<A>(
    '/api/project/:id/advanced_results/',
    withSchema(opts, { params: S.projectParams, body: S.advanced, response: { 201: ref('AdvancedResult') } }),
    async (r, reply) => {
      const saved = await clients.projects.saveAdvancedResult(
        { caller: r.caller, project_id: projectId(r), id: 0, fields: fieldsOf(r.body ?? {}) },
        meta(r),
      );
      return reply.status(201).send(advancedJson(saved));
    },
  );
  app.put<A>(
    '/api/project/:id/advanced_results/:arId/',
    withSchema(opts, { params: S.advancedParams, body: S.advanced, response: { 200: ref('AdvancedResult') } }),
    async (r) =>
      advancedJson(
        await clients.projects.saveAdvancedResult(
          { caller: r.caller, project_id: projectId(r), id: arId(r), fields: fieldsOf(r.body ?? {}) },
          meta(r),
        ),
      ),
  );
  app.delete<A>(
    '/api/project/:id/advanced_results/:arId/',
    withSchema(opts, { params: S.advancedParams, response: { 204: noContent } }),
    async (r, reply) => {
      await clients.projects.deleteAdvancedResult({ caller: r.caller, project_id: projectId(r), id: arId(r) }, meta(r));
      return reply.status(204).send();
    },
  );

  // Profiles: the lookups to choose one, and the results of one profile (body.schema: the schema to show, default
  // every schema; body.item_ids as usual).
  for (const path of ['', 'schema/:schemaId/']) {
    app.get<P>(
      `/api/project/:id/results/${path}lookups/`,
      withSchema(readOpts, { params: path === '' ? S.projectParams : S.schemaParams, querystring: S.lookupsQuery }),
      async (r) => {
        const schemaId = r.params.schemaId ? parseId(r.params.schemaId, problems.invalidSchemaId) : 0;
        const q = r.query as { q?: string; limit?: string; offset?: string };
        const out = await clients.results.lookups(
          results.ResultsRequest.fromPartial({
            caller: r.caller,
            project_id: projectId(r),
            schema_id: schemaId,
            lookup_query: q.q ?? '',
            limit: Number(q.limit ?? 0),
            offset: Number(q.offset ?? 0),
          }),
          meta(r),
        );
        return JSON.parse(out.payload_json) as Json;
      },
    );
  }
  app.post<P>(
    '/api/project/:id/results/schema/:schemaId/response/:profile/',
    withSchema(queryOpts, { params: S.profileParams }),
    async (r) => {
      const profile = r.params.profile ?? '';
      if (!/^[\w.:-]{1,200}$/.test(profile)) throw problems.notFound();
      return getResults(r, {
        caller: r.caller,
        project_id: projectId(r),
        schema_id: id(r.body?.schema),
        block_id: id(r.body?.block),
        item_ids: ids(r.body?.item_ids),
        profile_schema_id: parseId(r.params.schemaId ?? '', problems.invalidSchemaId),
        profile_response_id: profile,
      });
    },
  );

  for (const path of ['', 'schema/:schemaId/', 'schema/:schemaId/item/', 'schema/:schemaId/block/:blockId/']) {
    app.post<P>(
      `/api/project/:id/results/${path}`,
      withSchema(queryOpts, {
        params: path === '' ? S.projectParams : path.includes('block') ? S.blockParams : S.schemaParams,
      }),
      handler,
    );
  }
}
