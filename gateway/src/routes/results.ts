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
      },
      meta(r),
    );
    return JSON.parse(out.payload_json) as Json;
  };
  for (const path of ['', 'schema/:schemaId/', 'schema/:schemaId/item/', 'schema/:schemaId/block/:blockId/']) {
    app.post<P>(`/api/project/:id/results/${path}`, opts, handler);
  }
}
