// Exports (spec 001 §7 Exports): GET project/{id}/{named|coded|dictionary}_csv/ (and xlsx_excel/) queue an export
// job and wait briefly for it: a small project answers at once with the url the browser is sent to; a large one
// answers 202 with the job, whose progress and url come from GET exports/jobs/{id}/. POST project/{id}/export/
// refreshes the export files (a named CSV job).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fromFieldMessages, type exports_ } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit/problems';
import type { JobEvents } from '@fieldwork/service-kit';
import type { Clients } from '../clients.js';
import { id, str } from '../wire.js';
import { projectId } from './projects.js';
import { apiKeyRoute, meta, queryInt, secured, withSchema } from './util.js';
import { exportSchemas } from '../schemas/exports.js';
import { ref } from '../schemas/records.js';

const KINDS = ['named_csv', 'coded_csv', 'dictionary_csv', 'xlsx_excel'] as const;
/** How long a request waits for its export before answering 202 with the job. */
const WAIT_MS = 10_000;

type Q = {
  Params: { id: string };
  Querystring: { schema?: string; lang?: string; wait?: string; profile?: string; layout?: string };
};
type Json = Record<string, unknown>;

const finished = (j: exports_.Job) => j.status === 'done' || j.status === 'failed' || j.status === 'cancelled';

/**
 * The job once finished, or as it stands after `ms`. No polling here: it waits for the job's finished event (at most
 * two reads of the job); the web app follows a job that is still running by polling GET exports/jobs/{id}/.
 */
export async function settleJob(
  clients: Clients,
  jobEvents: Pick<JobEvents, 'settle'>,
  r: FastifyRequest,
  job: exports_.Job,
  ms: number,
): Promise<exports_.Job> {
  if (finished(job)) return job;
  return jobEvents.settle(
    job.id,
    ms,
    () => clients.exports.getJob({ caller: r.caller, job_id: job.id }, meta(r)),
    finished,
  );
}

/** What a finished import did, as the API answers it: counts, or the users import's report; {} otherwise. */
export function jobResult(j: exports_.Job): object {
  if (j.import_counts) return { ...j.import_counts };
  if (j.users_report) return { ...j.users_report, rows: j.users_report.rows.map((row) => ({ ...row })) };
  return {};
}

/** A job as JSON: its url and report_url null when absent, its result as an object. */
export function jobJson(j: exports_.Job) {
  const { import_counts: _counts, users_report: _report, ...rest } = j;
  return { ...rest, url: j.url || null, report_url: j.report_url || null, result: jobResult(j) };
}

/** An import preview as the mapping screen reads it: rows of cells (null when empty), field errors, row problems. */
export function previewJson(p: exports_.ImportPreview) {
  return {
    columns: p.columns,
    rows: p.rows.map((row) => row.cells.map((c) => c.text ?? c.number ?? c.flag ?? null)),
    errors: fromFieldMessages(p.errors),
    row_problems: p.row_problems.map((row) => row.problems),
    questions: p.questions.map(({ part, ...q }) => (part === undefined ? q : { ...q, part })),
  };
}

/** The import request of spec 001 §7: {data{label_map, dropped_columns, file_identifier, value_delimiter}} or the flat mapped form. */
function importRequest(
  r: FastifyRequest<{ Params: { id: string }; Body: Json }>,
): Omit<exports_.ImportRequest, 'caller'> {
  const b = r.body ?? {};
  const d = (typeof b.data === 'object' && b.data !== null && !Array.isArray(b.data) ? b.data : b) as Json;
  // Values are names or ids, compared as text by the exports service (String(12) is "12").
  const obj = (v: unknown, field: string): Record<string, string> => {
    if (v === undefined || v === null) return {};
    if (typeof v !== 'object' || Array.isArray(v))
      throw problems.invalidFields({ [field]: ['Send an object of column header to question.'] });
    return Object.fromEntries(Object.entries(v).map(([header, to]) => [header, String(to)]));
  };
  const dropped = d.dropped_columns ?? b.dropped_columns;
  if (dropped !== undefined && (!Array.isArray(dropped) || dropped.some((x) => typeof x !== 'string')))
    throw problems.invalidFields({ dropped_columns: ['Send a list of column headers.'] });
  const flag = d.import_current ?? b.import_current;
  if (flag !== undefined && typeof flag !== 'boolean')
    throw problems.invalidFields({ import_current: ['Must be a valid boolean.'] });
  return {
    project_id: projectId(r),
    schema_id: id(d.schema ?? b.schema ?? d.schema_id ?? b.schema_id),
    file_identifier: str(d.file_identifier ?? b.file_identifier),
    label_map: obj(d.label_map ?? b.label_map, 'label_map'),
    dropped_columns: (dropped as string[] | undefined) ?? [],
    mapped_columns: obj(d.mapped_columns ?? b.mapped_columns, 'mapped_columns'),
    value_delimiter: str(d.value_delimiter ?? b.value_delimiter),
    import_current: flag === true,
    device_id: str(d.device_id ?? b.device_id),
    lang: str(d.lang ?? b.lang),
  };
}

export default async function exportRoutes(
  app: FastifyInstance,
  { clients, jobEvents }: { clients: Clients; jobEvents: Pick<JobEvents, 'settle'> },
) {
  const opts = { preHandler: app.authenticate, config: apiKeyRoute, schema: { tags: ['exports'], security: secured } };
  // What each route needs (the export operation, projectLevelIngestion) is decided once at the gateway, before the
  // exports service is called: route-access.ts.
  const exportOpts = withSchema(opts, {
    params: exportSchemas.projectParams,
    querystring: exportSchemas.exportQuery,
  });
  const exportReply = { 200: exportSchemas.exportDone, 202: exportSchemas.jobQueued };
  const importOpts = withSchema(opts, { params: exportSchemas.projectParams, body: exportSchemas.import });
  const sqlOpts = withSchema(opts, { params: exportSchemas.projectParams, body: exportSchemas.noBody });
  const settle = (r: FastifyRequest, job: exports_.Job, ms: number) => settleJob(clients, jobEvents, r, job, ms);

  for (const kind of KINDS) {
    app.get<Q>(`/api/project/:id/${kind}/`, withSchema(exportOpts, { response: exportReply }), async (r, reply) => {
      const job = await clients.exports.createExport(
        {
          caller: r.caller,
          project_id: projectId(r),
          schema_id: queryInt(r.query.schema, 0, 'schema'),
          kind,
          lang: str(r.query.lang),
          profile: str(r.query.profile),
          layout: str(r.query.layout),
        },
        meta(r),
      );
      const wait = r.query.wait === '0' ? 0 : WAIT_MS;
      const j = await settle(r, job, wait);
      if (j.status === 'failed')
        throw problems.invalid(j.error || 'There was a problem updating the export files. Please try again.');
      if (j.status !== 'done') return reply.status(202).send({ job: jobJson(j), url: null });
      return { url: j.url, job: jobJson(j) };
    });
  }
  const refreshOpts = withSchema(exportOpts, {
    body: exportSchemas.noBody,
    response: { 202: exportSchemas.jobQueued },
  });
  app.post<Q>('/api/project/:id/export/', refreshOpts, async (r, reply) => {
    const job = await clients.exports.createExport(
      {
        caller: r.caller,
        project_id: projectId(r),
        schema_id: queryInt(r.query.schema, 0, 'schema'),
        kind: 'named_csv',
        lang: '',
        profile: '',
        layout: '',
      },
      meta(r),
    );
    return reply.status(202).send({ job: jobJson(job) });
  });

  // Imports (spec 001 §7 Import): a preview for the mapping screen, then the job.
  const previewOpts = withSchema(importOpts, { response: { 200: exportSchemas.importPreview } });
  app.post<{ Params: { id: string }; Body: Json }>('/api/project/:id/import/preview/', previewOpts, async (r) => {
    const p = await clients.exports.previewImport({ caller: r.caller, ...importRequest(r) }, meta(r));
    return previewJson(p);
  });
  const queueOpts = withSchema(importOpts, { response: { 202: exportSchemas.jobQueued } });
  app.post<{ Params: { id: string }; Body: Json }>('/api/project/:id/import/', queueOpts, async (r, reply) => {
    const job = await clients.exports.createImport({ caller: r.caller, ...importRequest(r) }, meta(r));
    return reply.status(202).send({ job: jobJson(job) });
  });

  // SQL access for BI tools: the password is in this answer only.
  const enableOpts = withSchema(sqlOpts, { response: { 201: exportSchemas.sqlAccess } });
  app.post<{ Params: { id: string } }>('/api/project/:id/postgres/', enableOpts, async (r, reply) =>
    reply
      .status(201)
      .send(await clients.responses.enableSqlAccess({ caller: r.caller, project_id: projectId(r) }, meta(r))),
  );
  const disableOpts = withSchema(sqlOpts, { response: { 200: exportSchemas.sqlDisabled } });
  app.post<{ Params: { id: string } }>('/api/project/:id/disable_postgres/', disableOpts, async (r) => {
    const a = await clients.responses.disableSqlAccess({ caller: r.caller, project_id: projectId(r) }, meta(r));
    return { enabled: a.enabled };
  });

  const jobOpts = withSchema(opts, { params: exportSchemas.jobParams, response: { 200: ref('Job') } });
  app.get<{ Params: { jobId: string } }>('/api/exports/jobs/:jobId/', jobOpts, async (r) =>
    jobJson(await clients.exports.getJob({ caller: r.caller, job_id: r.params.jobId }, meta(r))),
  );
  const cancelOpts = withSchema(jobOpts, { body: exportSchemas.noBody });
  app.post<{ Params: { jobId: string } }>('/api/exports/jobs/:jobId/cancel/', cancelOpts, async (r) =>
    jobJson(await clients.exports.cancelJob({ caller: r.caller, job_id: r.params.jobId }, meta(r))),
  );
}
