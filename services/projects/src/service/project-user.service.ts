// Project users and their permissions (spec 000 §7 Projects, Users; §6): editing one needs the admins screen, or
// the target is a collector; nobody acts on themselves.
import {
  canEditProjectUser,
  mayGrantRole,
  readSitesBeyondOwn,
  PROJECT_ROLES,
  rolesForPermissions,
  type ProjectRoles,
} from '@fieldwork/access';
import type { auth, common, projects } from '@fieldwork/proto';
import { problems, transaction, type FieldErrors } from '@fieldwork/service-kit';
import { NO_ROLES } from '../domain/roles.js';
import { ProjectUserStore, type ProjectUserPatch, type ProjectUserRow } from '../store/project-user.store.js';
import { StructureStore } from '../store/structure.store.js';
import { AccessResolver, type ProjectAccess } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';
import { toProjectUser } from './mappers.js';

const PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 200;

/** Where a user sits: a team implies its group and site, a group its site. */
export interface Placement {
  site_id: number | null;
  group_id: number | null;
  team_id: number | null;
}

/** The role names set to true. */
const rolesOf = (r: Partial<ProjectRoles>) =>
  Object.entries(r)
    .filter(([, v]) => v === true)
    .map(([k]) => k);

export class ProjectUserService {
  readonly store: ProjectUserStore;
  private readonly structure: StructureStore;

  constructor(
    private readonly deps: ProjectsDeps,
    private readonly access: AccessResolver,
  ) {
    this.store = new ProjectUserStore(deps.sql);
    this.structure = new StructureStore(deps.sql);
  }

  /**
   * Page, role filter (a role name or guest) and search over name, username and email, all on the server: the
   * workspace's active members matching the search come from auth (ids only), the page and its total from one query,
   * the names of that page's users only. A page size over MAX_PAGE_SIZE is capped, and the answer says so.
   */
  async list(req: projects.ListProjectUsersRequest, ctx: Ctx): Promise<projects.ProjectUserList> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'admins', 'staff');
    const role = req.role.trim();
    if (role !== '' && role !== 'guest' && !(PROJECT_ROLES as readonly string[]).includes(role)) {
      throw problems.invalidFields({ role: [`Choose one of ${[...PROJECT_ROLES, 'guest'].join(', ')}.`] });
    }
    const asked = req.page_size > 0 ? req.page_size : PAGE_SIZE;
    const size = Math.min(asked, MAX_PAGE_SIZE);
    const page = Math.max(req.page || 1, 1);
    const { user_ids } = await this.deps.auth.memberIds(
      { organization_id: a.organizationId, search: req.search.trim() },
      ctx,
    );
    const { rows, count } = await this.store.page(a.project.id, {
      userIds: user_ids,
      role,
      limit: size,
      offset: (page - 1) * size,
    });
    const briefs = await this.briefs(a, rows, ctx);
    return {
      results: rows.map((r) => toProjectUser(r, briefs.get(r.user_id), a.organizationId)),
      count,
      page_size: size,
      page_size_capped: asked > MAX_PAGE_SIZE,
    };
  }

  /** Creates (by email) or adds (by user id) a user to the project with roles and a place. */
  async add(req: projects.AddProjectUserRequest, ctx: Ctx): Promise<projects.ProjectUser> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    const roles = req.roles ?? NO_ROLES;
    let userId = req.user_id;
    if (userId > 0) {
      const [brief] = (await this.deps.auth.getUsers({ user_ids: [userId], organization_id: a.organizationId }, ctx))
        .results;
      if (!brief?.member) throw problems.invalidUserId();
    }
    const existing = userId > 0 ? await this.store.one(a.project.id, userId) : undefined;
    await this.checkEdit(a, userId, existing ?? roles, roles, ctx, existing ?? NO_ROLES);
    const placement = await this.placement(a.project.id, req, true);
    const readSites = await this.readSites(a.project.id, req.read_sites);
    await this.checkReadSites(a, userId, existing?.read_sites ?? [], readSites, ctx);
    if (userId <= 0) {
      const ensured = await this.deps.auth.ensureMember(
        {
          organization_id: a.organizationId,
          email: req.email,
          first_name: req.first_name,
          last_name: req.last_name,
          password: req.password,
          invited_by: a.caller.user_id,
          project_name: a.project.name,
        },
        ctx,
      );
      userId = ensured.user!.id;
      if (userId === a.caller.user_id && !a.caller.is_staff && !a.caller.is_superuser) throw problems.forbidden();
    }
    const { row } = await this.store.upsert(a.project.id, userId, { ...roles, ...placement, read_sites: readSites });
    this.deps.log.info({ projectId: a.project.id, userId, by: a.caller.user_id }, 'project user added');
    await this.audit(a, 'project_user_added', userId, { roles: rolesOf(roles) }, ctx);
    return this.one(a, row, ctx);
  }

  async update(req: projects.UpdateProjectUserRequest, ctx: Ctx): Promise<projects.ProjectUser> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    const current = await this.existing(a, req.user_id);
    await this.checkEdit(a, current.user_id, current, req.roles ?? current, ctx);
    const patch: ProjectUserPatch = { ...(req.roles ?? {}) };
    if (req.team !== undefined || req.group !== undefined || req.site !== undefined) {
      Object.assign(
        patch,
        await this.placement(a.project.id, { site: req.site ?? 0, group: req.group ?? 0, team: req.team ?? 0 }, false),
      );
    }
    if (req.read_sites_given) {
      patch.read_sites = await this.readSites(a.project.id, req.read_sites);
      await this.checkReadSites(a, current.user_id, current.read_sites, patch.read_sites, ctx);
    }
    if (req.first_name !== undefined || req.last_name !== undefined) {
      await this.deps.auth.updateOrganizationUser(
        {
          caller: a.caller,
          organization_id: a.organizationId,
          user_id: current.user_id,
          ...(req.first_name !== undefined ? { first_name: req.first_name } : {}),
          ...(req.last_name !== undefined ? { last_name: req.last_name } : {}),
        },
        ctx,
      );
    }
    const row = await this.store.update(a.project.id, current.user_id, patch);
    if (req.roles || req.read_sites_given)
      await this.audit(
        a,
        'project_user_updated',
        current.user_id,
        {
          ...(req.roles ? { roles: rolesOf(req.roles) } : {}),
          ...(patch.read_sites ? { read_sites: patch.read_sites } : {}),
        },
        ctx,
      );
    return this.one(a, row, ctx);
  }

  async remove(req: projects.ProjectUserRef, ctx: Ctx): Promise<common.Empty> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    const current = await this.existing(a, req.user_id);
    await this.checkEdit(a, current.user_id, current, current, ctx);
    await this.store.delete(a.project.id, current.user_id);
    this.deps.log.info(
      { projectId: a.project.id, userId: current.user_id, by: a.caller.user_id },
      'project user removed',
    );
    await this.audit(a, 'project_user_removed', current.user_id, {}, ctx);
    return {};
  }

  /**
   * Gives several users the same permissions and/or read_sites. `permissions` are the names a project user's
   * permissions list (spec 000 §6 screens: home, results, staff ...), so what is read is written back as it is; each
   * user gets the roles giving exactly them (rolesForPermissions; their own roles when these already do). Role names
   * are read as their screens.
   */
  async setPermissions(req: projects.SetPermissionsRequest, ctx: Ctx): Promise<projects.ProjectUserList> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    const fields: FieldErrors = {};
    if (req.user_ids.length === 0) fields.userIds = ['Choose at least one user.'];
    const asked = rolesForPermissions(req.permissions);
    if (asked.unknown.length > 0) fields.permissions = [`Unknown permissions: ${asked.unknown.join(', ')}.`];
    else if (asked.unmatched.length > 0)
      fields.permissions = [`No roles give exactly these permissions: ${asked.unmatched.join(', ')}.`];
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const readSites = req.read_sites_given ? await this.readSites(a.project.id, req.read_sites) : undefined;
    const targets = await Promise.all([...new Set(req.user_ids)].map((id) => this.existing(a, id)));
    const rolesOfTarget = new Map(
      targets.map((t) => [t.user_id, req.permissions_given ? rolesForPermissions(req.permissions, t).roles : t]),
    );
    for (const t of targets) {
      await this.checkEdit(a, t.user_id, t, rolesOfTarget.get(t.user_id)!, ctx);
      if (readSites) await this.checkReadSites(a, t.user_id, t.read_sites, readSites, ctx);
    }
    const rows = await transaction(this.deps.sql, async (tx) => {
      const store = new ProjectUserStore(tx);
      const out: ProjectUserRow[] = [];
      for (const t of targets) {
        out.push(
          await store.update(a.project.id, t.user_id, {
            ...(req.permissions_given ? rolesOfTarget.get(t.user_id) : {}),
            ...(readSites ? { read_sites: readSites } : {}),
          }),
        );
      }
      return out;
    });
    for (const t of targets) {
      await this.audit(
        a,
        'permissions_changed',
        t.user_id,
        {
          ...(req.permissions_given
            ? { roles: rolesOf(rolesOfTarget.get(t.user_id)!), permissions: req.permissions }
            : {}),
          ...(readSites ? { read_sites: readSites } : {}),
        },
        ctx,
      );
    }
    const briefs = await this.briefs(a, rows, ctx);
    return {
      results: rows.map((r) => toProjectUser(r, briefs.get(r.user_id), a.organizationId)),
      count: rows.length,
      page_size: rows.length,
      page_size_capped: false,
    };
  }

  /** A role or permission change in the workspace's audit log (auth); a failure to record is logged, not thrown. */
  private async audit(
    a: ProjectAccess,
    event: string,
    userId: number,
    details: Record<string, unknown>,
    ctx: Ctx,
  ): Promise<void> {
    await this.deps.auth
      .recordAudit(
        {
          organization_id: a.organizationId,
          actor_user_id: a.caller.user_id,
          event,
          target: `project ${a.project.id} user ${userId}`,
          ip: '',
          details_json: JSON.stringify(details),
          id: 0,
          time: '',
        },
        ctx,
      )
      .catch((err: unknown) => this.deps.log.error({ err, event }, 'audit event not recorded'));
  }

  /**
   * The caller may edit the target: admins, or the target stays a collector only; never oneself; and no role is
   * granted that the caller does not hold (mayGrantRole), counted from `held` (what the target has now; none for a
   * new project user). A refused grant is written to the audit log.
   */
  async checkEdit(
    a: ProjectAccess,
    targetUserId: number,
    before: ProjectRoles,
    after: ProjectRoles,
    ctx: Ctx,
    held: ProjectRoles = before,
  ): Promise<void> {
    if (a.caller.is_staff || a.caller.is_superuser) return;
    if (!a.screens.has('admins') && !a.screens.has('staff')) throw problems.forbidden();
    const onlyCollector = (r: ProjectRoles) => r.collector && PROJECT_ROLES.every((p) => p === 'collector' || !r[p]);
    const allowed = (r: ProjectRoles) =>
      canEditProjectUser(a.caller.user_id, a.screens, {
        user_id: targetUserId,
        roles: onlyCollector(r) ? r : { ...r, collector: false },
      });
    if (targetUserId === a.caller.user_id) throw problems.forbidden();
    const granted = PROJECT_ROLES.filter((r) => after[r] && !held[r]);
    const notHeld = granted.filter((r) => !mayGrantRole(a.screens, r));
    if (notHeld.length > 0) {
      await this.audit(a, 'role_grant_refused', targetUserId, { roles: notHeld }, ctx);
      throw problems.grantBeyondOwn(`the role${notHeld.length === 1 ? '' : 's'} ${notHeld.join(', ')}`);
    }
    if (!allowed(before) || !allowed(after)) throw problems.forbidden();
  }

  /**
   * Refuses read_sites above the caller's own (issue 30 item 4): a staff admin, who reads no results, cannot give a
   * collector read access to every site and read through it. `held` are the target's read_sites now.
   */
  async checkReadSites(
    a: ProjectAccess,
    targetUserId: number,
    held: readonly number[],
    asked: readonly number[],
    ctx: Ctx,
  ): Promise<void> {
    if (a.caller.is_staff || a.caller.is_superuser) return;
    const beyond = readSitesBeyondOwn({ screens: a.screens, read_sites: a.projectUser?.read_sites ?? [] }, held, asked);
    if (beyond.length === 0) return;
    await this.audit(a, 'role_grant_refused', targetUserId, { read_sites: beyond }, ctx);
    throw problems.grantBeyondOwn(
      `read access to site${beyond.length === 1 ? '' : 's'} ${beyond.join(', ')}, whose results you do not read`,
    );
  }

  /** Site, group and team from ids (a team implies its group and site); none given: the default ones. */
  async placement(
    projectId: number,
    p: { site: number; group: number; team: number },
    defaults: boolean,
  ): Promise<Placement> {
    const [sites, groups, teams] = await Promise.all([
      this.structure.sites(projectId),
      this.structure.groups(projectId),
      this.structure.teams(projectId),
    ]);
    if (p.team > 0) {
      const team = teams.find((t) => t.id === p.team);
      if (!team) throw problems.invalidFields({ team: ['Invalid Project or Team Id!'] });
      const group = groups.find((g) => g.id === team.group_id)!;
      return { site_id: group.site_id, group_id: group.id, team_id: team.id };
    }
    if (p.group > 0) {
      const group = groups.find((g) => g.id === p.group);
      if (!group) throw problems.invalidFields({ group: ['Invalid Project or Group Id!'] });
      return { site_id: group.site_id, group_id: group.id, team_id: null };
    }
    if (p.site > 0) {
      if (!sites.some((s) => s.id === p.site)) throw problems.invalidFields({ site: ['Invalid Project or Site Id!'] });
      return { site_id: p.site, group_id: null, team_id: null };
    }
    if (!defaults) return { site_id: null, group_id: null, team_id: null };
    const site = sites.find((s) => s.is_default);
    const group = groups.find((g) => g.is_default && g.site_id === site?.id);
    const team = teams.find((t) => t.is_default && t.group_id === group?.id);
    return { site_id: site?.id ?? null, group_id: group?.id ?? null, team_id: team?.id ?? null };
  }

  async readSites(projectId: number, ids: number[]): Promise<number[]> {
    const known = new Set((await this.structure.sites(projectId)).map((s) => s.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw problems.invalidFields({ read_sites: ['Invalid Project or Site Id!'] });
    return [...new Set(ids)];
  }

  private async existing(a: ProjectAccess, userId: number): Promise<ProjectUserRow> {
    const row = userId > 0 ? await this.store.one(a.project.id, userId) : undefined;
    if (!row) throw problems.invalidUserId();
    return row;
  }

  private async one(a: ProjectAccess, row: ProjectUserRow, ctx: Ctx): Promise<projects.ProjectUser> {
    const briefs = await this.briefs(a, [row], ctx);
    return toProjectUser(row, briefs.get(row.user_id), a.organizationId);
  }

  private async briefs(a: ProjectAccess, rows: ProjectUserRow[], ctx: Ctx): Promise<Map<number, auth.UserBrief>> {
    const { results } = await this.deps.auth.getUsers(
      { user_ids: rows.map((r) => r.user_id), organization_id: a.organizationId },
      ctx,
    );
    return new Map(results.map((u) => [u.id, u]));
  }
}
