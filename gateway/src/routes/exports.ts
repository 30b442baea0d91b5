// Exports (spec 001 §7 Exports): GET project/{id}/{named|coded|dictionary}_csv/ (and xlsx_excel/) queue an export
// job and wait briefly for it: a small project answers at once with the url the browser is sent to; a large one
// answers 202 with the job, whose progress and url come from GET exports/jobs/{id}/. POST project/{id}/export/
// refreshes the export files (a named CSV job).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { exports_ } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { id, str } from '../wire.js';
import { projectId } from './projects.js';
import { meta, secured } from './util.js';

const KINDS = ['named_csv', 'coded_csv', 'dictionary_csv', 'xlsx_excel'] as const;
/** How long a request waits for its export before answering 202 with the job. */
const WAIT_MS = 10_000;

type Q = { Params: { id: string }; Querystring: { schema?: string; lang?: string; wait?: string } };

export default async function exportRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const opts = { preHandler: app.authenticate, schema: { tags: ['exports'], security: secured } };
  const jobJson = (j: exports_.Job) => ({ ...j, url: j.url || null });

  /** Polls the job until it is finished or `ms` have passed. */
  async function settle(r: FastifyRequest, job: exports_.Job, ms: number): Promise<exports_.Job> {
    const end = Date.now() + ms;
    let j = job;
    while (j.status !== 'done' && j.status !== 'failed' && j.status !== 'cancelled' && Date.now() < end) {
      await new Promise((res) => setTimeout(res, 200));
      j = await clients.exports.getJob({ caller: r.caller, job_id: j.id }, meta(r));
    }
    return j;
  }

  for (const kind of KINDS) {
    app.get<Q>(`/api/project/:id/${kind}/`, opts, async (r, reply) => {
      const job = await clients.exports.createExport({ caller: r.caller, project_id: projectId(r), schema_id: id(r.query.schema), kind, lang: str(r.query.lang) }, meta(r));
      const wait = r.query.wait === '0' ? 0 : WAIT_MS;
      const j = await settle(r, job, wait);
      if (j.status === 'failed') throw problems.invalid(j.error || 'There was a problem updating the export files. Please try again.');
      if (j.status !== 'done') return reply.status(202).send({ job: jobJson(j), url: null });
      return { url: j.url, job: jobJson(j) };
    });
  }
  app.post<Q>('/api/project/:id/export/', opts, async (r, reply) => {
    const job = await clients.exports.createExport({ caller: r.caller, project_id: projectId(r), schema_id: id(r.query.schema), kind: 'named_csv', lang: '' }, meta(r));
    return reply.status(202).send({ job: jobJson(job) });
  });
  app.get<{ Params: { jobId: string } }>('/api/exports/jobs/:jobId/', opts, async (r) => jobJson(await clients.exports.getJob({ caller: r.caller, job_id: r.params.jobId }, meta(r))));
  app.post<{ Params: { jobId: string } }>('/api/exports/jobs/:jobId/cancel/', opts, async (r) => jobJson(await clients.exports.cancelJob({ caller: r.caller, job_id: r.params.jobId }, meta(r))));
}
