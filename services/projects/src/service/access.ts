// Who may do what in a workspace and a project. The rules are packages/access (spec 000 §6); this gathers the facts:
// the caller's workspace membership (from auth) and project roles (ours). A project the caller cannot see is
// "Invalid Project Id!" (404), whether it exists or not.
import {
  canInProject,
  canInWorkspace,
  projectScreens,
  PROJECT_ACTIONS,
  SCREEN_PERMISSIONS,
  FEATURE_INGESTION,
  type ProjectAction,
  type ScreenPermission,
  type WorkspacePermission,
  type WorkspaceRoles,
} from '@fieldwork/access';
import type { auth, common } from '@fieldwork/proto';
import { problems, type Sql } from '@fieldwork/service-kit';
import { ProjectStore, type ProjectRow } from '../store/project.store.js';
import { ProjectUserStore, type ProjectUserRow } from '../store/project-user.store.js';
import { CollectionStore, type SurveyRow } from '../store/collection.store.js';
import { linkExpired } from '../domain/link.js';
import type { AuthClient, Ctx } from './deps.js';

export interface WorkspaceAccess {
  caller: common.Caller;
  organizationId: number;
  membership: auth.Membership;
  roles: WorkspaceRoles | undefined;
  can(permission: WorkspacePermission): boolean;
}

export interface ProjectAccess extends WorkspaceAccess {
  project: ProjectRow;
  /** A collection link's respondent: the link, checked to still work. */
  link?: SurveyRow;
  projectUser: ProjectUserRow | undefined;
  /** Workspace-level project management (or staff): every project permission. */
  manager: boolean;
  screens: Set<ScreenPermission>;
  actions: Set<ProjectAction>;
  /** The screens the roles open but a workspace feature that is off closes. */
  featureOff?: { feature: string; screens: ScreenPermission[] };
}

/**
 * The sites the caller may file responses under: every site of the project for those who manage its data (workspace
 * project managers, project owners and admins, data managers), else the caller's own site, then their read_sites.
 */
export function collectSites(a: ProjectAccess, projectSiteIds: readonly number[]): number[] {
  if (a.manager || a.actions.has('editCompleted')) {
    const own = a.projectUser?.site_id;
    return own && projectSiteIds.includes(own)
      ? [own, ...projectSiteIds.filter((s) => s !== own)]
      : [...projectSiteIds];
  }
  if (!a.actions.has('collect')) return [];
  const mine = [a.projectUser?.site_id ?? 0, ...(a.projectUser?.read_sites ?? [])];
  return [...new Set(mine)].filter((s) => projectSiteIds.includes(s));
}

export function callerOf(c: common.Caller | undefined): common.Caller {
  if (!c || c.user_id <= 0) throw problems.notAuthenticated();
  return c;
}

export class AccessResolver {
  private readonly projects: ProjectStore;
  private readonly users: ProjectUserStore;
  private readonly links: CollectionStore;

  constructor(
    sql: Sql,
    private readonly auth: AuthClient,
  ) {
    this.projects = new ProjectStore(sql);
    this.users = new ProjectUserStore(sql);
    this.links = new CollectionStore(sql);
  }

  /** The caller's place in a workspace; outsiders get "Invalid Organization Id!". */
  async workspace(callerMsg: common.Caller | undefined, organizationId: number, ctx: Ctx): Promise<WorkspaceAccess> {
    const caller = callerOf(callerMsg);
    if (organizationId <= 0) throw problems.invalidOrganizationId();
    if (caller.organization_id > 0 && caller.organization_id !== organizationId) throw problems.invalidOrganizationId();
    const membership = await this.auth.getMembership(
      { user_id: caller.user_id, organization_id: organizationId },
      { requestId: ctx.requestId },
    );
    const staff = caller.is_staff || caller.is_superuser;
    if (!membership.member && !staff) throw problems.invalidOrganizationId();
    const roles = membership.member ? membership : undefined;
    return {
      caller,
      organizationId,
      membership,
      roles,
      can: (permission) => canInWorkspace(caller, roles, permission, membership.flagged_features),
    };
  }

  /** The caller's place in a project; a project they cannot see is "Invalid Project Id!". */
  async project(callerMsg: common.Caller | undefined, projectId: number, ctx: Ctx): Promise<ProjectAccess> {
    const project = projectId > 0 ? await this.projects.byId(projectId) : undefined;
    // An anonymous respondent of a collection link may collect in that link's project, and nothing else, while the
    // link works: checked on every call (uploads included), not only when the link is opened.
    if (callerMsg && callerMsg.user_id === 0 && callerMsg.collect_project_id > 0) {
      if (!project || project.id !== callerMsg.collect_project_id) throw problems.invalidProjectId();
      const link =
        callerMsg.collect_survey_id > 0 ? await this.links.surveyById(callerMsg.collect_survey_id) : undefined;
      if (!link || link.project_id !== project.id || linkExpired(link, project.project_state))
        throw problems.linkExpired();
      return {
        link,
        caller: callerMsg,
        organizationId: project.organization_id,
        membership: {
          member: false,
          owner: false,
          user_admin: false,
          project_admin: false,
          billing_admin: false,
          flagged_features: [],
          is_staff: false,
          is_superuser: false,
        },
        roles: undefined,
        can: () => false,
        project,
        projectUser: undefined,
        manager: false,
        screens: new Set(),
        actions: new Set(['collect']),
      };
    }
    const caller = callerOf(callerMsg);
    if (!project) throw problems.invalidProjectId();
    let ws: WorkspaceAccess;
    try {
      ws = await this.workspace(caller, project.organization_id, ctx);
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === '404.2') throw problems.invalidProjectId();
      throw err;
    }
    const manager = ws.can('projects');
    const projectUser =
      ws.membership.member || caller.is_staff || caller.is_superuser
        ? await this.users.one(project.id, caller.user_id)
        : undefined;
    if (!manager && !projectUser) throw problems.invalidProjectId();
    const ingestion = ws.membership.flagged_features.includes(FEATURE_INGESTION);
    const screens = manager ? new Set(SCREEN_PERMISSIONS) : projectScreens(projectUser!);
    const featureOff =
      !ingestion && screens.has('projectLevelIngestion')
        ? { feature: FEATURE_INGESTION, screens: ['projectLevelIngestion' as const] }
        : undefined;
    if (!ingestion) screens.delete('projectLevelIngestion');
    const actions = new Set(
      PROJECT_ACTIONS.filter((a) =>
        canInProject(
          caller,
          { roles: ws.roles, flaggedFeatures: ws.membership.flagged_features },
          { roles: projectUser, read_sites: projectUser?.read_sites },
          a,
        ),
      ),
    );
    return { ...ws, project, projectUser, manager, screens, actions, ...(featureOff ? { featureOff } : {}) };
  }

  /** Refuses unless the caller holds `screen` in the project. */
  static require(access: ProjectAccess, ...screens: ScreenPermission[]): void {
    if (!screens.some((s) => access.screens.has(s))) throw problems.forbidden();
  }
}
