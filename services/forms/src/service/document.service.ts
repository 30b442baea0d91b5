// The builder's calls (spec 001 §7 Schema): load and save a schema document, the language list, and forms made from
// uploaded files. Saving is refused on live and finalized projects, for a longitudinal schema without a primary key,
// and with several primary keys, with the spec's messages; the project's state comes from the projects service.
import ISO6391 from 'iso-639-1';
import type { common, forms, projects, responses } from '@fieldwork/proto';
import { saveRefusal, SAVE_REFUSALS, countQuestions, FORM_MAX_BYTES, type SchemaBody } from '@fieldwork/sampler';
import { problems, type Logger, type PromiseClient, type Sql, type ObjectStore } from '@fieldwork/service-kit';
import { documentProblems, parseDocument } from '../domain/document.js';
import type { ConversionPool } from '../convert/conversion-pool.js';
import type { FormLimits } from '../convert/form-limits.js';
import { xlsFormFile } from '../domain/xlsform-export.js';
import { changeFields, formChanges } from '../domain/form-changes.js';
import { SchemaStore, type SavedRow, type SchemaRow } from '../store/schema.store.js';

export type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
export type ResponsesClient = Pick<PromiseClient<typeof responses.ResponsesServiceService, responses.ResponsesServiceClient>, 'countResponses'>;
/** Earlier versions listed, newest first. */
const VERSIONS_LISTED = 50;

/** The call's request id, and its signal: aborted when the caller gives up (the gateway's deadline passed). */
type Ctx = { requestId: string; signal?: AbortSignal };

export interface ConversionOptions {
  /** Largest form file converted, in bytes (413.2 above it, before a byte is read). */
  maxFileBytes: number;
  /** What a form file may hold (form-limits.ts). */
  limits: FormLimits;
}

function toDocument(row: SchemaRow | SavedRow, editable: boolean): forms.SchemaDocument {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    level: row.level,
    revision: row.revision,
    time_updated: row.time_updated.toISOString(),
    body_json: 'body_json' in row ? row.body_json : JSON.stringify(row.body),
    editable,
  };
}

export class DocumentService {
  private readonly store: SchemaStore;

  constructor(
    sql: Sql,
    private readonly projects: ProjectsClient,
    private readonly files: Pick<ObjectStore, 'get' | 'stat'>,
    private readonly log: Logger,
    private readonly conversions: Pick<ConversionPool, 'run'>,
    private readonly conversion: ConversionOptions,
    private readonly responses: ResponsesClient,
  ) {
    this.store = new SchemaStore(sql);
  }

  /** Any user of the project may load its schemas (collectors fill them in); unknown ids are "Invalid Schema Id!". */
  async get(req: forms.SchemaRef, ctx: Ctx): Promise<forms.SchemaDocument> {
    const { row, access } = await this.visible(req.caller, req.schema_id, ctx);
    return toDocument(row, access.screens.includes('form') && access.project_state !== 'O' && access.project_state !== 'F');
  }

  /** The schema as an XLSForm, for whoever may load it; the file is named after the form. */
  async exportXlsForm(req: forms.SchemaRef, ctx: Ctx): Promise<forms.XlsFormFile> {
    const { row } = await this.visible(req.caller, req.schema_id, ctx);
    const title = row.name.trim() || `Form ${row.id}`;
    const { content, notes } = await xlsFormFile(row.body, { title, schemaId: row.id });
    this.log.info({ schemaId: row.id, bytes: content.length, notes: notes.length }, 'form exported as XLSForm');
    return { content, filename: `${fileName(title)}.xlsx`, notes };
  }

  async save(req: forms.SaveSchemaRequest, ctx: Ctx): Promise<forms.SchemaDocument> {
    const { row, access } = await this.visible(req.caller, req.schema_id, ctx);
    if (!access.screens.includes('form')) throw problems.forbidden();
    if (Buffer.byteLength(req.body_json) > FORM_MAX_BYTES) throw problems.fileTooLarge('Forms', FORM_MAX_BYTES);
    const parsed = parseDocument(req.body_json);
    if ('errors' in parsed) throw problems.invalidFields(parsed.errors);
    const refusal = saveRefusal(access.project_state, row.level === 0 ? access.project_type : 'S', parsed.body);
    if (refusal) throw problems.invalid(refusal);
    const errors = documentProblems(parsed.body, row.id);
    if (Object.keys(errors).length > 0) throw problems.invalidFields(errors);
    const saved = await this.store.save(row.id, parsed.body, req.name.trim() || undefined, req.revision, callerId(req.caller));
    if (!saved) throw problems.alreadyExists('A newer revision of this form');
    this.log.info({ schemaId: row.id, revision: saved.revision, questions: countQuestions(parsed.body) }, 'schema saved');
    return toDocument(saved, true);
  }

  /** For the services that validate answers (no caller: never reachable through the gateway). */
  async getInternal(req: forms.SchemaIdRequest): Promise<forms.SchemaDocument> {
    const row = req.schema_id > 0 ? await this.store.byId(req.schema_id) : undefined;
    if (!row) throw problems.invalidSchemaId();
    return toDocument(row, false);
  }

  async languages(): Promise<forms.LanguageList> {
    return {
      results: ISO6391.getAllCodes()
        .map((code) => ({ iso_code_1: code, name: ISO6391.getName(code), native_name: ISO6391.getNativeName(code) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /**
   * Makes the project's (first-level, or given) schema from an uploaded question list or XLSForm. The file is
   * converted in a conversion worker (conversion-pool.ts), never on this event loop; the schema is saved only when
   * the conversion succeeded, so a refused file leaves the project's form as it was.
   */
  async convert(req: forms.ConvertUploadRequest, ctx: Ctx): Promise<forms.ConvertUploadReply> {
    const access = await this.projects.getAccess({ caller: req.caller, project_id: req.project_id }, ctx);
    if (!access.screens.includes('form')) throw problems.forbidden();
    const file = await this.projects.getFile({ caller: req.caller, project_id: req.project_id, file_id: req.file_identifier }, ctx);
    const { maxFileBytes } = this.conversion;
    if (file.size > maxFileBytes) throw problems.fileTooLarge('Form files', maxFileBytes);
    const rows = await this.store.ofProject(req.project_id);
    const target = req.schema_id > 0 ? rows.find((r) => r.id === req.schema_id) : rows.find((r) => r.level === 0);
    if (!target) throw problems.invalidSchemaId();
    const refusal = saveRefusal(access.project_state, 'S', target.body);
    if (refusal === SAVE_REFUSALS.notEditable) throw problems.invalid(refusal);
    const content = await streamToBuffer(await this.files.get(file.object_key), maxFileBytes);
    const projectType = target.level === 0 ? access.project_type : 'S';
    const converted = await this.conversions.run({ filename: file.filename, content, projectType, limits: this.conversion.limits }, ctx.signal);
    // Responses answer the current questions: replacing them needs the caller's confirmation, given knowing the changes.
    const counts = await this.responses.countResponses({ project_id: req.project_id }, ctx);
    const answered = Number(counts.by_schema[target.id]?.total ?? 0);
    if (answered > 0 && !req.confirm) throw problems.replaceNeedsConfirm(answered, changeFields(formChanges(target.body, converted.converted.body)));
    await this.store.keepCurrent(target);
    // Saved over the revision the changes were listed against, or refused (someone saved in between).
    const saved = await this.store.save(target.id, converted.converted.body, converted.converted.name, target.revision, callerId(req.caller));
    if (!saved) throw problems.alreadyExists('A newer revision of this form');
    this.log.info({ projectId: req.project_id, format: converted.format, notes: converted.converted.notes.length, responses: answered }, 'form made from a file');
    return {
      schema: toDocument(saved, true),
      notes: converted.converted.notes,
      format: converted.format,
      questions: converted.converted.questions,
      summary: converted.converted.summary,
    };
  }

  /** Earlier versions of the schema, for whoever may save it. */
  async versions(req: forms.SchemaRef, ctx: Ctx): Promise<forms.SchemaVersionList> {
    const { row } = await this.editable(req.caller, req.schema_id, ctx);
    const rows = await this.store.versions(row.id, row.revision, VERSIONS_LISTED);
    return {
      results: rows.map((v) => ({ id: v.revision, time_saved: v.time_saved.toISOString(), name: v.name ?? row.name, questions: v.questions })),
    };
  }

  /** Makes an earlier version current as a new revision; the body it replaces stays a version. */
  async restore(req: forms.RestoreVersionRequest, ctx: Ctx): Promise<forms.SchemaDocument> {
    const { row } = await this.editable(req.caller, req.schema_id, ctx);
    const version = req.version_id > 0 && req.version_id < row.revision ? await this.store.version(row.id, req.version_id) : undefined;
    if (!version) throw problems.notFound();
    await this.store.keepCurrent(row);
    const saved = await this.store.save(row.id, version.body, version.name ?? undefined, row.revision, callerId(req.caller));
    if (!saved) throw problems.alreadyExists('A newer revision of this form');
    this.log.info({ schemaId: row.id, from: row.revision, restored: version.revision, revision: saved.revision }, 'schema version restored');
    return toDocument(saved, true);
  }

  /** The schema when the caller may save it: the form screen, and a project neither live nor finalized. */
  private async editable(caller: common.Caller | undefined, schemaId: number, ctx: Ctx) {
    const found = await this.visible(caller, schemaId, ctx);
    if (!found.access.screens.includes('form')) throw problems.forbidden();
    if (saveRefusal(found.access.project_state, 'S', found.row.body) === SAVE_REFUSALS.notEditable) throw problems.invalid(SAVE_REFUSALS.notEditable);
    return found;
  }

  private async visible(caller: common.Caller | undefined, schemaId: number, ctx: Ctx) {
    const row = schemaId > 0 ? await this.store.byId(schemaId) : undefined;
    if (!row) throw problems.invalidSchemaId();
    let access: projects.ProjectAccess;
    try {
      access = await this.projects.getAccess({ caller, project_id: row.project_id }, ctx);
    } catch (err) {
      // A schema of a project the caller cannot see does not exist for them.
      if (err instanceof Error && 'code' in err && String(err.code).startsWith('404')) throw problems.invalidSchemaId();
      throw err;
    }
    return { row, access };
  }
}

/** A file name from a form's name: no path separators or control characters, at most 100 characters. */
// eslint-disable-next-line no-control-regex
const fileName = (name: string) => name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').trim().slice(0, 100) || 'form';

const callerId = (c: common.Caller | undefined) => c?.user_id ?? 0;

async function streamToBuffer(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw problems.fileTooLarge('Form files', maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export type { SchemaBody };
