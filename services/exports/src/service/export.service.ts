// Export jobs (spec 001 §7 Exports): queued by those who see a project's results, read back with their progress and,
// once done, a download link until the file expires; cancelled on request.
import { PROJECT_OPERATIONS } from '@fieldwork/access';
import { randomUUID } from 'node:crypto';
import { common, exports_, projects, toFieldMessages } from '@fieldwork/proto';
import { isQuestion, itemsInOrder, text, type SchemaBody } from '@fieldwork/sampler';
import {
  IMPORT_MESSAGES,
  placesOf,
  resolveMapping,
  rowToPayload,
  targetLabel,
  type Cell,
  type RowContext,
} from '../domain/import-mapping.js';
import { readRows } from '../import/read-rows.js';
import type { ImportParams } from '../import/run-import.js';
import { problems, projectAccess, UnsafeZip } from '@fieldwork/service-kit';
import { JobStore, type ExportKind, type JobRow } from '../store/job.store.js';
import type { Ctx, ExportsDeps } from './deps.js';

export const KINDS: readonly ExportKind[] = ['named_csv', 'coded_csv', 'dictionary_csv', 'xlsx_excel'];
const LINK_S = 3600;
const PREVIEW_ROWS = 10;

/** A preview cell as its message; what JSON has no value for (a blank, NaN) is an empty cell, as JSON's null was. */
function cellMessage(c: Cell): exports_.Cell {
  if (typeof c === 'string') return { text: c };
  if (typeof c === 'boolean') return { flag: c };
  if (typeof c === 'number') return Number.isFinite(c) ? { number: c } : {};
  if (c instanceof Date) return Number.isNaN(c.getTime()) ? {} : { text: c.toISOString() };
  return {};
}

/** The questions a column may be mapped to, for the mapping screen. */
function mappableQuestions(body: SchemaBody, lang: string) {
  const out: { id: number; code: string; label: string; type: string; part?: string }[] = [];
  for (const { item } of itemsInOrder(body)) {
    if (!isQuestion(item) || item.type === 'calculated' || item.type === 'concatenation') continue;
    const label = text(item.name, lang, body.primary_language) || item.codeName;
    if (item.type === 'geotag')
      for (const part of ['lat', 'lng'])
        out.push({
          id: item.id,
          code: `${item.codeName}_${part}`,
          label: `${label} (${part === 'lat' ? 'latitude' : 'longitude'})`,
          type: item.type,
          part,
        });
    else out.push({ id: item.id, code: item.codeName, label, type: item.type });
  }
  return out;
}

/** What a finished import did, from the job's stored result ({} until it is done, and for exports). */
function jobResult(j: JobRow): Pick<exports_.Job, 'import_counts' | 'users_report'> {
  if (!j.result || Object.keys(j.result).length === 0) return {};
  if (j.kind === 'import_responses') return { import_counts: exports_.ImportCounts.fromPartial(j.result) };
  if (j.kind === 'import_users') return { users_report: projects.BulkReport.fromPartial(j.result) };
  return {};
}

export class ExportService {
  private readonly jobs: JobStore;
  /** The workspace of each project seen (from its access check), for the audit log. */
  private readonly orgOf = new Map<number, number>();

  constructor(private readonly deps: ExportsDeps) {
    this.jobs = new JobStore(deps.sql);
  }

  /** The caller, when they hold one of `screens` in the project (the export operation of packages/access by default). */
  private async requireResults(
    caller: common.Caller | undefined,
    projectId: number,
    ctx: Ctx,
    screens: readonly string[] = PROJECT_OPERATIONS.export,
  ): Promise<common.Caller> {
    return (await this.granted(caller, projectId, ctx, screens)).caller;
  }

  /** The caller and their access to the project (the call's grant, else the projects service's answer), when it holds one of `screens`. */
  private async granted(
    caller: common.Caller | undefined,
    projectId: number,
    ctx: Ctx,
    screens: readonly string[],
  ): Promise<{ caller: common.Caller; access: projects.ProjectAccess }> {
    if (!caller || caller.user_id <= 0) throw problems.notAuthenticated();
    const access = await projectAccess(this.deps.contextSecret ?? '', ctx.metadata, caller, projectId, () =>
      this.deps.projects.getAccess({ caller, project_id: projectId }, ctx),
    );
    if (!screens.some((s) => access.screens.includes(s))) throw problems.forbidden();
    this.orgOf.set(projectId, access.organization_id);
    return { caller, access };
  }

  /** Exports and imports in the workspace's audit log (auth); a failure to record is logged, not thrown. */
  private async audit(job: JobRow, event: 'export_created' | 'import_created', ctx: Ctx): Promise<void> {
    await this.deps.auth
      .recordAudit(
        {
          organization_id: this.orgOf.get(job.project_id) ?? 0,
          actor_user_id: job.created_by,
          event,
          target: `project ${job.project_id}`,
          ip: '',
          details_json: JSON.stringify({
            job: job.id,
            kind: job.kind,
            schema: job.schema_id,
            ...(job.profile ? { profile: job.profile } : {}),
          }),
          id: 0,
          time: '',
        },
        ctx,
      )
      .catch((err: unknown) => this.deps.log.error({ err, event }, 'audit event not recorded'));
  }

  async create(req: exports_.CreateExportRequest, ctx: Ctx): Promise<exports_.Job> {
    if (!KINDS.includes(req.kind as ExportKind)) throw problems.notFound();
    const caller = await this.requireResults(req.caller, req.project_id, ctx);
    const schemas = (await this.deps.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
    const schema =
      req.schema_id === 0
        ? [...schemas].sort((a, b) => a.level - b.level)[0]
        : schemas.find((s) => s.id === req.schema_id);
    if (!schema) throw problems.invalidSchemaId();
    const profile = req.profile.trim();
    if (profile.length > 200)
      throw problems.invalidFields({ profile: ['Ensure this field has no more than 200 characters.'] });
    if (!['', 'wide', 'long'].includes(req.layout)) throw problems.invalidFields({ layout: ['Choose wide or long.'] });
    const job = await this.jobs.create({
      id: randomUUID(),
      project_id: req.project_id,
      schema_id: schema.id,
      kind: req.kind as ExportKind,
      created_by: caller.user_id,
      lang: req.lang || '',
      profile,
      ...(req.layout === 'long' ? { params: { layout: 'long' } } : {}),
    });
    await this.deps.enqueue(job.id);
    this.deps.log.info({ jobId: job.id, projectId: job.project_id, kind: job.kind }, 'export queued');
    await this.audit(job, 'export_created', ctx);
    return this.toJob(job);
  }

  /** The form of an import (the top level when none is named), the uploaded file, and the mapping asked. */
  private async importSetup(req: exports_.ImportRequest, ctx: Ctx) {
    const { caller, access } = await this.granted(req.caller, req.project_id, ctx, ['projectLevelIngestion']);
    // A deleted project takes no imports (the responses service would refuse every batch anyway).
    if (access.project_state === 'D') throw problems.invalidProjectId();
    const schemas = (await this.deps.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
    const schema =
      req.schema_id === 0
        ? [...schemas].sort((a, b) => a.level - b.level)[0]
        : schemas.find((s) => s.id === req.schema_id);
    if (!schema) throw problems.invalidSchemaId();
    if (!req.file_identifier.trim()) throw problems.invalidFields({ file_identifier: ['This field is required.'] });
    const file = await this.deps.projects.getFile(
      { caller, project_id: req.project_id, file_id: req.file_identifier },
      ctx,
    );
    if (!/\.(csv|xlsx)$/i.test(file.filename))
      throw problems.invalidFields({ file_identifier: ['Import a CSV or XLSX file.'] });
    if (req.value_delimiter.length > 5)
      throw problems.invalidFields({ value_delimiter: ['Ensure this field has no more than 5 characters.'] });
    const doc = await this.deps.forms.getSchemaInternal({ schema_id: schema.id }, ctx);
    const body = JSON.parse(doc.body_json) as SchemaBody;
    const mapping = { labelMap: req.label_map, droppedColumns: req.dropped_columns, mappedColumns: req.mapped_columns };
    return { caller, access, schema, file, body, mapping };
  }

  /** The header and first rows of the file, and what each column would fill. */
  async previewImport(req: exports_.ImportRequest, ctx: Ctx): Promise<exports_.ImportPreview> {
    const { caller, schema, file, body, mapping } = await this.importSetup(req, ctx);
    const { headers, rows } = await this.firstRows(file.object_key, file.filename, PREVIEW_ROWS);
    const resolved = resolveMapping(body, headers, mapping);
    const lang = req.lang || body.primary_language;
    const project = await this.deps.projects.getProject({ caller, project_id: req.project_id }, ctx);
    const rc: RowContext = {
      body,
      projectId: req.project_id,
      schemaId: schema.id,
      targets: resolved.targets,
      headers,
      places: placesOf(project),
      valueDelimiter: req.value_delimiter,
      importCurrent: req.import_current,
      deviceId: req.device_id,
    };
    return {
      columns: headers.map((header, i) => {
        const t = resolved.targets[i];
        return {
          header,
          target_kind: t?.kind ?? '',
          item_id: t?.kind === 'item' ? t.item.id : 0,
          target: t?.kind === 'field' ? t.field : t?.kind === 'item' ? (t.part ?? '') : '',
          label: targetLabel(body, t, lang),
        };
      }),
      rows: rows.map((row) => ({ cells: Array.from(row, cellMessage) })),
      errors: toFieldMessages(resolved.errors),
      row_problems:
        Object.keys(resolved.errors).length > 0
          ? []
          : rows.map((cells, k) => ({ problems: rowToPayload(rc, cells, k + 1).problems })),
      questions: mappableQuestions(body, lang),
    };
  }

  async createImport(req: exports_.ImportRequest, ctx: Ctx): Promise<exports_.Job> {
    const { caller, access, schema, file, body, mapping } = await this.importSetup(req, ctx);
    const { headers } = await this.firstRows(file.object_key, file.filename, 0);
    const resolved = resolveMapping(body, headers, mapping);
    if (Object.keys(resolved.errors).length > 0) throw problems.invalidFields(resolved.errors);
    if (!resolved.targets.some((t) => t?.kind === 'item'))
      throw problems.invalid('No column of the file is mapped to a question of this form.');
    const params: ImportParams = {
      caller: common.Caller.toJSON(caller),
      access: Buffer.from(projects.ProjectAccess.encode(access).finish()).toString('base64'),
      file_id: file.file_id,
      object_key: file.object_key,
      filename: file.filename,
      label_map: mapping.labelMap,
      dropped_columns: mapping.droppedColumns,
      mapped_columns: mapping.mappedColumns,
      value_delimiter: req.value_delimiter,
      import_current: req.import_current,
      device_id: req.device_id.slice(0, 200),
    };
    const job = await this.jobs.create({
      id: randomUUID(),
      project_id: req.project_id,
      schema_id: schema.id,
      kind: 'import_responses',
      created_by: caller.user_id,
      lang: req.lang || '',
      params: params as never,
    });
    await this.deps.enqueue(job.id);
    this.deps.log.info({ jobId: job.id, projectId: job.project_id, file: file.file_id }, 'import queued');
    await this.audit(job, 'import_created', ctx);
    return this.toJob(job);
  }

  /** Bulk users from the template CSV: kept in the store until the job has read it. */
  async createUsersImport(req: exports_.UsersImportRequest, ctx: Ctx): Promise<exports_.Job> {
    const caller = await this.requireResults(req.caller, req.project_id, ctx, ['admins', 'staff']);
    if (req.content.length === 0) throw problems.invalidFields({ file: ['The file is empty.'] });
    const id = randomUUID();
    const key = `imports/${req.project_id}/${id}/users.csv`;
    await this.deps.store.put(key, Buffer.from(req.content), { contentType: 'text/csv', size: req.content.length });
    const job = await this.jobs.create({
      id,
      project_id: req.project_id,
      schema_id: 0,
      kind: 'import_users',
      created_by: caller.user_id,
      lang: '',
      params: { caller: common.Caller.toJSON(caller), object_key: key, filename: req.filename } as never,
    });
    await this.deps.enqueue(job.id);
    return this.toJob(job);
  }

  /** The header row and up to `n` data rows (blank rows skipped) of a stored file. */
  private async firstRows(key: string, filename: string, n: number): Promise<{ headers: string[]; rows: Cell[][] }> {
    const input = await this.deps.store.get(key);
    const it = readRows(input, filename).rows[Symbol.asyncIterator]();
    try {
      const first = await it.next().catch((err: unknown) => {
        if (err instanceof UnsafeZip) throw problems.invalidFields({ file_identifier: [err.message] });
        throw problems.invalidFields({
          file_identifier: [
            'The file could not be read as ' + (/\.xlsx$/i.test(filename) ? 'an XLSX workbook.' : 'CSV.'),
          ],
        });
      });
      if (first.done) throw problems.invalidFields({ file_identifier: [IMPORT_MESSAGES.noHeader] });
      const rows: Cell[][] = [];
      while (rows.length < n) {
        const next = await it.next();
        if (next.done) break;
        if (next.value.some((c) => c !== null && c !== undefined && String(c).trim() !== ''))
          rows.push(next.value.map((c) => (c instanceof Date ? c.toISOString() : c)));
      }
      return { headers: first.value.map((c) => String(c ?? '').trim()), rows };
    } finally {
      // Ends the reader (a workbook's temporary copy is removed) whether or not it was read to the end.
      await it.return?.(undefined).catch(() => undefined);
      input.destroy();
    }
  }

  async get(req: exports_.JobRef, ctx: Ctx): Promise<exports_.Job> {
    const job = await this.mine(req, ctx);
    return this.toJob(job);
  }

  async cancel(req: exports_.JobRef, ctx: Ctx): Promise<exports_.Job> {
    await this.mine(req, ctx);
    const job = this.toJob((await this.jobs.cancel(req.job_id))!);
    this.deps.announceFinished(req.job_id);
    return job;
  }

  /**
   * The job, to the one who queued it while they still may do what queued it. Another user's job is not found,
   * whatever their role: a job's file is its creator's (issue 18, least privilege; the spec is silent).
   */
  private async mine(req: exports_.JobRef, ctx: Ctx): Promise<JobRow> {
    const job = await this.jobs.get(req.job_id);
    if (!job) throw problems.notFound();
    const screens =
      job.kind === 'import_users'
        ? ['admins', 'staff']
        : job.kind === 'import_responses'
          ? ['projectLevelIngestion']
          : PROJECT_OPERATIONS.export;
    const caller = await this.requireResults(req.caller, job.project_id, ctx, screens);
    if (job.created_by !== caller.user_id) throw problems.notFound();
    return job;
  }

  private async toJob(j: JobRow): Promise<exports_.Job> {
    const live = j.status === 'done' && (j.expires_at === null || j.expires_at.getTime() > Date.now());
    const seconds =
      live && j.expires_at
        ? Math.max(1, Math.min(LINK_S, Math.floor((j.expires_at.getTime() - Date.now()) / 1000)))
        : LINK_S;
    const link = async (key: string | null) =>
      live && key ? this.deps.store.presignGet(key, { expiresInSeconds: seconds, filename: key.split('/').pop() }) : '';
    const url = await link(j.object_key);
    return {
      id: j.id,
      project_id: j.project_id,
      schema_id: j.schema_id,
      kind: j.kind,
      status: j.status,
      rows_done: j.rows_done,
      rows_total: j.rows_total,
      percent:
        j.status === 'done'
          ? 100
          : j.rows_total > 0
            ? Math.min(100, Math.round((j.rows_done / j.rows_total) * 1000) / 10)
            : 0,
      url,
      error: j.error,
      size: j.size,
      time_created: j.time_created.toISOString(),
      expires_at: j.expires_at?.toISOString() ?? '',
      rows_failed: j.rows_failed,
      report_url: await link(j.report_key),
      profile: j.profile,
      ...jobResult(j),
    };
  }
}
