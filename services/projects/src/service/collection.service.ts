// Surveys (collection links with an expiry date), references to other projects, and files: uploads (returning a
// file id) and project logos (under project-logos/ with a random prefix), all in the object store.
import { randomBytes, randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import type { projects } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { CollectionStore, type SurveyRow } from '../store/collection.store.js';
import { ProjectStore, type ProjectRow } from '../store/project.store.js';
import { ProjectUserStore } from '../store/project-user.store.js';
import { StructureStore } from '../store/structure.store.js';
import { CLOSED_STATES, linkExpired, readNewLink } from '../domain/link.js';
import { AccessResolver, type ProjectAccess } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';
import { toProject, toSurvey } from './mappers.js';
import type { ProjectService } from './project.service.js';

const UPLOAD_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain',
};
const LOGO_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const URL_TTL_S = 900;

export const REFERENCE_MESSAGES = {
  notEntity: 'Only an entity or a longitudinal project can be referenced.',
} as const;

export const LINK_MESSAGES = {
  closed: 'A finalized or deleted project takes no new collection links.',
} as const;

/** Keeps a file name's letters, digits, dots, dashes and underscores (no path tricks). */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(-120);
  return clean === '' ? 'file' : clean;
}

/** Image signatures, so a logo is what its name says. */
function looksLikeImage(ext: string, b: Buffer): boolean {
  if (ext === '.png') return b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (ext === '.jpg' || ext === '.jpeg') return b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  if (ext === '.gif') return b.subarray(0, 4).toString('latin1') === 'GIF8';
  if (ext === '.webp')
    return b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP';
  return false;
}

export class CollectionService {
  private readonly store: CollectionStore;
  private readonly projectStore: ProjectStore;

  constructor(
    private readonly deps: ProjectsDeps,
    private readonly access: AccessResolver,
    private readonly projects: ProjectService,
  ) {
    this.store = new CollectionStore(deps.sql);
    this.projectStore = new ProjectStore(deps.sql);
  }

  /**
   * A collection link lets anyone with it collect in the project: making, listing and revoking links is setting the
   * project up (the parameters screen: owners, admins, workspace project managers), not collecting. The spec's roles
   * table (000 §6) gives collectors collect, edit and delete only; least privilege keeps links from them.
   */
  async createSurvey(req: projects.CreateSurveyRequest, ctx: Ctx): Promise<projects.Survey> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    if (CLOSED_STATES.includes(a.project.project_state)) throw problems.invalid(LINK_MESSAGES.closed);
    const read = readNewLink(req);
    if ('errors' in read) throw problems.invalidFields(read.errors);
    const { link } = read;
    if (req.site > 0 && !(await new StructureStore(this.deps.sql).site(a.project.id, req.site)))
      throw problems.invalidFields({ site: [problems.invalidSiteId().message] });
    // A survey link is always answered without logging in; an anonymous link may send respondents to log in.
    const proceed = link.kind === 'survey' || !req.proceed_unauthenticated_given || req.proceed_unauthenticated;
    const row = await this.store.createSurvey({
      project_id: a.project.id,
      token: randomBytes(18).toString('base64url'),
      expiry_date: link.expiry_date,
      created_by: a.caller.user_id,
      site_id: req.site > 0 ? req.site : null,
      kind: link.kind,
      name: link.name,
      proceed_unauthenticated: proceed,
    });
    this.deps.log.info(
      { projectId: a.project.id, surveyId: row.id, userId: a.caller.user_id },
      'collection link created',
    );
    await this.audit(a, 'collection_link_created', row, ctx);
    return toSurvey(row, a.project.project_state);
  }

  async getSurvey(req: projects.SurveyRef, ctx: Ctx): Promise<projects.Survey> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    const row = req.survey_id > 0 ? await this.store.survey(a.project.id, req.survey_id) : undefined;
    if (!row) throw problems.notFound();
    return toSurvey(row, a.project.project_state);
  }

  async listSurveys(req: projects.ProjectRef, ctx: Ctx): Promise<projects.SurveyList> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    return { results: (await this.store.surveys(a.project.id)).map((row) => toSurvey(row, a.project.project_state)) };
  }

  /** Ends a link at once: opening it, loading its form and uploading with a token it gave answer "This link has expired." */
  async revokeSurvey(req: projects.SurveyRef, ctx: Ctx): Promise<projects.Survey> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    const done =
      req.survey_id > 0 ? await this.store.revokeSurvey(a.project.id, req.survey_id, a.caller.user_id) : undefined;
    if (!done) throw problems.notFound();
    // Revoking twice keeps the first revocation, and records it once.
    if (done.changed) {
      this.deps.log.info(
        { projectId: a.project.id, surveyId: done.row.id, userId: a.caller.user_id },
        'collection link revoked',
      );
      await this.audit(a, 'collection_link_revoked', done.row, ctx);
    }
    return toSurvey(done.row, a.project.project_state);
  }

  /** Ends a link now (its expiry date becomes now); an ended link keeps the time it ended. */
  async expireSurvey(req: projects.SurveyRef, ctx: Ctx): Promise<projects.Survey> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    const done = req.survey_id > 0 ? await this.store.expireSurvey(a.project.id, req.survey_id) : undefined;
    if (!done) throw problems.notFound();
    if (done.changed) {
      this.deps.log.info(
        { projectId: a.project.id, surveyId: done.row.id, userId: a.caller.user_id },
        'collection link expired',
      );
      await this.audit(a, 'collection_link_expired', done.row, ctx);
    }
    return toSurvey(done.row, a.project.project_state);
  }

  /** A link's creation or end in the workspace's audit log (auth); a failure to record is logged, not thrown. */
  private async audit(a: ProjectAccess, event: string, row: SurveyRow, ctx: Ctx): Promise<void> {
    await this.deps.auth
      .recordAudit(
        {
          organization_id: a.organizationId,
          actor_user_id: a.caller.user_id,
          event,
          target: `project ${a.project.id} link ${row.id}`,
          ip: '',
          // Never the token: it is the respondents' credential.
          details_json: JSON.stringify({
            kind: row.kind,
            name: row.name,
            expiry_date: row.expiry_date?.toISOString() ?? null,
            site: row.site_id,
          }),
          id: 0,
          time: '',
        },
        ctx,
      )
      .catch((err: unknown) => this.deps.log.error({ err, event }, 'audit event not recorded'));
  }

  /** The projects this one references that the caller may open (the others are not theirs to know of). */
  async listReferences(req: projects.ProjectRef, ctx: Ctx): Promise<projects.ProjectList> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    const ids = a.project.reference_ids;
    const rows = ids.length === 0 ? [] : await this.projectStore.ofOrganization(a.organizationId, ids);
    const open = await Promise.all(
      rows.map((r) =>
        this.access.project(a.caller, r.id, ctx).then(
          () => r,
          () => undefined,
        ),
      ),
    );
    return {
      results: await Promise.all(open.filter((r): r is ProjectRow => r !== undefined).map((r) => this.summary(r))),
    };
  }

  /**
   * {id, action: "add"} references another project of the workspace ("remove" takes it away). A reference feeds the
   * form's conditions and its reference questions, so it needs the form permission in this project (building the
   * form, spec 001 §6: owners, admins, workspace project managers), and the caller must be able to open the other
   * project, one that may be referenced (an entity or a longitudinal project, as organization/{id}/reference-projects/
   * lists them). What it lets anyone read of the other project is only what they may read there themselves.
   */
  async addReference(req: projects.AddReferenceRequest, ctx: Ctx): Promise<projects.ProjectList> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'form');
    if (req.action !== 'add' && req.action !== 'remove')
      throw problems.invalidFields({ action: ['Choose add or remove.'] });
    if (req.reference_id === a.project.id) throw problems.invalidFields({ id: ['A project cannot reference itself.'] });
    const ids = new Set(a.project.reference_ids);
    if (req.action === 'add') {
      const other =
        req.reference_id > 0
          ? await this.access.project(a.caller, req.reference_id, ctx).catch(() => undefined)
          : undefined;
      if (!other || other.organizationId !== a.organizationId || other.project.project_state === 'D')
        throw problems.invalidFields({ id: ['Invalid Project Id!'] });
      if (!other.project.is_entity && other.project.project_type !== 'L')
        throw problems.invalidFields({ id: [REFERENCE_MESSAGES.notEntity] });
      ids.add(other.project.id);
    } else ids.delete(req.reference_id);
    await this.projectStore.update(a.project.id, { reference_ids: [...ids] });
    return this.listReferences({ caller: a.caller, project_id: a.project.id }, ctx);
  }

  /**
   * A project file. Sent whole (`content`), or streamed by the gateway to the object store first: the gateway asks
   * with `check_only` (access and type, before a byte is stored, answering the name and type to store it under), then
   * names the stored object (`object_key`), which must be a fresh key under this project's uploads.
   */
  async uploadFile(req: projects.UploadFileRequest, ctx: Ctx): Promise<projects.UploadFileReply> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters', 'form');
    // A deleted project takes no uploads (as the responses service refuses its responses and media).
    if (a.project.project_state === 'D') throw problems.invalidProjectId();
    const name = safeFilename(req.filename);
    const ext = extname(name).toLowerCase();
    const type = UPLOAD_TYPES[ext];
    if (!type)
      throw problems.invalidFields({
        file: [`Unsupported file type. Upload one of ${Object.keys(UPLOAD_TYPES).join(', ')}.`],
      });
    if (req.check_only) return { file_id: '', filename: name, size: 0, content_type: type, url: '' };
    let fileId: string;
    let key: string;
    let size: number;
    if (req.object_key !== '') {
      const m = /^uploads\/(\d+)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[^/]+$/.exec(
        req.object_key,
      );
      if (!m || Number(m[1]) !== a.project.id)
        throw problems.invalidFields({ file: ['The stored file is not one of this project.'] });
      const info = await this.deps.files.stat(req.object_key);
      if (!info) throw problems.invalidFields({ file: ['The stored file is missing.'] });
      [fileId, key, size] = [m[2]!, req.object_key, info.size];
    } else {
      fileId = randomUUID();
      key = `uploads/${a.project.id}/${fileId}/${name}`;
      size = req.content.length;
    }
    if (size === 0) throw problems.invalidFields({ file: ['The file is empty.'] });
    if (size > UPLOAD_MAX_BYTES) throw problems.payloadTooLarge();
    if (req.object_key === '') await this.deps.files.put(key, Buffer.from(req.content), { contentType: type, size });
    await this.store.addFile({
      file_id: fileId,
      organization_id: a.organizationId,
      project_id: a.project.id,
      object_key: key,
      filename: name,
      content_type: type,
      size,
      purpose: 'upload',
      uploaded_by: a.caller.user_id,
    });
    return {
      file_id: fileId,
      filename: name,
      size,
      content_type: type,
      url: await this.deps.files.presignGet(key, { expiresInSeconds: URL_TTL_S, filename: name }),
    };
  }

  /** A logo before or after the project exists: project-logos/<random>-<name>; the key is the project's `logo`. */
  async uploadLogo(req: projects.UploadLogoRequest, ctx: Ctx): Promise<projects.UploadFileReply> {
    const ws = await this.access.workspace(req.caller, req.organization_id, ctx);
    if (
      !ws.can('projects') &&
      !(await new ProjectUserStore(this.deps.sql).managesAnyProject(ws.caller.user_id, ws.organizationId))
    ) {
      throw problems.forbidden();
    }
    const name = safeFilename(req.filename);
    const ext = extname(name).toLowerCase();
    const type = LOGO_TYPES[ext];
    if (!type)
      throw problems.invalidFields({
        file: [`Unsupported image type. Upload one of ${Object.keys(LOGO_TYPES).join(', ')}.`],
      });
    if (req.content.length > LOGO_MAX_BYTES)
      throw problems.invalidFields({ file: [`A logo can be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB.`] });
    if (!looksLikeImage(ext, Buffer.from(req.content)))
      throw problems.invalidFields({ file: ['The file is not the image its name says.'] });
    const key = `project-logos/${randomBytes(8).toString('hex')}-${name}`;
    await this.deps.files.put(key, Buffer.from(req.content), { contentType: type, size: req.content.length });
    const fileId = randomUUID();
    await this.store.addFile({
      file_id: fileId,
      organization_id: ws.organizationId,
      project_id: null,
      object_key: key,
      filename: name,
      content_type: type,
      size: req.content.length,
      purpose: 'logo',
      uploaded_by: ws.caller.user_id,
    });
    return {
      file_id: key,
      filename: name,
      size: req.content.length,
      content_type: type,
      url: await this.deps.files.presignGet(key, { expiresInSeconds: URL_TTL_S }),
    };
  }

  /**
   * A collection link's token: the project and whether the link still works. A revoked link, and a link of a
   * finalized or deleted project, has expired too. Anyone holding the token may ask (it is the respondent's only credential).
   */
  async resolveToken(req: projects.CollectionTokenRequest): Promise<projects.CollectionToken> {
    const survey = await this.store.surveyByToken(req.token.trim());
    if (!survey) throw problems.notFound();
    const project = await this.projectStore.byId(survey.project_id);
    if (!project) throw problems.notFound();
    const expired = linkExpired(survey, project.project_state);
    return {
      survey_id: survey.id,
      project_id: project.id,
      expiry_date: survey.expiry_date?.toISOString() ?? '',
      expired,
      project: toProject(project, await this.projects.logoUrl(project)),
      proceed_unauthenticated: survey.proceed_unauthenticated,
    };
  }

  /** Where an uploaded file of the project is (for the services that read it). */
  async getFile(req: projects.FileRef, ctx: Ctx): Promise<projects.FileInfo> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters', 'form');
    const file = await this.store.fileById(a.project.id, req.file_id.trim());
    if (!file) throw problems.invalidFields({ file_identifier: ['No file of this project has this id.'] });
    return {
      file_id: file.file_id,
      object_key: file.object_key,
      filename: file.filename,
      content_type: file.content_type,
      size: file.size,
    };
  }

  private async summary(row: ProjectRow): Promise<projects.Project> {
    return toProject(row, await this.projects.logoUrl(row));
  }
}
