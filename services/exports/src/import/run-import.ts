// One import job, start to end: the uploaded file read row by row from the object store, each row mapped
// (import-mapping.ts) and checked with packages/sampler, the good ones sent in batches through the responses
// service's ImportBatch (the same checks and decisions as uploads, outbox and all), and every refused row written to
// a CSV report (row, column, value, message) in the object store. New responses get ids made from the row
// (importedResponseId), so importing the same file again (or a retried job) changes nothing.
import { PassThrough } from 'node:stream';
import { common, fromFieldMessages, projects, type responses } from '@fieldwork/proto';
import type { SchemaBody } from '@fieldwork/sampler';
import { GRANT_KEY, signGrant, type ObjectStore } from '@fieldwork/service-kit';
import {
  IMPORT_MESSAGES,
  placesOf,
  resolveMapping,
  rowToPayload,
  type Cell,
  type RowContext,
} from '../domain/import-mapping.js';
import { csvStringifier } from '../export/csv-cell.js';
import { ExportCancelled } from '../export/csv-writer.js';
import type { ExportsDeps } from '../service/deps.js';
import type { JobRow } from '../store/job.store.js';
import { readRows } from './read-rows.js';

export interface ImportParams {
  caller: unknown;
  /**
   * The caller's access to the project when the import was queued (a ProjectAccess, base64): the job's batches carry
   * it to the responses service as a grant signed afresh, so the import runs with the access it was queued with and
   * asks the projects service nothing (a job queued before this field existed has none, and the service asks).
   */
  access?: string;
  file_id: string;
  object_key: string;
  filename: string;
  label_map: Record<string, string>;
  dropped_columns: string[];
  mapped_columns: Record<string, string | number>;
  value_delimiter: string;
  import_current: boolean;
  device_id: string;
}

export interface JobOutcome {
  key: string | null;
  rows: number;
  size: number;
  rows_failed?: number;
  report_key?: string | null;
  result?: Record<string, unknown>;
}

export class ImportFailed extends Error {}

/** A CSV written to the object store row by row (the import's error report), every cell guarded (csv-cell.ts). */
class CsvSink {
  private readonly csv = csvStringifier({ bom: true });
  private readonly stored: Promise<{ size: number }>;
  rows = 0;

  constructor(store: ObjectStore, key: string) {
    const out = new PassThrough();
    this.csv.pipe(out);
    this.stored = store.put(key, out, { contentType: 'text/csv; charset=utf-8' });
  }

  async write(cells: (string | number)[]): Promise<void> {
    this.rows++;
    if (!this.csv.write(cells)) await new Promise<void>((r) => this.csv.once('drain', () => r()));
  }

  async end(): Promise<number> {
    this.csv.end();
    return (await this.stored).size;
  }

  async abort(): Promise<void> {
    this.csv.destroy();
    await this.stored.catch(() => undefined);
  }
}

const BATCH = 500;

export async function runImport(
  job: JobRow,
  deps: ExportsDeps,
  options: { progress: (done: number, total: number) => Promise<void>; cancelled: () => boolean },
): Promise<JobOutcome> {
  const p = job.params as unknown as ImportParams;
  const ctx = { requestId: `job-${job.id}` };
  const caller = common.Caller.fromJSON(p.caller);
  // The queued grant, signed again for each batch (a grant lives 15 s; an import may take minutes).
  const queued = p.access ? projects.ProjectAccess.decode(Buffer.from(p.access, 'base64')) : undefined;
  const secret = deps.contextSecret ?? '';
  const batchCtx = () =>
    queued && secret ? { ...ctx, headers: { [GRANT_KEY]: signGrant(secret, caller, queued, Date.now()) } } : ctx;
  const [doc, project, info] = await Promise.all([
    deps.forms.getSchemaInternal({ schema_id: job.schema_id }, ctx),
    deps.projects.getProject({ caller, project_id: job.project_id }, ctx),
    deps.store.stat(p.object_key),
  ]);
  const body = JSON.parse(doc.body_json) as SchemaBody;
  const size = info?.size ?? 0;
  const source = readRows(await deps.store.get(p.object_key), p.filename);
  const rows = source.rows[Symbol.asyncIterator]();
  const first = await rows.next();
  if (first.done) throw new ImportFailed(IMPORT_MESSAGES.noHeader);
  const headers = first.value.map((c) => String(c ?? '').trim());
  const mapping = resolveMapping(body, headers, {
    labelMap: p.label_map,
    droppedColumns: p.dropped_columns,
    mappedColumns: p.mapped_columns,
  });
  if (Object.keys(mapping.errors).length > 0) throw new ImportFailed(Object.values(mapping.errors).flat().join(' '));
  const rc: RowContext = {
    body,
    projectId: job.project_id,
    schemaId: job.schema_id,
    targets: mapping.targets,
    headers,
    places: placesOf(project),
    valueDelimiter: p.value_delimiter,
    importCurrent: p.import_current,
    deviceId: p.device_id || `import-${job.id.slice(0, 8)}`,
  };
  const headerIndex = new Map(headers.map((h, i) => [h, i]));
  const itemHeader = new Map<string, string>();
  mapping.targets.forEach((t, i) => t?.kind === 'item' && itemHeader.set(String(t.item.id), headers[i]!));

  const reportKey = `imports/${job.project_id}/${job.id}/errors.csv`;
  const report = new CsvSink(deps.store, reportKey);
  const counts = { stored: 0, unmodified: 0, ignored: 0 };
  let done = 0;
  let failedRows = 0;
  let batch: { row: number; cells: Cell[]; payload: Record<string, unknown>; action: string }[] = [];

  const fail = async (row: number, cells: Cell[], problems: Record<string, string>) => {
    failedRows++;
    for (const [column, message] of Object.entries(problems)) {
      const i = headerIndex.get(column);
      const v = i === undefined ? '' : cells[i];
      await report.write([
        row,
        i === undefined ? '' : column,
        v instanceof Date ? v.toISOString() : String(v ?? ''),
        message,
      ]);
    }
  };

  /** What a batch's rows did: counts, and the refused ones in the report. */
  const record = async (sent: typeof batch, reply: responses.ImportBatchReply) => {
    for (const [k, r] of reply.results.entries()) {
      if (r.status === 'failed') {
        const errors = fromFieldMessages(r.errors);
        const problems: Record<string, string> = {};
        for (const [field, messages] of Object.entries(errors)) {
          // data.0.<item id> → that question's column; other fields by name.
          const id = /^data\.\d+\.(\d+)$/.exec(field)?.[1];
          const column = (id && itemHeader.get(id)) || (field === 'non_field_errors' ? '' : field);
          problems[column] = messages.join(' ');
        }
        await fail(sent[k]!.row, sent[k]!.cells, problems);
      } else {
        counts[r.status as keyof typeof counts]++;
      }
    }
    await options.progress(
      done,
      size > 0 && source.bytesRead() > 0 ? Math.max(done, Math.round((done * size) / source.bytesRead())) : done,
    );
    if (options.cancelled()) throw new ExportCancelled();
  };

  // Two batches in flight: the next rows are read and checked while the responses service stores the last batch.
  let inflight: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    const request = deps.responses.importBatch(
      {
        caller,
        project_id: job.project_id,
        payloads_json: sent.map((b) => JSON.stringify(b.payload)),
        actions: sent.map((b) => b.action),
      },
      batchCtx(),
    );
    request.catch(() => undefined); // awaited below, after the previous batch
    await inflight;
    inflight = request.then((reply) => record(sent, reply));
    inflight.catch(() => undefined);
  };

  try {
    await report.write(['row', 'column', 'value', 'message']);
    await options.progress(0, 0);
    let row = 0;
    for (let next = await rows.next(); !next.done; next = await rows.next()) {
      row++;
      const cells = next.value;
      if (cells.every((c) => c === null || c === undefined || String(c).trim() === '')) continue;
      done++;
      const out = rowToPayload(rc, cells, row);
      if (!out.payload) await fail(row, cells, out.problems);
      else batch.push({ row, cells, payload: out.payload, action: out.action });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    await inflight;
  } catch (err) {
    await inflight.catch(() => undefined);
    await report.abort();
    await deps.store.delete(reportKey).catch(() => undefined);
    throw err;
  }
  const reportSize = await report.end();
  if (failedRows === 0) await deps.store.delete(reportKey);
  return {
    key: null,
    rows: done,
    size: failedRows > 0 ? reportSize : 0,
    rows_failed: failedRows,
    report_key: failedRows > 0 ? reportKey : null,
    result: { ...counts, failed: failedRows },
  };
}

/** A bulk upload of project users (spec 000): the CSV of the template, through the projects service's own rules. */
export async function runUsersImport(
  job: JobRow,
  deps: ExportsDeps,
  options: { progress: (done: number, total: number) => Promise<void> },
): Promise<JobOutcome> {
  const p = job.params as unknown as { caller: unknown; object_key: string; filename: string };
  const ctx = { requestId: `job-${job.id}` };
  const chunks: Buffer[] = [];
  for await (const c of await deps.store.get(p.object_key)) chunks.push(c as Buffer);
  await options.progress(0, 0);
  const report = await deps.projects.bulkUploadProjectUsers(
    {
      caller: common.Caller.fromJSON(p.caller),
      project_id: job.project_id,
      content: Buffer.concat(chunks),
      filename: p.filename,
    },
    ctx,
  );
  await deps.store.delete(p.object_key).catch(() => undefined);
  const rows = report.rows.length;
  return {
    key: null,
    rows,
    size: 0,
    rows_failed: report.failed,
    report_key: null,
    result: { added: report.added, updated: report.updated, failed: report.failed, rows: report.rows },
  };
}
