// All SQL of export jobs.
import type { Sql } from '@fieldwork/service-kit';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export type ExportKind = 'named_csv' | 'coded_csv' | 'dictionary_csv' | 'xlsx_excel';
export type JobKind = ExportKind | 'import_responses' | 'import_users';

export interface JobRow {
  id: string;
  project_id: number;
  schema_id: number;
  kind: JobKind;
  status: JobStatus;
  rows_done: number;
  rows_total: number;
  object_key: string | null;
  size: number;
  error: string;
  attempts: number;
  created_by: number;
  lang: string;
  time_created: Date;
  time_updated: Date;
  expires_at: Date | null;
  profile: string;
  /** What the job was asked (imports: the file, the mapping, the caller). */
  params: Record<string, unknown>;
  rows_failed: number;
  report_key: string | null;
  result: Record<string, unknown>;
}

export class JobStore {
  constructor(private readonly sql: Sql) {}

  async create(
    j: Pick<JobRow, 'id' | 'project_id' | 'schema_id' | 'kind' | 'created_by' | 'lang'> &
      Partial<Pick<JobRow, 'profile' | 'params'>>,
  ): Promise<JobRow> {
    const { params, ...rest } = j;
    const [row] = await this.sql<
      JobRow[]
    >`insert into jobs ${this.sql({ ...rest, params: this.sql.json((params ?? {}) as never) })} returning *`;
    return row!;
  }

  async get(id: string): Promise<JobRow | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const [row] = await this.sql<JobRow[]>`select * from jobs where id = ${id}`;
    return row;
  }

  /** Takes a queued or running (abandoned) job for an attempt; undefined when it is finished or cancelled. */
  async start(id: string): Promise<JobRow | undefined> {
    const [row] = await this.sql<JobRow[]>`
      update jobs set status = 'running', attempts = attempts + 1, rows_done = 0, time_updated = now()
      where id = ${id} and status in ('queued', 'running') returning *`;
    return row;
  }

  async progress(id: string, rowsDone: number, rowsTotal: number): Promise<JobStatus | undefined> {
    const [row] = await this.sql<{ status: JobStatus }[]>`
      update jobs set rows_done = ${rowsDone}, rows_total = greatest(rows_total, ${rowsTotal}), time_updated = now() where id = ${id} returning status`;
    return row?.status;
  }

  async finish(
    id: string,
    f: {
      object_key: string | null;
      size: number;
      rows: number;
      expires_at: Date;
      rows_failed?: number;
      report_key?: string | null;
      result?: Record<string, unknown>;
    },
  ): Promise<boolean> {
    const rows = await this.sql`
      update jobs set status = 'done', object_key = ${f.object_key}, size = ${f.size}, rows_done = ${f.rows}, rows_total = ${f.rows},
        expires_at = ${f.expires_at}, error = '', time_updated = now(), rows_failed = ${f.rows_failed ?? 0}, report_key = ${f.report_key ?? null},
        result = ${this.sql.json((f.result ?? {}) as never)}
      where id = ${id} and status = 'running' returning id`;
    return rows.length > 0;
  }

  async fail(id: string, error: string): Promise<void> {
    await this
      .sql`update jobs set status = 'failed', error = ${error.slice(0, 500)}, time_updated = now() where id = ${id} and status in ('queued', 'running')`;
  }

  async cancel(id: string): Promise<JobRow | undefined> {
    const [row] = await this.sql<JobRow[]>`
      update jobs set status = case when status in ('queued', 'running') then 'cancelled' else status end, time_updated = now()
      where id = ${id} returning *`;
    return row;
  }

  /** Done jobs whose file has expired (their files are deleted, then the rows say so). */
  expired(limit = 100): Promise<JobRow[]> {
    return this.sql<JobRow[]>`
      select * from jobs where status = 'done' and expires_at < now() and (object_key is not null or report_key is not null) limit ${limit}`;
  }

  async forget(id: string): Promise<void> {
    await this.sql`update jobs set object_key = null, report_key = null, time_updated = now() where id = ${id}`;
  }
}
