// Results (spec 001 §7 Results): a project, one of its schemas, a block or some items, with filters.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { ids, str } from '../wire.js';
import { projectId } from './projects.js';
import { meta, parseId, secured } from './util.js';

type Json = Record<string, unknown>;
type P = { Params: { id: string; schemaId?: string; blockId?: string }; Body: Json };

export default async function resultRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const opts = { preHandler: app.authenticate, schema: { tags: ['results'], security: secured } };
  const handler = async (r: FastifyRequest<P>) => {
    const b = r.body ?? {};
    const out = await clients.results.getResults(
      {
        caller: r.caller,
        project_id: projectId(r),
        schema_id: r.params.schemaId ? parseId(r.params.schemaId, problems.invalidSchemaId) : 0,
        block_id: r.params.blockId ? parseId(r.params.blockId, problems.notFound) : 0,
        item_ids: ids(b.item_ids),
        filters_json: JSON.stringify(b.filters ?? {}),
        timing_column: str(b.timing_column),
        comparisons_json: b.comparisons === undefined ? '' : JSON.stringify(b.comparisons),
        buckets: typeof b.buckets === 'number' && Number.isInteger(b.buckets) ? b.buckets : 0,
        time_zone: str(b.time_zone),
      },
      meta(r),
    );
    return JSON.parse(out.payload_json) as Json;
  };
  app.post<P>('/api/project/:id/results/schema/:schemaId/responses/', opts, async (r) => {
    const b = r.body ?? {};
    const out = await clients.results.responseIds(
      {
        caller: r.caller,
        project_id: projectId(r),
        schema_id: parseId(r.params.schemaId ?? '', problems.invalidSchemaId),
        block_id: 0,
        item_ids: [],
        filters_json: JSON.stringify(b.filters ?? {}),
        timing_column: '',
        comparisons_json: '',
        buckets: 0,
        time_zone: '',
      },
      meta(r),
    );
    return { response_ids: out.response_ids };
  });
  for (const path of ['', 'schema/:schemaId/', 'schema/:schemaId/item/', 'schema/:schemaId/block/:blockId/']) {
    app.post<P>(`/api/project/:id/results/${path}`, opts, handler);
  }
}
