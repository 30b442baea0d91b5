// The builder's calls (spec 001 §7 Schema): load and save a schema document, the language list, and forms made from
// uploaded files. Saving is refused on live and finalized projects, for a longitudinal schema without a primary key,
// and with several primary keys, with the spec's messages; the project's state comes from the projects service.
import ISO6391 from 'iso-639-1';
import type { common, forms, projects, responses } from '@fieldwork/proto';
import {
  saveRefusal,
  SAVE_REFUSALS,
  countQuestions,
  FORM_MAX_BYTES,
  newSchemaBody,
  type SchemaBody,
} from '@fieldwork/sampler';
import {
  problems,
  projectAccess,
  transaction,
  type CallContext,
  type Logger,
  type PromiseClient,
  type Sql,
  type ObjectStore,
} from '@fieldwork/service-kit';
import { documentProblems, parseDocument } from '../domain/document.js';
import type { ConversionPool } from '../convert/conversion-pool.js';
import type { FormLimits } from '../convert/form-limits.js';
import { xlsFormFile, type ExportLevel } from '../domain/xlsform-export.js';
import { changeFields, formChanges } from '../domain/form-changes.js';
import { levelSchemaPlaceholder } from '../domain/xlsform.js';
import type { ConvertedFile } from '../convert/convert-file.js';
import { SchemaStore, type SavedRow, type SchemaRow } from '../store/schema.store.js';

export type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
export type ResponsesClient = Pick<
  PromiseClient<typeof responses.ResponsesServiceService, responses.ResponsesServiceClient>,
  'countResponses'
>;
/** Earlier versions listed, newest first. */
const VERSIONS_LISTED = 50;

/** The call's request id, and its signal: aborted when the caller gives up (the gateway's deadline passed). */
type Ctx = { requestId: string; signal?: AbortSignal; metadata?: CallContext['metadata'] };

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
    private readonly sql: Sql,
    private readonly projects: ProjectsClient,
    private readonly files: Pick<ObjectStore, 'get' | 'stat'>,
    private readonly log: Logger,
    private readonly conversions: Pick<ConversionPool, 'run'>,
    private readonly conversion: ConversionOptions,
    private readonly responses: ResponsesClient,
    /** CONTEXT_SIGNING_SECRET: a gateway's grant of the project is used when a call carries one. */
    private readonly contextSecret = '',
  ) {
    this.store = new SchemaStore(sql);
  }

  /** Any user of the project may load its schemas (collectors fill them in); unknown ids are "Invalid Schema Id!". */
  async get(req: forms.SchemaRef, ctx: Ctx): Promise<forms.SchemaDocument> {
    const { row, access } = await this.visible(req.caller, req.schema_id, ctx);
    return toDocument(
      row,
      access.screens.includes('form') && access.project_state !== 'O' && access.project_state !== 'F',
    );
  }

  /**
   * The schema as an XLSForm, for whoever may load it; the file is named after the form. The levels of the project's
   * hierarchy below the schema's are written in it as nested repeats (what an import of repeats made).
   */
  async exportXlsForm(req: forms.SchemaRef, ctx: Ctx): Promise<forms.XlsFormFile> {
    const { row, access } = await this.visible(req.caller, req.schema_id, ctx);
    const title = row.name.trim() || `Form ${row.id}`;
    const hierarchy = [...access.project_hierarchy].sort((a, b) => a.level - b.level);
    const at = hierarchy.findIndex((l) => l.schema_id === row.id);
    const levels: ExportLevel[] = [];
    if (at >= 0) {
      const rows = new Map((await this.store.ofProject(row.project_id)).map((r) => [r.id, r]));
      for (const l of hierarchy.slice(at + 1)) {
        const r = rows.get(l.schema_id);
        if (!r) break;
        levels.push({ name: l.name, body: r.body, schemaId: r.id });
      }
    }
    const { content, notes } = await xlsFormFile(row.body, { title, schemaId: row.id, levels });
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
    const saved = await this.store.save(
      row.id,
      parsed.body,
      req.name.trim() || undefined,
      req.revision,
      callerId(req.caller),
    );
    if (!saved) throw problems.alreadyExists('A newer revision of this form');
    this.log.info(
      { schemaId: row.id, revision: saved.revision, questions: countQuestions(parsed.body) },
      'schema saved',
    );
    return toDocument(saved, true);
  }

  /** For the services that validate answers (no caller: never reachable through the gateway). */
  async getInternal(req: forms.SchemaIdRequest): Promise<forms.SchemaDocument> {
    const row = req.schema_id > 0 ? await this.store.byId(req.schema_id) : undefined;
    if (!row) throw problems.invalidSchemaId();
    return toDocument(row, false);
  }

  async projectOf(req: forms.SchemaIdRequest): Promise<forms.SchemaProject> {
    return { project_id: req.schema_id > 0 ? await this.store.projectOf(req.schema_id) : 0 };
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
    const access = await projectAccess(this.contextSecret, ctx.metadata, req.caller, req.project_id, () =>
      this.projects.getAccess({ caller: req.caller, project_id: req.project_id }, ctx),
    );
    if (!access.screens.includes('form')) throw problems.forbidden();
    const file = await this.projects.getFile(
      { caller: req.caller, project_id: req.project_id, file_id: req.file_identifier },
      ctx,
    );
    const { maxFileBytes } = this.conversion;
    if (file.size > maxFileBytes) throw problems.fileTooLarge('Form files', maxFileBytes);
    const rows = await this.store.ofProject(req.project_id);
    const target = req.schema_id > 0 ? rows.find((r) => r.id === req.schema_id) : rows.find((r) => r.level === 0);
    if (!target) throw problems.invalidSchemaId();
    const refusal = saveRefusal(access.project_state, 'S', target.body);
    if (refusal === SAVE_REFUSALS.notEditable) throw problems.invalid(refusal);
    const content = await streamToBuffer(await this.files.get(file.object_key), maxFileBytes);
    const projectType = target.level === 0 ? access.project_type : 'S';
    // Each workspace converts within its share of the workers and the queue (convert/fair-share.ts).
    const converted = await this.conversions.run(
      { filename: file.filename, content, projectType, limits: this.conversion.limits },
      ctx.signal,
      String(access.organization_id),
    );
    // Responses answer the current questions: replacing them needs the caller's confirmation, given knowing the changes.
    const counts = await this.responses.countResponses({ project_id: req.project_id }, ctx);
    if (converted.converted.levels)
      return this.convertLevels(req, ctx, access, rows, target, converted, (id) =>
        Number(counts.by_schema[id]?.total ?? 0),
      );
    const answered = Number(counts.by_schema[target.id]?.total ?? 0);
    if (answered > 0 && !req.confirm)
      throw problems.replaceNeedsConfirm(answered, changeFields(formChanges(target.body, converted.converted.body)));
    await this.store.keepCurrent(target);
    // Saved over the revision the changes were listed against, or refused (someone saved in between).
    const saved = await this.store.save(
      target.id,
      converted.converted.body,
      converted.converted.name,
      target.revision,
      callerId(req.caller),
    );
    if (!saved) throw problems.alreadyExists('A newer revision of this form');
    this.log.info(
      {
        projectId: req.project_id,
        format: converted.format,
        notes: converted.converted.notes.length,
        responses: answered,
      },
      'form made from a file',
    );
    return {
      schema: toDocument(saved, true),
      notes: converted.converted.notes,
      format: converted.format,
      questions: converted.converted.questions,
      summary: converted.converted.summary,
      levels: [],
    };
  }

  /**
   * An XLSForm with repeats: the target's form and one form per repeat level below it, and the project's hierarchy
   * made the levels down to the target's and those. Everything is checked before anything is written: a level it
   * would remove that has responses refuses it (409.3); forms with responses need `confirm` (409.2, the changes of
   * every level). Then the schemas of new levels are made (empty, in no hierarchy yet), and in one transaction of
   * this service's database every level's form is saved and the projects service is asked to set the hierarchy: when
   * that refuses, the transaction is rolled back and the new schemas are deleted, so the forms and the hierarchy stay
   * as they were. The one window left: the transaction failing to commit after the hierarchy was set.
   */
  private async convertLevels(
    req: forms.ConvertUploadRequest,
    ctx: Ctx,
    access: projects.ProjectAccess,
    rows: SchemaRow[],
    target: SchemaRow,
    converted: ConvertedFile,
    answeredBy: (schemaId: number) => number,
  ): Promise<forms.ConvertUploadReply> {
    const made = converted.converted;
    const lower = made.levels ?? [];
    const hierarchy = [...access.project_hierarchy].sort((a, b) => a.level - b.level);
    const base = target.level;
    const rowAt = (level: number) => {
      const id = hierarchy.find((l) => l.level === level)?.schema_id;
      return id === undefined ? undefined : rows.find((r) => r.id === id);
    };
    // The forms by level from the target's down: the schema each replaces, if there is one.
    const levels = [
      {
        level: base,
        name: hierarchy.find((l) => l.level === base)?.name ?? target.name,
        body: made.body,
        row: target as SchemaRow | undefined,
        formName: made.name,
      },
      ...lower.map((l, i) => ({
        level: base + 1 + i,
        name: l.name,
        body: l.body,
        row: rowAt(base + 1 + i),
        formName: l.name,
      })),
    ];
    const removed = hierarchy.filter((l) => l.level > base + lower.length);
    const answeredRemoved = removed.filter((l) => answeredBy(l.schema_id) > 0);
    if (answeredRemoved.length > 0)
      throw problems.levelsHaveResponses(
        answeredRemoved.map((l) => `the level "${l.name}" (level ${l.level + 1} of the hierarchy)`).join(', '),
      );
    const next = [
      ...hierarchy
        .filter((l) => l.level <= base)
        .map((l) => ({ level: l.level, name: l.name, schema_id: l.schema_id })),
      ...levels.slice(1).map((l) => ({ level: l.level, name: l.name, schema_id: l.row?.id ?? 0 })),
    ];
    const same = (a: { level: number; name: string; schema_id: number }[], b: typeof a) =>
      a.length === b.length &&
      a.every((l, i) => l.level === b[i]!.level && l.name === b[i]!.name && l.schema_id === b[i]!.schema_id);
    const changesHierarchy = !access.is_hierarchical || !same(next, hierarchy);
    // Setting the hierarchy is the parameters screen's (projects service): refused before anything is written.
    if (changesHierarchy && !access.screens.includes('parameters')) throw problems.forbidden();
    const answered = levels.reduce((sum, l) => sum + (l.row ? answeredBy(l.row.id) : 0), 0);
    if (answered > 0 && !req.confirm) {
      const changes: Record<string, string[]> = {};
      for (const [i, l] of levels.entries()) {
        const before = l.row?.body ?? newSchemaBody('S', { iso_code_1: l.body.primary_language, name: '' });
        for (const [code, change] of Object.entries(changeFields(formChanges(before, l.body))))
          changes[i === 0 ? code : `${l.name}/${code}`] = change;
      }
      throw problems.replaceNeedsConfirm(answered, changes);
    }

    // New levels' schemas, empty until the transaction below fills them: their ids go into the forms' conditions.
    const created: SchemaRow[] = [];
    let hierarchySet = false;
    try {
      for (const l of levels) {
        if (l.row) continue;
        l.row = await this.store.create({
          project_id: req.project_id,
          name: l.name,
          level: l.level,
          body: newSchemaBody('S', { iso_code_1: l.body.primary_language, name: '' }),
        });
        created.push(l.row);
      }
      const ids = levels.map((l) => l.row!.id);
      for (const l of levels) fillLevelIds(l.body, ids);
      const saved = await transaction(this.sql, async (tx) => {
        const store = new SchemaStore(tx);
        const out: SavedRow[] = [];
        for (const l of levels) {
          const row = l.row!;
          await store.keepCurrent(row);
          const done = await store.save(row.id, l.body, l.formName, row.revision, callerId(req.caller));
          if (!done) throw problems.alreadyExists('A newer revision of this form');
          out.push(done);
        }
        if (changesHierarchy) {
          const project_hierarchy = next.map((l) => ({ ...l, schema_id: l.schema_id || ids[l.level - base]! }));
          await this.projects.setHierarchy(
            { caller: req.caller, project_id: req.project_id, is_hierarchical: true, project_hierarchy },
            ctx,
          );
          hierarchySet = true;
        }
        return out;
      });
      this.log.info(
        {
          projectId: req.project_id,
          format: converted.format,
          notes: made.notes.length,
          responses: answered,
          levels: next.length,
          created: created.length,
        },
        'forms made from a file with repeats',
      );
      return {
        schema: toDocument(saved[0]!, true),
        notes: made.notes,
        format: converted.format,
        questions: made.questions,
        summary: made.summary,
        levels: saved.slice(1).map((r) => toDocument(r, true)),
      };
    } catch (err) {
      // New schemas the hierarchy does not name are taken away again (after the hierarchy was set they are its own).
      if (created.length > 0 && !hierarchySet) {
        await this.store
          .markDeleted(
            req.project_id,
            created.map((r) => r.id),
          )
          .catch((e: unknown) =>
            this.log.error({ err: e, schemaIds: created.map((r) => r.id) }, 'schemas of a failed import left over'),
          );
      }
      throw err;
    }
  }

  /** Earlier versions of the schema, for whoever may save it. */
  async versions(req: forms.SchemaRef, ctx: Ctx): Promise<forms.SchemaVersionList> {
    const { row } = await this.editable(req.caller, req.schema_id, ctx);
    const rows = await this.store.versions(row.id, row.revision, VERSIONS_LISTED);
    return {
      results: rows.map((v) => ({
        id: v.revision,
        time_saved: v.time_saved.toISOString(),
        name: v.name ?? row.name,
        questions: v.questions,
      })),
    };
  }

  /** Makes an earlier version current as a new revision; the body it replaces stays a version. */
  async restore(req: forms.RestoreVersionRequest, ctx: Ctx): Promise<forms.SchemaDocument> {
    const { row } = await this.editable(req.caller, req.schema_id, ctx);
    const version =
      req.version_id > 0 && req.version_id < row.revision
        ? await this.store.version(row.id, req.version_id)
        : undefined;
    if (!version) throw problems.notFound();
    await this.store.keepCurrent(row);
    const saved = await this.store.save(
      row.id,
      version.body,
      version.name ?? undefined,
      row.revision,
      callerId(req.caller),
    );
    if (!saved) throw problems.alreadyExists('A newer revision of this form');
    this.log.info(
      { schemaId: row.id, from: row.revision, restored: version.revision, revision: saved.revision },
      'schema version restored',
    );
    return toDocument(saved, true);
  }

  /** The schema when the caller may save it: the form screen, and a project neither live nor finalized. */
  private async editable(caller: common.Caller | undefined, schemaId: number, ctx: Ctx) {
    const found = await this.visible(caller, schemaId, ctx);
    if (!found.access.screens.includes('form')) throw problems.forbidden();
    if (saveRefusal(found.access.project_state, 'S', found.row.body) === SAVE_REFUSALS.notEditable)
      throw problems.invalid(SAVE_REFUSALS.notEditable);
    return found;
  }

  private async visible(caller: common.Caller | undefined, schemaId: number, ctx: Ctx) {
    const row = schemaId > 0 ? await this.store.byId(schemaId) : undefined;
    if (!row) throw problems.invalidSchemaId();
    let access: projects.ProjectAccess;
    try {
      // The gateway's grant for the schema's project when the call carries one (it decided it for this request).
      access = await projectAccess(this.contextSecret, ctx.metadata, caller, row.project_id, () =>
        this.projects.getAccess({ caller, project_id: row.project_id }, ctx),
      );
    } catch (err) {
      // A schema of a project the caller cannot see does not exist for them.
      if (err instanceof Error && 'code' in err && String(err.code).startsWith('404')) throw problems.invalidSchemaId();
      throw err;
    }
    return { row, access };
  }
}

/** A file name from a form's name: no path separators or control characters, at most 100 characters. */
const fileName = (name: string) =>
  name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .trim()
    .slice(0, 100) || 'form';

const callerId = (c: common.Caller | undefined) => c?.user_id ?? 0;

/** The importer's placeholder schema ids (levelSchemaPlaceholder) in a form's conditions, made the levels' ids. */
function fillLevelIds(body: SchemaBody, ids: number[]): void {
  for (const block of Object.values(body.entities.blocks)) {
    for (const e of block.conditions) {
      if (!('itemId' in e) || e.schemaId >= 0) continue;
      const level = ids.findIndex((_, i) => levelSchemaPlaceholder(i) === e.schemaId);
      if (level >= 0) e.schemaId = ids[level]!;
    }
  }
}

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
