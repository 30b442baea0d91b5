// SQL access for BI tools (spec 001 §7 Import: project/{id}/postgres/ and disable_postgres/): a PostgreSQL login
// role, read-only, whose only grant is SELECT on one view in a schema of its own, sql_p<project>.responses, which
// shows the project's responses flat (flat-view.ts). The view runs with its owner's rights, so the role reads those
// rows and nothing else: it has no usage on the services' schemas. Enabling again rebuilds the view (new questions)
// and gives a new password; the password is in that answer only (never stored or logged).
import { randomBytes } from 'node:crypto';
import type { responses } from '@fieldwork/proto';
import { problems, transaction, type Sql } from '@fieldwork/service-kit';
import { flatViewSql, ident, literal } from '../domain/flat-view.js';
import type { AccessCache } from './access.js';
import type { Ctx, ResponsesDeps } from './deps.js';
import type { SchemaCache } from './schemas.js';

interface AccessRow {
  project_id: number;
  role_name: string;
  view_name: string;
  time_created: Date;
}

export interface SqlEndpoint {
  host: string;
  port: number;
  database: string;
}

export const SQL_ACCESS_MESSAGES = {
  noRoles: 'SQL access needs a database user that may create roles (CREATEROLE); ask the operator.',
} as const;

export class SqlAccessService {
  constructor(
    private readonly deps: ResponsesDeps,
    private readonly access: AccessCache,
    private readonly schemas: SchemaCache,
    private readonly endpoint: SqlEndpoint,
  ) {}

  private async owner(req: responses.SqlAccessRequest, ctx: Ctx): Promise<number> {
    const a = await this.access.get(req.caller, req.project_id, ctx, true);
    if (!a.screens.has('projectLevelIngestion')) throw problems.forbidden();
    return a.organizationId;
  }

  /** SQL-access grants in the workspace's audit log (auth); a failure to record is logged, not thrown. */
  private async audit(
    organizationId: number,
    req: responses.SqlAccessRequest,
    event: string,
    details: Record<string, unknown>,
    ctx: Ctx,
  ): Promise<void> {
    await this.deps.auth
      .recordAudit(
        {
          organization_id: organizationId,
          actor_user_id: req.caller?.user_id ?? 0,
          event,
          target: `project ${req.project_id}`,
          ip: '',
          details_json: JSON.stringify(details),
          id: 0,
          time: '',
        },
        ctx,
      )
      .catch((err: unknown) => this.deps.log.error({ err, event }, 'audit event not recorded'));
  }

  async enable(req: responses.SqlAccessRequest, ctx: Ctx): Promise<responses.SqlAccess> {
    const organizationId = await this.owner(req, ctx);
    const list = await this.deps.forms.listSchemas({ project_id: req.project_id }, ctx);
    const forms = await Promise.all(
      [...list.results]
        .sort((a, b) => a.level - b.level || a.id - b.id)
        .map(async (s) => ({ id: s.id, body: (await this.schemas.get(s.id, ctx)).body })),
    );
    const schema = `sql_p${Math.trunc(req.project_id)}`;
    const view = `${schema}.responses`;
    const role = `fw_sql_${randomBytes(6).toString('hex')}`;
    const password = randomBytes(18).toString('base64url');
    const [current] = await this.deps.sql<{ table: string }[]>`select current_schema() || '.responses' as table`;
    const table = current!.table;
    const row = await transaction(this.deps.sql, async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext(${'fieldwork.sql_access.' + req.project_id}))`;
      const [old] = await tx<AccessRow[]>`select * from sql_access where project_id = ${req.project_id}`;
      if (old) await this.dropRole(tx, old.role_name);
      try {
        await tx.unsafe(
          `create role ${ident(role)} login password ${literal(password)} nosuperuser nocreatedb nocreaterole noinherit connection limit 10`,
        );
      } catch (err) {
        if ((err as { code?: string }).code === '42501') throw problems.invalid(SQL_ACCESS_MESSAGES.noRoles);
        throw err;
      }
      await tx.unsafe(`alter role ${ident(role)} set default_transaction_read_only = on`);
      await tx.unsafe(`alter role ${ident(role)} set statement_timeout = '120s'`);
      await tx.unsafe(`create schema if not exists ${ident(schema)}`);
      await tx.unsafe(`drop view if exists ${ident(schema)}.responses`);
      await tx.unsafe(`create view ${ident(schema)}.responses as ${flatViewSql(table, req.project_id, forms)}`);
      await tx.unsafe(`revoke all on schema ${ident(schema)} from public`);
      await tx.unsafe(`grant connect on database ${ident(this.endpoint.database)} to ${ident(role)}`);
      await tx.unsafe(`grant usage on schema ${ident(schema)} to ${ident(role)}`);
      await tx.unsafe(`grant select on ${ident(schema)}.responses to ${ident(role)}`);
      const [made] = await tx<AccessRow[]>`
        insert into sql_access (project_id, role_name, view_name, created_by) values (${req.project_id}, ${role}, ${view}, ${req.caller?.user_id ?? 0})
        on conflict (project_id) do update set role_name = excluded.role_name, view_name = excluded.view_name, created_by = excluded.created_by, time_created = now()
        returning *`;
      return made!;
    });
    this.deps.log.info({ projectId: req.project_id, role }, 'sql access enabled');
    await this.audit(organizationId, req, 'sql_access_granted', { role }, ctx);
    return this.toReply(row, password);
  }

  async disable(req: responses.SqlAccessRequest, ctx: Ctx): Promise<responses.SqlAccess> {
    const organizationId = await this.owner(req, ctx);
    await this.drop(req.project_id);
    this.deps.log.info({ projectId: req.project_id }, 'sql access disabled');
    await this.audit(organizationId, req, 'sql_access_revoked', {}, ctx);
    return { enabled: false, host: '', port: 0, database: '', username: '', password: '', view: '', time_created: '' };
  }

  /** Ends a project's SQL access (its role and view), if it has one; also a purge's step (no caller: internal). */
  async drop(projectId: number): Promise<boolean> {
    return transaction(this.deps.sql, async (tx) => {
      const [old] = await tx<AccessRow[]>`delete from sql_access where project_id = ${projectId} returning *`;
      if (!old) return false;
      await this.dropRole(tx, old.role_name);
      await tx.unsafe(`drop schema if exists ${ident(`sql_p${Math.trunc(projectId)}`)} cascade`);
      return true;
    });
  }

  private async dropRole(tx: Sql, role: string): Promise<void> {
    const [exists] = await tx`select 1 from pg_roles where rolname = ${role}`;
    if (!exists) return;
    await tx`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${role}`;
    await tx.unsafe(`drop owned by ${ident(role)}`);
    await tx.unsafe(`drop role ${ident(role)}`);
  }

  private toReply(row: AccessRow, password: string): responses.SqlAccess {
    return {
      enabled: true,
      ...this.endpoint,
      username: row.role_name,
      password,
      view: row.view_name,
      time_created: row.time_created.toISOString(),
    };
  }
}
