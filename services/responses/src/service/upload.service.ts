// Uploads of responses (spec 001 §4 Response lifecycle, §7 Responses): validate against the schema with
// packages/sampler, decide against the stored copy, write it with its outbox row in one transaction.
import { toFieldMessages, type responses } from '@fieldwork/proto';
import {
  checkProblems,
  checkResponse,
  isAnswered,
  LIMIT_MESSAGES,
  lookupAnswers,
  REQUEST_LIMITS,
  type Answers,
} from '@fieldwork/sampler';
import { fieldErrorsOf, isProblem, problems, transaction, type Sql } from '@fieldwork/service-kit';
import {
  answerPlacementProblems,
  clientTime,
  earlyTimes,
  TIME_FLOOR,
  decide,
  nextHistory,
  responseIdFits,
  stateRefusal,
  toGeotag,
  UPLOAD_ACTIONS,
  uploadPayload,
  type UploadAction,
  type UploadPayload,
} from '../domain/upload.js';
import { fileAnswerErrors } from '../domain/media.js';
import { ResponseStore, type NewResponse, type ResponseRow } from '../store/response.store.js';
import type { AccessCache, ResponseAccess } from './access.js';
import type { Ctx, ResponsesDeps } from './deps.js';
import { eventOf, toMessage } from './mapper.js';
import type { SchemaCache } from './schemas.js';

export const UPLOAD_MESSAGES = {
  json: 'Send the response as a JSON object.',
  project: 'This response belongs to another project.',
  schema: 'This form does not belong to the project.',
  responseId: (project: number, schema: number) => `The response id must start with ${project}-${schema}-.`,
  otherProject: 'This response id is already used in another project.',
  time: 'Enter a valid time, not in the future.',
  parentMissing: 'The parent response was not found in this project.',
  referenced: 'The referenced response was not found in a project this project references.',
  parentLevel: 'The parent response must be of the level above this form.',
  parentRequired: 'A response of a lower level needs its parent response.',
  noParent: 'Only responses of a lower level have a parent response.',
  lock: "Only a mobile manager or the response's own creator may lock a response.",
  locked: "This response is locked: only a mobile manager or the response's own creator may change it.",
  duplicateKey: 'A record with this identifier',
  site: 'You cannot add responses to this site.',
  finalized: 'This project is finalized: it takes no new responses.',
  serverField: 'A collection link cannot set this field.',
  beforeLink: 'Enter a valid time, not before the collection link was made.',
  beforeFloor: `Enter a valid time, not before ${TIME_FLOOR.getUTCFullYear()}.`,
  group: 'This group is not one of the response’s site in this project.',
  team: 'This team is not one of the response’s group in this project.',
} as const;

/** What a collection link's respondent may not say about a response: the server's and the project's fields. */
const SERVER_FIELDS = ['deleted', 'locked', 'archived', 'is_marker', 'group', 'team', 'parent_id'] as const;
/** What a new response's server flags are until someone with the role changes them. */
const NEW_FLAGS = { deleted: false, locked: false, archived: false, is_marker: false, completed: false } as const;
/** Device clocks drift: a respondent's times may be this much before the link was made. */
const CLOCK_SKEW_MS = 86_400_000;

/** What an import batch shares: the stored responses it read at once (and those it wrote since). */
interface Batch {
  stored: Map<string, ResponseRow>;
  /** New responses waiting to be inserted together (ids in `pendingIds`). */
  pending: NewResponse[];
  pendingIds: Set<string>;
}

/** Inserts the batch's waiting new responses and their outbox rows, two statements for all of them. */
async function flushPending(tx: Sql, batch: Batch): Promise<void> {
  if (batch.pending.length === 0) return;
  const rows = await new ResponseStore(tx).insertManyWithEvents(batch.pending);
  for (const row of rows) batch.stored.set(row.response_id, row);
  batch.pending = [];
  batch.pendingIds.clear();
}

/** Problems by "repeat.itemId" as the field errors of the upload body ("data.0.12"), so a client puts each at its question. */
const dataErrors = (p: Record<string, string>): Record<string, string[]> =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [`data.${k}`, [v]]));

const savepoint = <T>(tx: Sql, fn: (sp: Sql) => Promise<T>): Promise<T> =>
  (tx as unknown as { savepoint: (f: (sp: Sql) => Promise<T>) => Promise<T> }).savepoint(fn);

/** A payload that is not JSON at all (refused in uploadOne, as a row of its own in a batch). */
const NOT_JSON = Symbol('not JSON');
const parseJson = (json: string): unknown => {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return NOT_JSON;
  }
};

const isUniqueViolation = (e: unknown) =>
  typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';

export class UploadService {
  constructor(
    private readonly deps: ResponsesDeps,
    private readonly access: AccessCache,
    private readonly schemas: SchemaCache,
  ) {}

  async upload(req: responses.UploadRequest, ctx: Ctx): Promise<responses.UploadReply> {
    const action = this.action(req.action);
    const access = await this.access.get(req.caller, req.project_id, ctx);
    if (!access.can('collect') && !access.can('edit')) throw problems.forbidden();
    if (access.projectState === 'D') throw problems.invalidProjectId();
    const reply = await transaction(this.deps.sql, (tx) =>
      this.uploadOne(tx, access, action, parseJson(req.payload_json), req.project_id, ctx),
    );
    if (reply.status === 'stored') this.deps.published();
    return reply;
  }

  /**
   * An import job's batch: every payload is decided as an upload, in one transaction with a savepoint each, so a
   * refused row is reported and the others are kept. Importing needs the right to edit (data managers, owners).
   */
  async importBatch(req: responses.ImportBatchRequest, ctx: Ctx): Promise<responses.ImportBatchReply> {
    const access = await this.access.get(req.caller, req.project_id, ctx);
    if (!access.screens.has('projectLevelIngestion') || !access.can('collect')) throw problems.forbidden();
    if (access.projectState === 'D') throw problems.invalidProjectId();
    if (req.payloads_json.length > 5000) throw problems.invalid('An import batch holds at most 5000 rows.');
    const actions = req.payloads_json.map((_, i) => this.action(req.actions[i] || 'save'));
    const results = await transaction(this.deps.sql, async (tx) => {
      // One read of what is stored for the whole batch; savepoints only around writes that a unique key may refuse.
      // Each payload parsed once: its response id here, the rest in uploadOne.
      const raws = req.payloads_json.map(parseJson);
      const ids = raws.map((raw) => {
        const id = typeof raw === 'object' && raw !== null ? (raw as { response_id?: unknown }).response_id : '';
        return typeof id === 'string' ? id : '';
      });
      const batch: Batch = {
        stored: await new ResponseStore(tx).forUpdateMany(ids.filter((id) => id !== '')),
        pending: [],
        pendingIds: new Set(),
      };
      const out: responses.ImportRowResult[] = [];
      for (const [i, json] of req.payloads_json.entries()) {
        // A row naming a response still waiting (or a parent that may be) sees it stored first.
        if (batch.pendingIds.has(ids[i]!) || json.includes('"parent_id"')) await flushPending(tx, batch);
        try {
          const reply = await this.uploadOne(tx, access, actions[i]!, raws[i], req.project_id, ctx, batch);
          out.push({ status: reply.status, errors: {} });
        } catch (err) {
          if (!isProblem(err) || err.status >= 500) throw err;
          out.push({
            status: 'failed',
            errors: toFieldMessages(err.fields ?? { non_field_errors: [err.message] }),
          });
        }
      }
      await flushPending(tx, batch);
      return out;
    });
    if (results.some((r) => r.status === 'stored')) this.deps.published();
    return { results };
  }

  private action(a: string): UploadAction {
    if (!(UPLOAD_ACTIONS as readonly string[]).includes(a)) throw problems.invalid(`Unknown upload action ${a}.`);
    return a as UploadAction;
  }

  private async uploadOne(
    tx: Sql,
    access: ResponseAccess,
    action: UploadAction,
    raw: unknown,
    projectId: number,
    ctx: Ctx,
    batch?: Batch,
  ): Promise<responses.UploadReply> {
    const req = { project_id: projectId };
    const p = this.parse(raw, req.project_id);
    // Only a refusal from the forms service means there is no such form; an outage stays a 5xx, which clients retry.
    const schema = await this.schemas.get(p.sampler_schema, ctx).catch((err: unknown) => {
      if (isProblem(err) && err.status < 500)
        throw problems.invalidFields({ sampler_schema: [UPLOAD_MESSAGES.schema] });
      throw err;
    });
    if (schema.doc.project_id !== req.project_id)
      throw problems.invalidFields({ sampler_schema: [UPLOAD_MESSAGES.schema] });
    if (!responseIdFits(p.response_id, req.project_id, p.sampler_schema)) {
      throw problems.invalidFields({ response_id: [UPLOAD_MESSAGES.responseId(req.project_id, p.sampler_schema)] });
    }

    // A collection link's respondent files a new response of the project's own, nothing more: server fields,
    // placement and hierarchy are the server's, and nothing happened before the link existed.
    if (access.anonymous) {
      const said = SERVER_FIELDS.filter((k) => p[k] !== undefined && p[k] !== null);
      if (said.length > 0)
        throw problems.invalidFields(Object.fromEntries(said.map((k) => [k, [UPLOAD_MESSAGES.serverField]])));
    }
    const now = new Date();
    const timeUpdated = clientTime(p.time_updated, now);
    const timeCreated = clientTime(p.time_created, now);
    // One floor for every path: nothing a link's respondent says happened before the link was made (less a day of
    // clock drift), and nothing anyone says happened before TIME_FLOOR (a device clock reset to 1900 or 1970).
    const linkFloor =
      access.anonymous && access.linkCreated !== ''
        ? new Date(access.linkCreated).getTime() - CLOCK_SKEW_MS
        : undefined;
    const early = earlyTimes(
      { time_created: timeCreated, time_updated: timeUpdated, time_completed: clientTime(p.time_completed, now) },
      linkFloor,
    );
    if (Object.keys(early).length > 0)
      throw problems.invalidFields(
        Object.fromEntries(
          Object.entries(early).map(([k, why]) => [
            k,
            [why === 'link' ? UPLOAD_MESSAGES.beforeLink : UPLOAD_MESSAGES.beforeFloor],
          ]),
        ),
      );

    const store = new ResponseStore(tx);
    const level = schema.doc.level;
    const parent = await this.parent(store, p, level, req.project_id);
    const other: Record<number, Answers> = {};
    if (parent) other[parent.schema_id] = parent.data['0'] ?? {};
    // The web form runs this same check before it sends: a refusal here means a tampered or outdated client. Every
    // answer must fit its question; required ones only when the response is completed (else they make it not valid).
    // Answers only where the form has them (repeat instances without gaps, questions of its live categories), before
    // the check of each answer: made-up instances would otherwise each be checked, stored and counted.
    const misplaced = answerPlacementProblems(schema.body, p.data);
    if (Object.keys(misplaced).length > 0) throw problems.invalidFields(dataErrors(misplaced));
    const checked = checkResponse(schema.body, p.data as never, { schemaId: p.sampler_schema, other });
    if (Object.keys(checked.problems).length > 0) throw problems.invalidFields(dataErrors(checked.problems));
    if (!timeUpdated) throw problems.invalidFields({ time_updated: [UPLOAD_MESSAGES.time] });
    if (!timeCreated) throw problems.invalidFields({ time_created: [UPLOAD_MESSAGES.time] });

    const answers: Answers = checked.data['0'] ?? {};
    const hasMedia = Object.values(checked.data).some((repeat) =>
      Object.keys(repeat).some((id) => ['image', 'signature'].includes(schema.body.entities.items[id]?.type ?? '')),
    );
    const answered = Object.values(checked.data).some((repeat) =>
      Object.entries(repeat).some(([id, v]) => {
        const t = schema.body.entities.items[id]?.type;
        return t !== 'calculated' && t !== 'concatenation' && isAnswered(v);
      }),
    );

    {
      const stored = batch ? batch.stored.get(p.response_id) : await store.forUpdate(p.response_id);
      if (stored && stored.project_id !== req.project_id)
        throw problems.invalidFields({ response_id: [UPLOAD_MESSAGES.otherProject] });
      if (p.response_referenced_id !== stored?.response_referenced_id) await this.referenced(store, access, p);
      const closed = stateRefusal(access.projectState, !stored, access.can('editCompleted'));
      if (closed === 'deleted') throw problems.invalidProjectId();
      if (closed === 'finalized') throw problems.invalid(UPLOAD_MESSAGES.finalized);
      if (
        access.anonymous &&
        !stored &&
        (await store.linkUsage(access.surveyId)).responses >= this.deps.linkLimits.responses
      )
        throw problems.linkQuota('responses');
      // A file answer names a file asked for this very response (and for a respondent, through this link): one rule
      // for uploads, edits and imports (domain/media.ts), never a key an export would sign a link for elsewhere.
      if (hasMedia) {
        const bad = fileAnswerErrors(schema.body, checked.data, stored?.data, await store.mediaOf(p.response_id), {
          projectId: req.project_id,
          responseId: p.response_id,
          ...(access.anonymous ? { surveyId: access.surveyId } : {}),
        });
        if (Object.keys(bad).length > 0) throw problems.invalidFields(bad);
      }
      // A response with no answered question is skipped as unmodified (spec 001 §4).
      if (!answered && !stored) return { status: 'unmodified', response: undefined };
      const validity = checked.record;

      const completed = action === 'complete' ? true : action === 'uncomplete' ? false : (stored?.completed ?? false);
      if (action === 'complete' && !validity.valid)
        throw problems.invalidFields({ non_field_errors: [validity.message], ...dataErrors(checkProblems(checked)) });
      const lookup = lookupAnswers(schema.body, answers);
      const geotag = p.geotag ? toGeotag(p.geotag, now) : (stored?.geotag ?? null);
      const incoming: NewResponse = {
        response_id: p.response_id,
        project_id: req.project_id,
        schema_id: p.sampler_schema,
        user_id: stored ? stored.user_id : access.anonymous ? null : access.userId,
        email: stored?.email ?? (access.anonymous ? access.email || p.email || '' : ''),
        anonymous: stored?.anonymous ?? access.anonymous,
        ...this.placement(access, p, stored),
        device_id: p.device_id || stored?.device_id || '',
        completed,
        deleted: p.deleted ?? stored?.deleted ?? false,
        locked: p.locked ?? stored?.locked ?? false,
        is_valid: validity.valid,
        is_marker: p.is_marker ?? stored?.is_marker ?? false,
        archived: p.archived ?? stored?.archived ?? false,
        parent_id: parent?.response_id ?? null,
        ancestors: parent ? [...parent.ancestors, parent.response_id] : [],
        response_referenced_id: p.response_referenced_id ?? stored?.response_referenced_id ?? null,
        geotag,
        geotag_history: p.geotag
          ? nextHistory(stored?.geotag_history ?? [], geotag ?? undefined)
          : (stored?.geotag_history ?? []),
        lookup_key: level === 0 && isAnswered(lookup.key) ? JSON.stringify(lookup.key) : null,
        lookup_answers: lookup.lookups,
        display_name: Object.values(lookup.lookups).map(String).join(' ').slice(0, 200),
        schema_level: level,
        time_created: stored?.time_created ?? timeCreated,
        time_updated: timeUpdated,
        time_completed: completed
          ? stored?.completed
            ? stored.time_completed
            : (clientTime(p.time_completed, now) ?? now)
          : null,
        data: checked.data,
        survey_id: stored ? stored.survey_id : access.anonymous ? access.surveyId : null,
      };

      if (!stored && !access.can('collect')) throw problems.forbidden();
      // The same rules for a new response as for a change (its uploader is its creator): deleting, and for others
      // the lock and the status fields, need their roles whatever the body says.
      await this.mayChange(
        access,
        stored ?? { ...incoming, user_id: access.userId, ...NEW_FLAGS },
        incoming,
        ctx,
        !stored,
      );
      await this.checkPlacement(access, incoming, stored, ctx);

      const decision = decide(stored, incoming);
      if (decision === 'ignored' || decision === 'unmodified') {
        // A batch's caller reads only the status: no message made for it.
        return { status: decision, response: batch ? undefined : toMessage(stored!) };
      }
      if (batch && !stored && incoming.lookup_key === null && !hasMedia) {
        batch.pending.push(incoming);
        batch.pendingIds.add(incoming.response_id);
        return { status: 'stored', response: undefined };
      }
      // New responses keep the order of the batch (ids in file order): the waiting ones go first.
      if (batch && !stored) await flushPending(tx, batch);
      let row: ResponseRow;
      // The change and its outbox event: a new response with its event in one statement (a round trip fewer per
      // upload), a changed one with the answers it no longer has.
      const write = async (st: ResponseStore): Promise<ResponseRow> => {
        if (!stored) return (await st.insertManyWithEvents([incoming]))[0]!;
        const updated = await st.update(stored.id, incoming);
        await st.addOutbox(updated, eventOf(updated, stored.data));
        return updated;
      };
      try {
        // In a batch, a refused write must not end the transaction: a savepoint, only when a unique key may refuse.
        row =
          batch && incoming.lookup_key !== null
            ? await savepoint(tx, (sp) => write(new ResponseStore(sp)))
            : await write(store);
      } catch (e) {
        if (isUniqueViolation(e)) throw problems.alreadyExists(UPLOAD_MESSAGES.duplicateKey);
        throw e;
      }
      batch?.stored.set(row.response_id, row);
      if (batch) return { status: 'stored', response: undefined };
      const media = hasMedia ? await store.pendingMedia(row.response_id) : { image: 0, signature: 0 };
      return { status: 'stored', response: toMessage(row, { media }) };
    }
  }

  /**
   * Where the response is filed: the site sent (one the caller may collect in, or the stored one), else the stored
   * place, else the caller's own site, group and team. A site other than the caller's own takes no group or team
   * unless they are sent.
   */
  private placement(
    access: ResponseAccess,
    p: UploadPayload,
    stored: ResponseRow | undefined,
  ): Pick<NewResponse, 'site_id' | 'group_id' | 'team_id'> {
    // 0 and null both mean "not said".
    const sent = p.site || null;
    if (sent !== null && sent !== stored?.site_id && !access.collectSites.includes(sent))
      throw problems.invalidFields({ site: [UPLOAD_MESSAGES.site] });
    const site = sent ?? stored?.site_id ?? (access.placement.site || null);
    const own = site !== null && site === access.placement.site;
    return {
      site_id: site,
      group_id:
        p.group ??
        (stored && stored.site_id === site ? stored.group_id : null) ??
        (own ? access.placement.group || null : null),
      team_id:
        p.team ??
        (stored && stored.site_id === site ? stored.team_id : null) ??
        (own ? access.placement.team || null : null),
    };
  }

  /** The payload checked (`raw` its JSON parsed, NOT_JSON when it was no JSON). */
  private parse(raw: unknown, projectId: number): UploadPayload {
    if (raw === NOT_JSON) throw problems.invalidFields({ non_field_errors: [UPLOAD_MESSAGES.json] });
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw problems.invalidFields({ non_field_errors: [UPLOAD_MESSAGES.json] });
    const parsed = uploadPayload.safeParse({ project: projectId, ...raw });
    if (!parsed.success) throw problems.invalidFields(fieldErrorsOf(parsed.error.issues));
    if (parsed.data.project !== projectId) throw problems.invalidFields({ project: [UPLOAD_MESSAGES.project] });
    // The gateway bounds uploads already; imports come from a file.
    const answers = Object.values(parsed.data.data).reduce((n, repeat) => n + Object.keys(repeat).length, 0);
    if (answers > REQUEST_LIMITS.answersPerResponse) throw problems.invalidFields({ data: [LIMIT_MESSAGES.answers] });
    return parsed.data;
  }

  /**
   * A referenced response (longitudinal and entity projects, spec 001 §6) is one of a project this project
   * references: never another project's response, which the reference picker would then show.
   */
  private async referenced(store: ResponseStore, access: ResponseAccess, p: UploadPayload): Promise<void> {
    const id = p.response_referenced_id;
    if (!id) return;
    const row = await store.byResponseId(id);
    if (!row || row.deleted || !access.referenceIds.includes(row.project_id))
      throw problems.invalidFields({ response_referenced_id: [UPLOAD_MESSAGES.referenced] });
  }

  /** The parent response of a lower-level form (hierarchical projects): in the project, one level above. */
  private async parent(
    store: ResponseStore,
    p: UploadPayload,
    level: number,
    projectId: number,
  ): Promise<ResponseRow | undefined> {
    if (level === 0) {
      if (p.parent_id) throw problems.invalidFields({ parent_id: [UPLOAD_MESSAGES.noParent] });
      return undefined;
    }
    if (!p.parent_id) throw problems.invalidFields({ parent_id: [UPLOAD_MESSAGES.parentRequired] });
    const parent = await store.byResponseId(p.parent_id);
    if (!parent || parent.project_id !== projectId)
      throw problems.invalidFields({ parent_id: [UPLOAD_MESSAGES.parentMissing] });
    if (parent.schema_level !== level - 1) throw problems.invalidFields({ parent_id: [UPLOAD_MESSAGES.parentLevel] });
    return parent;
  }

  /**
   * Who may change a stored response: its creator (collect, edit); others need edit rights on completed responses
   * (data managers, owners, admins); delete and status changes need their own actions; a locked response, and the
   * lock itself, only its creator or a mobile manager.
   */
  private async mayChange(
    access: ResponseAccess,
    stored: Pick<
      ResponseRow,
      | 'anonymous'
      | 'survey_id'
      | 'device_id'
      | 'user_id'
      | 'deleted'
      | 'completed'
      | 'archived'
      | 'is_marker'
      | 'locked'
    >,
    next: NewResponse,
    ctx: Ctx,
    isNew = false,
  ): Promise<void> {
    const creator =
      isNew ||
      (access.anonymous
        ? stored.anonymous &&
          stored.survey_id === access.surveyId &&
          stored.device_id !== '' &&
          stored.device_id === next.device_id
        : stored.user_id === access.userId);
    if (!creator && !access.can('editCompleted')) throw problems.forbidden();
    if (stored.deleted !== next.deleted && !access.can('delete')) throw problems.forbidden();
    if (
      !creator &&
      (stored.completed !== next.completed ||
        stored.archived !== next.archived ||
        stored.is_marker !== next.is_marker) &&
      !access.can('changeStatus')
    )
      throw problems.forbidden();
    if (stored.locked || stored.locked !== next.locked) {
      if (!creator && !(await this.isMobileManager(access, ctx))) {
        throw problems.invalid(stored.locked !== next.locked ? UPLOAD_MESSAGES.lock : UPLOAD_MESSAGES.locked);
      }
    }
  }

  /**
   * A group and a team said in the body (or kept from a stored copy filed elsewhere) must be of the response's site
   * in this project, a team of its group: the projects service knows them (CheckPlacement). Only what changes is
   * asked about; the caller's own placement comes from the projects service already.
   */
  private async checkPlacement(
    access: ResponseAccess,
    next: NewResponse,
    stored: ResponseRow | undefined,
    ctx: Ctx,
  ): Promise<void> {
    const own = (v: number | null, mine: number) =>
      v === null || (next.site_id === access.placement.site && v === mine);
    const same =
      stored !== undefined &&
      stored.site_id === next.site_id &&
      stored.group_id === next.group_id &&
      stored.team_id === next.team_id;
    if (same || (own(next.group_id, access.placement.group) && own(next.team_id, access.placement.team))) return;
    const r = await this.deps.projects.checkPlacement(
      { project_id: next.project_id, site: next.site_id ?? 0, group: next.group_id ?? 0, team: next.team_id ?? 0 },
      ctx,
    );
    const bad: Record<string, string[]> = {};
    if (!r.group_valid) bad.group = [UPLOAD_MESSAGES.group];
    if (!r.team_valid) bad.team = [UPLOAD_MESSAGES.team];
    if (Object.keys(bad).length > 0) throw problems.invalidFields(bad);
  }

  private async isMobileManager(access: ResponseAccess, ctx: Ctx): Promise<boolean> {
    if (access.anonymous) return false;
    const users = await this.deps.auth.getUsers(
      { user_ids: [access.userId], organization_id: access.organizationId },
      ctx,
    );
    return users.results.some((u) => u.id === access.userId && u.is_mobilemanager);
  }
}
