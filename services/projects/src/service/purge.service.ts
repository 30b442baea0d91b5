// Purging a deleted project (state D): the workspace owner's last step after deletion, which removes everything
// stored for the project in every store: responses, outbox rows, media rows and objects, SQL access and stream
// messages (responses service); rows of the results store (ClickHouse); export and import jobs and files (exports);
// forms and their revisions (forms); uploaded files, logo, structure, users, links and the project row (here).
// Asking records the purge (with the counts the confirmation showed) and audits it; the purge job (PurgeRunner) does
// the work in bounded batches, each one a call of at most PURGE_BATCH rows to one service, so no request holds a
// service for long; it checks that every store answers nothing left before it calls the purge done.
import type { common, projects } from '@fieldwork/proto';
import { problems, type Logger, type Sql } from '@fieldwork/service-kit';
import { ProjectStore } from '../store/project.store.js';
import { PurgeStore, type PurgeRow } from '../store/purge.store.js';
import { AccessResolver, type ProjectAccess } from './access.js';
import type { AuthClient, Ctx, FileStore } from './deps.js';

export const PURGE_MESSAGES = {
  notDeleted: 'Only a deleted project can be purged. Delete it first.',
  notOwner: 'Only the workspace owner can purge a deleted project.',
} as const;

export const PURGE_BATCH = 500;
const LEASE_S = 120;
const MAX_ATTEMPTS = 5;
/** Rounds of every step before the job gives the lease back (another purge may run meanwhile). */
const ROUNDS_PER_CLAIM = 3;
const BATCHES_PER_STEP = 10_000;

/** One store's part of a purge: an internal call that counts (dry run) or removes a batch. */
export interface PurgeStep {
  name: string;
  call: (req: common.PurgeProjectRequest, ctx: Ctx) => Promise<common.PurgeCounts>;
}

/** The object-store prefix of a project's uploaded files (collection.service.ts). */
export const uploadsPrefix = (projectId: number) => `uploads/${projectId}/`;

export class PurgeService {
  private readonly store: PurgeStore;
  private readonly projects: ProjectStore;

  constructor(
    private readonly deps: { sql: Sql; log: Logger; auth: AuthClient; files: FileStore },
    private readonly access: AccessResolver,
    /** The other services' steps, in order; this service's own step runs last. */
    private readonly steps: PurgeStep[],
    /** Wakes the purge job (a new purge need not wait for its next poll). */
    private readonly kick: () => void = () => undefined,
  ) {
    this.store = new PurgeStore(deps.sql);
    this.projects = new ProjectStore(deps.sql);
  }

  /** Every step, this service's own last. */
  private allSteps(): PurgeStep[] {
    return [...this.steps, { name: 'projects', call: (req) => this.own(req) }];
  }

  /** The workspace's deleted projects with their purge's state, and the purges done (for its owner only). */
  async list(req: projects.OrganizationRef, ctx: Ctx): Promise<projects.PurgeList> {
    const ws = await this.access.workspace(req.caller, req.organization_id, ctx);
    if (!this.isOwner(ws)) throw problems.forbidden();
    const [deleted, purges] = await Promise.all([
      this.store.deletedOf(ws.organizationId),
      this.store.ofOrganization(ws.organizationId),
    ]);
    const byId = new Map(purges.map((p) => [p.project_id, p]));
    const results: projects.PurgeStatus[] = deleted.map((d) => {
      const p = byId.get(d.id);
      byId.delete(d.id);
      return p
        ? toStatus(p)
        : { project_id: d.id, name: d.name, state: 'none', counts: {}, requested_at: '', finished_at: '', error: '' };
    });
    return { results: [...results, ...[...byId.values()].map(toStatus)] };
  }

  /** What a purge would remove (before one is asked), or the purge's state and what it removed. */
  async get(req: projects.ProjectRef, ctx: Ctx): Promise<projects.PurgeStatus> {
    const done = await this.purgedRecord(req, ctx);
    if (done) return toStatus(done);
    const a = await this.ownerOfDeleted(req, ctx);
    const row = await this.store.get(a.project.id);
    if (row) return toStatus(row);
    return {
      project_id: a.project.id,
      name: a.project.name,
      state: 'none',
      counts: await this.preview(a.project.id, ctx),
      requested_at: '',
      finished_at: '',
      error: '',
    };
  }

  /** Asks for the purge: recorded with what it will remove, audited, then run by the purge job. */
  async start(req: projects.ProjectRef, ctx: Ctx): Promise<projects.PurgeStatus> {
    const done = await this.purgedRecord(req, ctx);
    if (done) return toStatus(done);
    const a = await this.ownerOfDeleted(req, ctx);
    const existing = await this.store.get(a.project.id);
    if (existing && existing.state !== 'failed') return toStatus(existing);
    const counts = await this.preview(a.project.id, ctx);
    const row = await this.store.start({
      project_id: a.project.id,
      organization_id: a.organizationId,
      name: a.project.name,
      requested_by: a.caller.user_id,
      counts,
    });
    await this.audit(
      row,
      a.caller.user_id,
      'project_purge_requested',
      { counts, ...(a.caller.api_key ? { api_key: a.caller.api_key } : {}) },
      ctx,
    );
    this.deps.log.info({ projectId: row.project_id, counts }, 'project purge requested');
    this.kick();
    return toStatus(row);
  }

  /**
   * The purge job's turn: takes one running purge and runs every step in batches until each answers nothing left,
   * then checks them all once more (a message the results store was ingesting may land after its step) and records
   * the purge done. Answers whether it found a purge to work on.
   */
  async runOnce(ctx: Ctx): Promise<boolean> {
    const row = await this.store.claim(LEASE_S);
    if (!row) return false;
    const projectId = row.project_id;
    try {
      const project = await this.projects.byId(projectId);
      if (project && project.project_state !== 'D') {
        // Restored before the job began: nothing of it is touched.
        await this.store.failed(projectId, PURGE_MESSAGES.notDeleted, 0, 0);
        return true;
      }
      for (let round = 0; round < ROUNDS_PER_CLAIM; round++) {
        for (const step of this.allSteps()) {
          for (let batch = 0; batch < BATCHES_PER_STEP; batch++) {
            const r = await step.call({ project_id: projectId, dry_run: false, limit: PURGE_BATCH }, ctx);
            await this.store.addRemoved(projectId, numbers(r.counts));
            await this.store.renew(projectId, LEASE_S);
            if (r.remaining === 0) break;
          }
        }
        const left = await this.leftover(projectId, ctx);
        if (left.length === 0) {
          const finished = await this.store.finish(projectId);
          await this.audit(finished, row.requested_by, 'project_purged', { removed: finished.removed }, ctx);
          this.deps.log.info({ projectId, removed: finished.removed }, 'project purged');
          return true;
        }
        this.deps.log.warn({ projectId, left }, 'project purge: something left after a round; going again');
      }
      throw new Error('something is left after every round');
    } catch (err) {
      const failed = await this.store.failed(projectId, (err as Error).message, MAX_ATTEMPTS, 30);
      this.deps.log.error({ err, projectId, attempts: failed.attempts }, 'project purge attempt failed');
      if (failed.state === 'failed')
        await this.audit(failed, row.requested_by, 'project_purge_failed', { error: failed.error }, ctx);
      return true;
    }
  }

  /** The stores that still hold something of the project (a dry run of every step). */
  async leftover(projectId: number, ctx: Ctx): Promise<string[]> {
    const left: string[] = [];
    for (const step of this.allSteps()) {
      const r = await step.call({ project_id: projectId, dry_run: true, limit: 0 }, ctx);
      if (r.remaining > 0) left.push(step.name);
    }
    return left;
  }

  /** What every store holds of the project, by kind (the confirmation's figures). */
  async preview(projectId: number, ctx: Ctx): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const step of this.allSteps()) {
      const r = await step.call({ project_id: projectId, dry_run: true, limit: 0 }, ctx);
      Object.assign(counts, numbers(r.counts));
    }
    return counts;
  }

  /** This service's part: uploaded files and logo, then the project row with everything hanging from it. */
  private async own(req: common.PurgeProjectRequest): Promise<common.PurgeCounts> {
    const projectId = req.project_id;
    const project = await this.projects.byId(projectId);
    const counts = await this.store.own(projectId);
    let files = 0;
    for await (const _ of this.deps.files.list(uploadsPrefix(projectId))) files++;
    const logo = project && project.logo !== '' && !(await this.store.logoShared(project.logo, projectId));
    const total = Object.values(counts).reduce((s, n) => s + n, 0) + files;
    if (req.dry_run) return { counts: { ...counts, uploaded_files: files }, remaining: total };
    if (project && project.project_state !== 'D') throw problems.invalid(PURGE_MESSAGES.notDeleted);
    let removedFiles = 0;
    for await (const key of this.deps.files.list(uploadsPrefix(projectId))) {
      if (removedFiles >= PURGE_BATCH) break;
      await this.deps.files.delete(key);
      removedFiles++;
    }
    if (removedFiles < files) return { counts: { uploaded_files: removedFiles }, remaining: files - removedFiles };
    if (logo) await this.deps.files.delete(project.logo);
    await this.store.removeProject(projectId, logo ? project.logo : '');
    return { counts: { ...counts, uploaded_files: removedFiles, logo: logo ? 1 : 0 }, remaining: 0 };
  }

  private isOwner(ws: { caller: common.Caller; membership: { owner: boolean } }): boolean {
    return ws.membership.owner || ws.caller.is_staff || ws.caller.is_superuser;
  }

  /** The caller owns the project's workspace and the project is deleted; otherwise the refusal. */
  private async ownerOfDeleted(req: projects.ProjectRef, ctx: Ctx): Promise<ProjectAccess> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    if (!this.isOwner(a)) throw problems.forbidden();
    if (a.project.project_state !== 'D') throw problems.invalidFields({ project_state: [PURGE_MESSAGES.notDeleted] });
    return a;
  }

  /** A purge whose project row is already gone (done, or ending): shown to the owner of its workspace only. */
  private async purgedRecord(req: projects.ProjectRef, ctx: Ctx): Promise<PurgeRow | undefined> {
    if (req.project_id <= 0) return undefined;
    const row = await this.store.get(req.project_id);
    if (!row || (await this.projects.byId(req.project_id))) return undefined;
    const ws = await this.access.workspace(req.caller, row.organization_id, ctx).catch(() => undefined);
    if (!ws) throw problems.invalidProjectId();
    if (!this.isOwner(ws)) throw problems.forbidden();
    return row;
  }

  private async audit(
    row: PurgeRow,
    actor: number,
    event: string,
    details: Record<string, unknown>,
    ctx: Ctx,
  ): Promise<void> {
    await this.deps.auth
      .recordAudit(
        {
          organization_id: row.organization_id,
          actor_user_id: actor,
          event,
          target: `project ${row.project_id}`,
          ip: '',
          details_json: JSON.stringify({ name: row.name, ...details }),
          id: 0,
          time: '',
        },
        ctx,
      )
      .catch((err: unknown) => this.deps.log.error({ err, event }, 'audit event not recorded'));
  }
}

/** A step's counts as numbers (int64 fields may arrive as strings); each service names its kinds distinctly. */
function numbers(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)]));
}

function toStatus(row: PurgeRow): projects.PurgeStatus {
  return {
    project_id: row.project_id,
    name: row.name,
    state: row.state,
    counts: Object.fromEntries(
      Object.entries(row.state === 'done' ? row.removed : row.counts).map(([k, v]) => [k, Number(v)]),
    ),
    requested_at: row.requested_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? '',
    error: row.error,
  };
}

/** The purge job: a loop in the projects service, woken by a new purge or every `pollMs`; one purge at a time. */
export class PurgeRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly service: () => PurgeService,
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  kick = (): void => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.service().runOnce({ requestId: 'purge-job' })));
        } while (this.again && !this.stopped);
      } catch (err) {
        this.log.error({ err }, 'purge job turn failed');
      } finally {
        this.running = undefined;
      }
    })();
  };

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
