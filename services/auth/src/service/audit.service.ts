// The audit log (security events): recorded by this service where it decides (logins, lockouts, API keys, workspace
// roles) and by the others through RecordAudit (project roles and permissions, exports, imports, SQL access); read
// page by page by the workspace's owners. Recording never fails the action it records: a failure is logged.
import type { auth, common } from '@fieldwork/proto';
import { problems, type Logger, type Sql } from '@fieldwork/service-kit';
import { callerOf } from './caller.js';
import { visibleWorkspace } from './workspace-access.js';
import type { OrganizationStore } from '../store/organization.store.js';

export const AUDIT_EVENTS = [
  'login',
  'login_failed',
  'lockout',
  'api_key_created',
  'api_key_revoked',
  'workspace_user_updated',
  'workspace_user_removed',
  'workspace_user_invited',
  'invitation_accepted',
  'invitation_declined',
  'login_throttled',
  'project_user_added',
  'project_user_updated',
  'project_user_removed',
  'permissions_changed',
  'export_created',
  'import_created',
  'sql_access_granted',
  'sql_access_revoked',
  'collection_link_created',
  'collection_link_expired',
  'collection_link_revoked',
  'project_deleted',
  'project_purge_requested',
  'project_purged',
  'project_purge_failed',
  'role_grant_refused',
  'workspace_features_changed',
  'signup',
] as const;
export type AuditEventName = (typeof AUDIT_EVENTS)[number];

export interface AuditEntry {
  organization_id: number | null;
  actor_user_id: number | null;
  event: AuditEventName;
  target?: string;
  ip?: string;
  details?: Record<string, unknown>;
}

interface AuditRow {
  id: number;
  time: Date;
  organization_id: number | null;
  actor_user_id: number | null;
  event: string;
  target: string;
  ip: string;
  details: Record<string, unknown>;
}

export class AuditLog {
  constructor(
    private readonly sql: Sql,
    private readonly log: Logger,
  ) {}

  async record(e: AuditEntry): Promise<void> {
    try {
      await this.sql`
        insert into audit_events (organization_id, actor_user_id, event, target, ip, details)
        values (${e.organization_id}, ${e.actor_user_id}, ${e.event}, ${(e.target ?? '').slice(0, 200)}, ${(e.ip ?? '').slice(0, 64)}, ${this.sql.json((e.details ?? {}) as never)})`;
    } catch (err) {
      this.log.error({ err, event: e.event }, 'audit event not recorded');
    }
  }

  async page(
    organizationId: number,
    event: string,
    page: number,
    size: number,
  ): Promise<{ rows: AuditRow[]; count: number }> {
    const filter = event ? this.sql`and event = ${event}` : this.sql``;
    const rows = await this.sql<AuditRow[]>`
      select * from audit_events where organization_id = ${organizationId} ${filter} order by id desc limit ${size} offset ${(page - 1) * size}`;
    const [c] = await this.sql<
      { n: number }[]
    >`select count(*)::int as n from audit_events where organization_id = ${organizationId} ${filter}`;
    return { rows, count: c!.n };
  }
}

export class AuditService {
  constructor(
    private readonly audit: AuditLog,
    private readonly orgs: OrganizationStore,
  ) {}

  /** From the other services (trusted: only they reach this RPC, by the network policies). */
  async record(req: auth.AuditEvent): Promise<common.Empty> {
    if (!(AUDIT_EVENTS as readonly string[]).includes(req.event))
      throw problems.invalid(`Unknown audit event ${req.event}.`);
    let details: Record<string, unknown> = {};
    try {
      const parsed = req.details_json ? (JSON.parse(req.details_json) as unknown) : {};
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        details = parsed as Record<string, unknown>;
    } catch {
      details = {};
    }
    await this.audit.record({
      organization_id: req.organization_id > 0 ? req.organization_id : null,
      actor_user_id: req.actor_user_id > 0 ? req.actor_user_id : null,
      event: req.event as AuditEventName,
      target: req.target,
      ip: req.ip,
      details,
    });
    return {};
  }

  /** A workspace's events, newest first: its owners only. */
  async list(req: auth.ListAuditRequest): Promise<auth.AuditList> {
    const caller = callerOf(req.caller);
    const { org, member } = await visibleWorkspace(this.orgs, caller, req.organization_id);
    if (!(member?.owner && member.is_active) && !caller.is_superuser) throw problems.forbidden();
    if (req.event && !(AUDIT_EVENTS as readonly string[]).includes(req.event))
      throw problems.invalidFields({ event: [`Choose one of ${AUDIT_EVENTS.join(', ')}.`] });
    const page = req.page > 0 ? req.page : 1;
    const size = req.page_size > 0 ? Math.min(req.page_size, 500) : 50;
    const { rows, count } = await this.audit.page(org.id, req.event, page, size);
    return {
      count,
      results: rows.map((r) => ({
        id: r.id,
        time: r.time.toISOString(),
        organization_id: r.organization_id ?? 0,
        actor_user_id: r.actor_user_id ?? 0,
        event: r.event,
        target: r.target,
        ip: r.ip,
        details_json: JSON.stringify(r.details),
      })),
    };
  }
}
