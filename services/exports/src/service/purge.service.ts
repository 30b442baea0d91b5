// A deleted project's purge in the exports service (an internal call of the projects service's purge job, one
// bounded batch a call): its export and import jobs (queued or running ones are cancelled first, so no worker writes
// a file afterwards) and every object under its exports/ and imports/ prefixes (files, error reports, users files).
import type { common } from '@fieldwork/proto';
import { problems, type Logger, type ObjectStore, type Sql } from '@fieldwork/service-kit';

export const PURGE_BATCH = 500;
export const jobPrefixes = (projectId: number) => [`exports/${projectId}/`, `imports/${projectId}/`];

export class PurgeService {
  constructor(
    private readonly sql: Sql,
    private readonly files: ObjectStore,
    private readonly log: Logger,
  ) {}

  async purge(req: common.PurgeProjectRequest): Promise<common.PurgeCounts> {
    const projectId = req.project_id;
    if (projectId <= 0) throw problems.invalidProjectId();
    const limit = req.limit > 0 ? Math.min(req.limit, 5000) : PURGE_BATCH;
    if (req.dry_run) {
      const [jobs] = await this.sql<{ n: number; bytes: number }[]>`
        select count(*)::int as n, coalesce(sum(size), 0)::float8 as bytes from jobs where project_id = ${projectId}`;
      const files = await this.objectCount(projectId);
      return {
        counts: { export_jobs: jobs!.n, export_files: files, export_bytes: Math.round(jobs!.bytes) },
        remaining: jobs!.n + files,
      };
    }
    await this.sql`
      update jobs set status = 'cancelled', time_updated = now() where project_id = ${projectId} and status in ('queued', 'running')`;
    const gone = await this.sql`
      delete from jobs where id in (select id from jobs where project_id = ${projectId} limit ${limit})`;
    let files = 0;
    for (const prefix of jobPrefixes(projectId)) {
      for await (const key of this.files.list(prefix)) {
        if (files >= limit) break;
        await this.files.delete(key);
        files++;
      }
    }
    const [left] = await this.sql<{ n: number }[]>`select count(*)::int as n from jobs where project_id = ${projectId}`;
    const remaining = left!.n + (await this.objectCount(projectId));
    this.log.info({ projectId, jobs: gone.count, files, remaining }, 'project purge batch');
    return { counts: { export_jobs: gone.count, export_files: files }, remaining };
  }

  private async objectCount(projectId: number): Promise<number> {
    let n = 0;
    for (const prefix of jobPrefixes(projectId)) for await (const _ of this.files.list(prefix)) n++;
    return n;
  }
}
