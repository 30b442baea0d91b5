// Export jobs (spec 001 §7 Exports): queued by those who see a project's results, read back with their progress and,
// once done, a download link until the file expires; cancelled on request.
import { randomUUID } from 'node:crypto';
import type { common, exports_ } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { JobStore, type ExportKind, type JobRow } from '../store/job.store.js';
import type { Ctx, ExportsDeps } from './deps.js';

export const KINDS: readonly ExportKind[] = ['named_csv', 'coded_csv', 'dictionary_csv', 'xlsx_excel'];
const LINK_S = 3600;

export class ExportService {
  private readonly jobs: JobStore;

  constructor(private readonly deps: ExportsDeps) {
    this.jobs = new JobStore(deps.sql);
  }

  private async requireResults(caller: common.Caller | undefined, projectId: number, ctx: Ctx): Promise<common.Caller> {
    if (!caller || caller.user_id <= 0) throw problems.notAuthenticated();
    const a = await this.deps.projects.getAccess({ caller, project_id: projectId }, ctx);
    if (!a.screens.includes('results') && !a.screens.includes('dataManager')) throw problems.forbidden();
    return caller;
  }

  async create(req: exports_.CreateExportRequest, ctx: Ctx): Promise<exports_.Job> {
    if (!KINDS.includes(req.kind as ExportKind)) throw problems.notFound();
    const caller = await this.requireResults(req.caller, req.project_id, ctx);
    const schemas = (await this.deps.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
    const schema = req.schema_id === 0 ? [...schemas].sort((a, b) => a.level - b.level)[0] : schemas.find((s) => s.id === req.schema_id);
    if (!schema) throw problems.invalidSchemaId();
    const job = await this.jobs.create({ id: randomUUID(), project_id: req.project_id, schema_id: schema.id, kind: req.kind as ExportKind, created_by: caller.user_id, lang: req.lang || '' });
    await this.deps.enqueue(job.id);
    this.deps.log.info({ jobId: job.id, projectId: job.project_id, kind: job.kind }, 'export queued');
    return this.toJob(job);
  }

  async get(req: exports_.JobRef, ctx: Ctx): Promise<exports_.Job> {
    const job = await this.mine(req, ctx);
    return this.toJob(job);
  }

  async cancel(req: exports_.JobRef, ctx: Ctx): Promise<exports_.Job> {
    await this.mine(req, ctx);
    return this.toJob((await this.jobs.cancel(req.job_id))!);
  }

  /** The job, when the caller may see its project's results. */
  private async mine(req: exports_.JobRef, ctx: Ctx): Promise<JobRow> {
    const job = await this.jobs.get(req.job_id);
    if (!job) throw problems.notFound();
    await this.requireResults(req.caller, job.project_id, ctx);
    return job;
  }

  private async toJob(j: JobRow): Promise<exports_.Job> {
    const live = j.status === 'done' && j.object_key !== null && (j.expires_at === null || j.expires_at.getTime() > Date.now());
    const seconds = live && j.expires_at ? Math.max(1, Math.min(LINK_S, Math.floor((j.expires_at.getTime() - Date.now()) / 1000))) : LINK_S;
    const url = live ? await this.deps.store.presignGet(j.object_key!, { expiresInSeconds: seconds, filename: j.object_key!.split('/').pop() }) : '';
    return {
      id: j.id,
      project_id: j.project_id,
      schema_id: j.schema_id,
      kind: j.kind,
      status: j.status,
      rows_done: j.rows_done,
      rows_total: j.rows_total,
      percent: j.status === 'done' ? 100 : j.rows_total > 0 ? Math.min(100, Math.round((j.rows_done / j.rows_total) * 1000) / 10) : 0,
      url,
      error: j.error,
      size: j.size,
      time_created: j.time_created.toISOString(),
      expires_at: j.expires_at?.toISOString() ?? '',
    };
  }
}
