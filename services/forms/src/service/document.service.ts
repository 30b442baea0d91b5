// The builder's calls (spec 001 §7 Schema): load and save a schema document, the language list, and forms made from
// uploaded files. Saving is refused on live and finalized projects, for a longitudinal schema without a primary key,
// and with several primary keys, with the spec's messages; the project's state comes from the projects service.
import ISO6391 from 'iso-639-1';
import type { common, forms, projects } from '@fieldwork/proto';
import { saveRefusal, SAVE_REFUSALS, countQuestions, type SchemaBody } from '@fieldwork/sampler';
import { checkZip, problems, UnsafeZip, type ZipLimits, type Logger, type PromiseClient, type Sql, type ObjectStore } from '@fieldwork/service-kit';
import { documentProblems, parseDocument } from '../domain/document.js';
import { ConversionRefused, type Converted } from '../domain/convert.js';
import { convertUpload, REFUSALS, uploadKind } from '../domain/workbook.js';
import { xlsFormFile } from '../domain/xlsform-export.js';
import { SchemaStore, type SchemaRow } from '../store/schema.store.js';

export type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
type Ctx = { requestId: string };

const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

function toDocument(row: SchemaRow, editable: boolean): forms.SchemaDocument {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    level: row.level,
    revision: row.revision,
    time_updated: row.time_updated.toISOString(),
    body_json: JSON.stringify(row.body),
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
    const parsed = parseDocument(req.body_json);
    if ('errors' in parsed) throw problems.invalidFields(parsed.errors);
    const refusal = saveRefusal(access.project_state, row.level === 0 ? access.project_type : 'S', parsed.body);
    if (refusal) throw problems.invalid(refusal);
    const errors = documentProblems(parsed.body);
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

  /** Makes the project's (first-level, or given) schema from an uploaded question list or XLSForm. */
  async convert(req: forms.ConvertUploadRequest, ctx: Ctx): Promise<forms.ConvertUploadReply> {
    const access = await this.projects.getAccess({ caller: req.caller, project_id: req.project_id }, ctx);
    if (!access.screens.includes('form')) throw problems.forbidden();
    const file = await this.projects.getFile({ caller: req.caller, project_id: req.project_id, file_id: req.file_identifier }, ctx);
    if (file.size > MAX_UPLOAD_BYTES) throw problems.payloadTooLarge();
    const rows = await this.store.ofProject(req.project_id);
    const target = req.schema_id > 0 ? rows.find((r) => r.id === req.schema_id) : rows.find((r) => r.level === 0);
    if (!target) throw problems.invalidSchemaId();
    const refusal = saveRefusal(access.project_state, 'S', target.body);
    if (refusal === SAVE_REFUSALS.notEditable) throw problems.invalid(refusal);
    const content = await streamToBuffer(await this.files.get(file.object_key));
    const converted = await convertFile(file.filename, content, target.level === 0 ? access.project_type : 'S');
    const saved = await this.store.save(target.id, converted.converted.body, converted.converted.name, 0, callerId(req.caller));
    this.log.info({ projectId: req.project_id, format: converted.format, notes: converted.converted.notes.length }, 'form made from a file');
    return {
      schema: toDocument(saved!, true),
      notes: converted.converted.notes,
      format: converted.format,
      questions: converted.converted.questions,
      summary: converted.converted.summary,
    };
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

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPLOAD_BYTES) throw problems.payloadTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const FORM_XLSX_LIMITS: ZipLimits = { maxEntries: 1000, maxEntryBytes: 100 * 1024 ** 2, maxTotalBytes: 100 * 1024 ** 2, maxRatio: 100 };

/** Reads a CSV question list, an XLSX question list, or an XLSForm (an XLSX with a "survey" sheet); see domain/workbook.ts. */
export async function convertFile(filename: string, content: Buffer, projectType: string): Promise<{ format: string; converted: Converted }> {
  try {
    const kind = uploadKind(filename, content);
    // A form's question list is small: a workbook expanding past 100 MB is refused before exceljs inflates it in memory.
    if (kind === 'xlsx') {
      try {
        await checkZip(content, FORM_XLSX_LIMITS);
      } catch (err) {
        throw problems.invalid(err instanceof UnsafeZip ? err.message : REFUSALS.unreadable);
      }
    }
    return await convertUpload(kind, content, projectType);
  } catch (err) {
    if (err instanceof ConversionRefused) throw problems.invalid(err.message);
    throw err;
  }
}

export type { SchemaBody };
