// Roles and permissions (spec 000 §6, spec 001 §6). Pure: the same checks run on the server and in the browser,
// but only the server's answer counts.

/** Staff and superusers are allowed everything. */
export interface Subject {
  is_staff: boolean;
  is_superuser: boolean;
}

/** The workspace-level role flags of a workspace user. */
export interface WorkspaceRoles {
  owner: boolean;
  user_admin: boolean;
  project_admin: boolean;
  billing_admin: boolean;
}

export const WORKSPACE_PERMISSIONS = [
  'org_details',
  'projects',
  'user_access',
  'user_create',
  'billing',
  'orgLevelIngestion',
] as const;
export type WorkspacePermission = (typeof WORKSPACE_PERMISSIONS)[number];

/** Workspace features that switch permissions on. */
export const FEATURE_INGESTION = 'ingestion';

const WORKSPACE_ACCESS: Record<keyof WorkspaceRoles, readonly WorkspacePermission[]> = {
  owner: WORKSPACE_PERMISSIONS,
  project_admin: ['projects', 'user_access', 'orgLevelIngestion'],
  user_admin: ['user_create'],
  billing_admin: ['billing'],
};

/** The workspace permissions a workspace user holds; orgLevelIngestion only when the workspace has ingestion. */
export function workspacePermissions(
  roles: WorkspaceRoles,
  flaggedFeatures: readonly string[] = [],
): Set<WorkspacePermission> {
  const granted = new Set<WorkspacePermission>();
  for (const role of Object.keys(WORKSPACE_ACCESS) as (keyof WorkspaceRoles)[]) {
    if (roles[role]) for (const p of WORKSPACE_ACCESS[role]) granted.add(p);
  }
  if (!flaggedFeatures.includes(FEATURE_INGESTION)) granted.delete('orgLevelIngestion');
  return granted;
}

/** May `subject`, with `roles` in a workspace (undefined when not a member), do `permission` there? */
export function canInWorkspace(
  subject: Subject,
  roles: WorkspaceRoles | undefined,
  permission: WorkspacePermission,
  flaggedFeatures: readonly string[] = [],
): boolean {
  if (subject.is_staff || subject.is_superuser) return true;
  return roles !== undefined && workspacePermissions(roles, flaggedFeatures).has(permission);
}

/** A workspace user may be edited only when the target is not an owner, and nobody acts on themselves. */
export function canEditWorkspaceUser(actorUserId: number, target: { user: number; owner: boolean }): boolean {
  return target.user !== actorUserId && !target.owner;
}

// Project roles (spec 000 §6, spec 001 §6).

export const PROJECT_ROLES = ['project_owner', 'project_admin', 'researcher', 'collector', 'data_manager'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const PROJECT_ACTIONS = ['results', 'collect', 'edit', 'delete', 'editCompleted', 'changeStatus'] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

export type ProjectRoles = Record<ProjectRole, boolean>;

export const SCREEN_PERMISSIONS = [
  'home',
  'canSetLive',
  'sites',
  'parameters',
  'admins',
  'staff',
  'form',
  'results',
  'collector',
  'dataManager',
  'projectLevelIngestion',
] as const;
export type ScreenPermission = (typeof SCREEN_PERMISSIONS)[number];

/**
 * THE table of spec 000 §6 (and 001 §6), role by role: the actions ("Project roles and actions") and the screens
 * ("Screen access") each project role holds. Every role check of the services, the gateway and the web derives from
 * it (through canInProject, projectScreens and PROJECT_OPERATIONS below); nothing else names a role's rights.
 */
export const ROLE_TABLE: Readonly<
  Record<ProjectRole | 'staff_admin', { actions: readonly ProjectAction[]; screens: readonly ScreenPermission[] }>
> = {
  project_owner: { actions: PROJECT_ACTIONS, screens: SCREEN_PERMISSIONS },
  project_admin: { actions: PROJECT_ACTIONS, screens: ['home', 'parameters', 'form'] },
  // The spec gives the staff admin screens only, no actions: none (least privilege where it is silent).
  staff_admin: { actions: [], screens: ['home', 'staff'] },
  researcher: { actions: ['results'], screens: ['home', 'results'] },
  collector: { actions: ['collect', 'edit', 'delete'], screens: ['home', 'collector'] },
  data_manager: { actions: ['editCompleted', 'changeStatus', 'edit', 'delete'], screens: ['home', 'dataManager'] },
};

/**
 * What routes do that the spec's table does not name as such, and the screen permissions of the table that grant
 * each (any one of them). Decided here once; the services and the web ask `mayDo`.
 */
export const PROJECT_OPERATIONS = {
  // Spec 001 §6: "Results access needs the results permission" (the screen; read_sites open their sites' results,
  // see resultsReach). Project admins hold the results action but not the screen: least privilege, no results.
  readResults: ['results'],
  // Silent in the spec: an export is every answer of the project, so it needs what reading all results needs.
  export: ['results'],
  // Silent: a share link publishes an item's results without a login: the results permission (not read_sites alone).
  shareResults: ['results'],
  // Silent: managing others' responses (editCompleted, changeStatus: the dataManager screen) needs reading them, and
  // results readers read the raw responses behind the results. Everyone else reads their own and their read_sites'.
  readAllResponses: ['results', 'dataManager'],
} as const satisfies Record<string, readonly ScreenPermission[]>;
export type ProjectOperation = keyof typeof PROJECT_OPERATIONS;

/** May a caller holding `screens` in a project do `operation` (PROJECT_OPERATIONS)? */
export function mayDo(screens: Iterable<string>, operation: ProjectOperation): boolean {
  const held = new Set(screens);
  return PROJECT_OPERATIONS[operation].some((s) => held.has(s));
}

/**
 * How much of a project's results a caller reads: all (the results permission), those of their own responses and
 * their read_sites (spec 001 §6: "A user with read_sites may also see results"), or none.
 */
export function resultsReach(grant: {
  screens: Iterable<string>;
  read_sites: readonly number[];
}): 'all' | 'sites' | 'none' {
  if (mayDo(grant.screens, 'readResults')) return 'all';
  return grant.read_sites.length > 0 ? 'sites' : 'none';
}

/**
 * What of a project's responses a caller may see: everything, or their own and those filed under their read_sites
 * (spec 001 §6). The responses service filters rows with it, the results service turns it into SQL.
 */
export interface Scope {
  all: boolean;
  userId: number;
  sites: number[];
}

/** The responses a caller reads: all of them with readAllResponses, else their own and their read_sites'. */
export function responsesScope(
  grant: { screens: Iterable<string>; read_sites: readonly number[] },
  userId: number,
): Scope {
  return { all: mayDo(grant.screens, 'readAllResponses'), userId, sites: [...grant.read_sites] };
}

/** The results a caller reads (resultsReach): undefined when none. */
export function resultsScope(
  grant: { screens: Iterable<string>; read_sites: readonly number[] },
  userId: number,
): Scope | undefined {
  const reach = resultsReach(grant);
  return reach === 'none' ? undefined : { all: reach === 'all', userId, sites: [...grant.read_sites] };
}

/** Whether a response (its collector and site) is in `scope`. */
export function inScope(scope: Scope, response: { user_id: number | null; site_id: number | null }): boolean {
  return (
    scope.all ||
    response.user_id === scope.userId ||
    (response.site_id !== null && scope.sites.includes(response.site_id))
  );
}

/** The roles that open `screen` (with the staff admin role of spec 000 §6), for a screen to say what it needs. */
export function rolesGranting(screen: ScreenPermission): (ProjectRole | 'staff_admin')[] {
  return (Object.keys(ROLE_TABLE) as (ProjectRole | 'staff_admin')[]).filter((r) =>
    ROLE_TABLE[r].screens.includes(screen),
  );
}

/** A project user with no role is a guest; one with project_admin is a collaborator. */
export function projectUserKind(roles: ProjectRoles): 'owner' | 'collaborator' | 'guest' | 'member' {
  if (roles.project_owner) return 'owner';
  if (roles.project_admin) return 'collaborator';
  return PROJECT_ROLES.some((r) => roles[r]) ? 'member' : 'guest';
}

/**
 * May the caller do `action` in a project? Workspace-level roles of the logged-in workspace are checked first
 * (workspace permissions imply project permissions: `projects` grants every project action); then project roles.
 * Results are also open to a project user with read_sites.
 */
export function canInProject(
  subject: Subject,
  workspace: { roles: WorkspaceRoles | undefined; flaggedFeatures?: readonly string[] },
  project: { roles: ProjectRoles | undefined; read_sites?: readonly number[] },
  action: ProjectAction,
): boolean {
  if (canInWorkspace(subject, workspace.roles, 'projects', workspace.flaggedFeatures)) return true;
  const roles = project.roles;
  if (roles === undefined) return false;
  if (PROJECT_ROLES.some((r) => roles[r] && ROLE_TABLE[r].actions.includes(action))) return true;
  return action === 'results' && (project.read_sites?.length ?? 0) > 0;
}

/** The screens a project user may open. */
export function projectScreens(roles: ProjectRoles, staffAdmin = false): Set<ScreenPermission> {
  const screens = new Set<ScreenPermission>();
  for (const r of PROJECT_ROLES) if (roles[r]) for (const s of ROLE_TABLE[r].screens) screens.add(s);
  if (staffAdmin) for (const s of ROLE_TABLE.staff_admin.screens) screens.add(s);
  return screens;
}

/** Editing a project user needs the admins screen, or the target is a collector; nobody acts on themselves. */
export function canEditProjectUser(
  actorUserId: number,
  actorScreens: ReadonlySet<ScreenPermission>,
  target: { user_id: number; roles: ProjectRoles },
): boolean {
  if (target.user_id === actorUserId) return false;
  return actorScreens.has('admins') || target.roles.collector;
}
