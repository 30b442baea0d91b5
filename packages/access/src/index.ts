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

/**
 * The workspace feature flags a workspace may have (spec 000 §3 flagged_features, "includes ingestion"; §6
 * "Workspace feature flags enable features"), each with what it turns on. Only staff and superusers set them (§6:
 * "allowed everything"; no workspace role is given them).
 */
export const WORKSPACE_FEATURES = [FEATURE_INGESTION] as const;
export type WorkspaceFeature = (typeof WORKSPACE_FEATURES)[number];

/** Who may change a workspace's feature flags: staff and superusers only. */
export function canSetWorkspaceFeatures(subject: Subject): boolean {
  return subject.is_staff || subject.is_superuser;
}

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

// staff_admin is the staff admin of spec 000 §6 "Screen access" (screens home and staff: the people who manage a
// project's collectors, its field staff); the spec names no action for it.
export const PROJECT_ROLES = [
  'project_owner',
  'project_admin',
  'researcher',
  'collector',
  'data_manager',
  'staff_admin',
] as const;
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
  Record<ProjectRole, { actions: readonly ProjectAction[]; screens: readonly ScreenPermission[] }>
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
export function rolesGranting(screen: ScreenPermission): ProjectRole[] {
  return PROJECT_ROLES.filter((r) => ROLE_TABLE[r].screens.includes(screen));
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
export function projectScreens(roles: ProjectRoles): Set<ScreenPermission> {
  const screens = new Set<ScreenPermission>();
  for (const r of PROJECT_ROLES) if (roles[r]) for (const s of ROLE_TABLE[r].screens) screens.add(s);
  return screens;
}

/**
 * The roles whose screens are exactly `permissions` (spec 000 §6: "Project role permissions named: home, canSetLive,
 * ..."), so that a project user's `permissions` as read can be written back. Role names are accepted too (each stands
 * for its screens; `collector` is both). The fewest roles are chosen (project_owner alone covers everything); when the
 * user's current roles already give exactly these screens, they are kept as they are. `unmatched` names what no
 * set of roles gives exactly (a screen only the owner opens without the rest, home alone) and `unknown` what is
 * neither a screen nor a role. No permissions: no role (a guest).
 */
export function rolesForPermissions(
  names: readonly string[],
  current?: ProjectRoles,
): { roles: ProjectRoles; unknown: string[]; unmatched: ScreenPermission[] } {
  // A name may be both a screen and a role (collector, staff…): read as screens first, as GET lists them; a list of
  // role names only whose screens no roles give exactly (['collector']: the collector role is home + collector) is
  // the older body of role names, read as such.
  const read = (rolesFirst: boolean) => {
    const wanted = new Set<ScreenPermission>();
    const unknown: string[] = [];
    for (const raw of names) {
      const name = raw.trim();
      if (name === '' || name === 'guest') continue;
      const isRole = (PROJECT_ROLES as readonly string[]).includes(name);
      if (rolesFirst && isRole) for (const s of ROLE_TABLE[name as ProjectRole].screens) wanted.add(s);
      else if ((SCREEN_PERMISSIONS as readonly string[]).includes(name)) wanted.add(name as ScreenPermission);
      else if (isRole) for (const s of ROLE_TABLE[name as ProjectRole].screens) wanted.add(s);
      else unknown.push(name);
    }
    return { wanted, unknown };
  };
  const asScreens = read(false);
  const allRoles = names.every((n) => ['', 'guest', ...PROJECT_ROLES].includes(n.trim()));
  const { wanted, unknown } = allRoles && cover(asScreens.wanted).unmatched.length > 0 ? read(true) : asScreens;
  const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
  if (current && same(projectScreens(current), wanted))
    return {
      roles: Object.fromEntries(PROJECT_ROLES.map((r) => [r, current[r] === true])) as ProjectRoles,
      unknown,
      unmatched: [],
    };
  const { roles, unmatched } = cover(wanted);
  return { roles, unknown, unmatched };
}

/** The fewest roles, widest first, whose screens are all wanted and together cover them; what stays uncovered. */
function cover(wanted: ReadonlySet<ScreenPermission>): { roles: ProjectRoles; unmatched: ScreenPermission[] } {
  const roles = Object.fromEntries(PROJECT_ROLES.map((r) => [r, false])) as ProjectRoles;
  const covered = new Set<ScreenPermission>();
  // Widest roles first: a role is taken when all its screens are wanted and it adds one not yet covered.
  const bySize = [...PROJECT_ROLES].sort((a, b) => ROLE_TABLE[b].screens.length - ROLE_TABLE[a].screens.length);
  for (const r of bySize) {
    const screens = ROLE_TABLE[r].screens;
    if (screens.every((s) => wanted.has(s)) && screens.some((s) => !covered.has(s))) {
      roles[r] = true;
      for (const s of screens) covered.add(s);
    }
  }
  return { roles, unmatched: [...wanted].filter((s) => !covered.has(s)) };
}

/**
 * May a caller holding `screens` grant `role` to someone? Only a role one holds (issue 19: "granting a role one does
 * not hold" is refused): every screen of the role must be the caller's. The collector role is also the staff admin's
 * to give, since the staff screen is the management of a project's collectors (spec 000 §6: editing a project user
 * needs admins, or the target is a collector).
 */
export function mayGrantRole(screens: ReadonlySet<ScreenPermission>, role: ProjectRole): boolean {
  if (role === 'collector' && screens.has('staff')) return true;
  // projectLevelIngestion is held only while the workspace has the ingestion feature: a feature switched off does not
  // make an owner hold the owner role any less.
  return ROLE_TABLE[role].screens.every((s) => s === 'projectLevelIngestion' || screens.has(s));
}

/**
 * The read_sites a caller may not give (issue 30 item 4: nobody gives access above their own). Sites the target
 * already holds may stay and any may be taken away; a new one needs the caller to read that site's results: every
 * site with the results permission, else only the caller's own read_sites.
 */
export function readSitesBeyondOwn(
  grantor: { screens: Iterable<string>; read_sites: readonly number[] },
  held: readonly number[],
  asked: readonly number[],
): number[] {
  if (resultsReach(grantor) === 'all') return [];
  const own = new Set(grantor.read_sites);
  const had = new Set(held);
  return [...new Set(asked)].filter((site) => !had.has(site) && !own.has(site));
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

/**
 * The versions of the terms of service and the privacy policy a user must have accepted to use the app (spec 000 §9
 * "Terms of service version 1.1; privacy policy version 1.0."): one place for the auth service, the gateway and the
 * web app's terms gate.
 */
export const TERMS_VERSION = '1.1';
export const PRIVACY_VERSION = '1.0';
