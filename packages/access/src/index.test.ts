import { describe, expect, it } from 'vitest';
import {
  canEditProjectUser,
  canEditWorkspaceUser,
  canInProject,
  canInWorkspace,
  inScope,
  mayDo,
  PROJECT_ACTIONS,
  PROJECT_OPERATIONS,
  projectScreens,
  projectUserKind,
  resultsReach,
  resultsScope,
  responsesScope,
  mayGrantRole,
  rolesForPermissions,
  canSetWorkspaceFeatures,
  WORKSPACE_FEATURES,
  ROLE_TABLE,
  rolesGranting,
  SCREEN_PERMISSIONS,
  workspacePermissions,
  type ProjectRoles,
  type WorkspaceRoles,
  readSitesBeyondOwn,
} from './index.js';

const none: WorkspaceRoles = { owner: false, user_admin: false, project_admin: false, billing_admin: false };
const noProjectRoles: ProjectRoles = {
  project_owner: false,
  project_admin: false,
  researcher: false,
  collector: false,
  data_manager: false,
  staff_admin: false,
};
const plain = { is_staff: false, is_superuser: false };

describe('workspacePermissions', () => {
  it('gives the owner everything but ingestion unless the feature is flagged', () => {
    expect([...workspacePermissions({ ...none, owner: true })].sort()).toEqual(
      ['billing', 'org_details', 'projects', 'user_access', 'user_create'].sort(),
    );
    expect(workspacePermissions({ ...none, owner: true }, ['ingestion']).has('orgLevelIngestion')).toBe(true);
  });
  it('gives project_admin projects, user_access and orgLevelIngestion (with the feature)', () => {
    expect([...workspacePermissions({ ...none, project_admin: true }, ['ingestion'])].sort()).toEqual(
      ['orgLevelIngestion', 'projects', 'user_access'].sort(),
    );
  });
  it('gives user_admin user_create and billing_admin billing', () => {
    expect([...workspacePermissions({ ...none, user_admin: true })]).toEqual(['user_create']);
    expect([...workspacePermissions({ ...none, billing_admin: true })]).toEqual(['billing']);
  });
});

describe('canInWorkspace', () => {
  it('allows staff and superusers everything, even outside the workspace', () => {
    expect(canInWorkspace({ is_staff: true, is_superuser: false }, undefined, 'org_details')).toBe(true);
    expect(canInWorkspace({ is_staff: false, is_superuser: true }, undefined, 'billing')).toBe(true);
  });
  it('refuses a non-member and a member without the permission', () => {
    expect(canInWorkspace(plain, undefined, 'projects')).toBe(false);
    expect(canInWorkspace(plain, { ...none, billing_admin: true }, 'org_details')).toBe(false);
  });
});

describe('canEditWorkspaceUser', () => {
  it('allows a non-owner target only, and never oneself', () => {
    expect(canEditWorkspaceUser(1, { user: 2, owner: false })).toBe(true);
    expect(canEditWorkspaceUser(1, { user: 2, owner: true })).toBe(false);
    expect(canEditWorkspaceUser(1, { user: 1, owner: false })).toBe(false);
  });
});

describe('canInProject', () => {
  const ws = { roles: undefined };
  it('lets workspace project admins act in every project', () => {
    expect(canInProject(plain, { roles: { ...none, project_admin: true } }, { roles: undefined }, 'delete')).toBe(true);
  });
  it('maps project roles to actions', () => {
    const researcher = { roles: { ...noProjectRoles, researcher: true } };
    expect(canInProject(plain, ws, researcher, 'results')).toBe(true);
    expect(canInProject(plain, ws, researcher, 'collect')).toBe(false);
    const collector = { roles: { ...noProjectRoles, collector: true } };
    expect(['collect', 'edit', 'delete'].every((a) => canInProject(plain, ws, collector, a as 'edit'))).toBe(true);
    expect(canInProject(plain, ws, collector, 'changeStatus')).toBe(false);
    const dm = { roles: { ...noProjectRoles, data_manager: true } };
    expect(canInProject(plain, ws, dm, 'editCompleted')).toBe(true);
    expect(canInProject(plain, ws, dm, 'collect')).toBe(false);
  });
  it('opens results to a user with read_sites', () => {
    expect(canInProject(plain, ws, { roles: noProjectRoles, read_sites: [3] }, 'results')).toBe(true);
    expect(canInProject(plain, ws, { roles: noProjectRoles, read_sites: [3] }, 'edit')).toBe(false);
  });
});

describe('projectScreens and kinds', () => {
  it('follows the screen table', () => {
    expect(projectScreens({ ...noProjectRoles, project_admin: true })).toEqual(new Set(['home', 'parameters', 'form']));
    expect(projectScreens({ ...noProjectRoles, collector: true })).toEqual(new Set(['home', 'collector']));
    expect(projectScreens({ ...noProjectRoles, project_owner: true }).size).toBe(11);
  });
  it('names guests and collaborators', () => {
    expect(projectUserKind(noProjectRoles)).toBe('guest');
    expect(projectUserKind({ ...noProjectRoles, project_admin: true })).toBe('collaborator');
  });
  it('lets an admin edit others, anyone edit a collector, nobody themselves', () => {
    const admin = projectScreens({ ...noProjectRoles, project_owner: true });
    expect(canEditProjectUser(1, admin, { user_id: 2, roles: noProjectRoles })).toBe(true);
    expect(canEditProjectUser(1, new Set(), { user_id: 2, roles: { ...noProjectRoles, collector: true } })).toBe(true);
    expect(canEditProjectUser(1, new Set(), { user_id: 2, roles: noProjectRoles })).toBe(false);
    expect(canEditProjectUser(1, admin, { user_id: 1, roles: noProjectRoles })).toBe(false);
  });
});

describe('rolesGranting', () => {
  it('names the roles that open a screen (spec 000 §6 screen access)', () => {
    expect(rolesGranting('form')).toEqual(['project_owner', 'project_admin']);
    expect(rolesGranting('collector')).toEqual(['project_owner', 'collector']);
    expect(rolesGranting('staff')).toEqual(['project_owner', 'staff_admin']);
    expect(rolesGranting('projectLevelIngestion')).toEqual(['project_owner']);
  });
});

// Spec 000 §6, copied here by hand from the spec's text (not from the code), role by role:
//   "Project roles and actions: project_owner and project_admin everything; researcher results; collector collect,
//    edit, delete; data_manager editCompleted, changeStatus, edit, delete."
//   "Screen access: project owner everything; project admin home, parameters, form; staff admin home, staff;
//    researcher home, results; collector home, collector; data manager home, dataManager."
const SPEC_ACTIONS = ['results', 'collect', 'edit', 'delete', 'editCompleted', 'changeStatus'];
const SPEC_SCREENS = [
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
];
const SPEC_TABLE: Record<string, { actions: string[]; screens: string[] }> = {
  project_owner: { actions: SPEC_ACTIONS, screens: SPEC_SCREENS },
  project_admin: { actions: SPEC_ACTIONS, screens: ['home', 'parameters', 'form'] },
  researcher: { actions: ['results'], screens: ['home', 'results'] },
  collector: { actions: ['collect', 'edit', 'delete'], screens: ['home', 'collector'] },
  data_manager: { actions: ['editCompleted', 'changeStatus', 'edit', 'delete'], screens: ['home', 'dataManager'] },
  // "staff admin home, staff"; no action is named for it.
  staff_admin: { actions: [], screens: ['home', 'staff'] },
};

describe('the role table (spec 000 §6)', () => {
  const only = (role: string) => ({ ...noProjectRoles, [role]: true }) as ProjectRoles;
  const ws = { roles: undefined };

  it.each(Object.keys(SPEC_TABLE))('%s holds exactly the spec’s actions, one by one', (role) => {
    for (const action of SPEC_ACTIONS) {
      expect({ role, action, allowed: canInProject(plain, ws, { roles: only(role) }, action as 'edit') }).toEqual({
        role,
        action,
        allowed: SPEC_TABLE[role]!.actions.includes(action),
      });
    }
  });

  it.each(Object.keys(SPEC_TABLE))('%s opens exactly the spec’s screens, one by one', (role) => {
    const screens = projectScreens(only(role));
    for (const screen of SPEC_SCREENS) {
      expect({ role, screen, open: screens.has(screen as 'home') }).toEqual({
        role,
        screen,
        open: SPEC_TABLE[role]!.screens.includes(screen),
      });
    }
  });

  it('gives the staff admin home and staff, and no action', () => {
    expect([...projectScreens({ ...noProjectRoles, staff_admin: true })].sort()).toEqual(['home', 'staff']);
    expect(ROLE_TABLE.staff_admin.actions).toEqual([]);
  });

  it('knows no other role and no other permission', () => {
    expect(Object.keys(ROLE_TABLE).sort()).toEqual(Object.keys(SPEC_TABLE).sort());
    expect([...PROJECT_ACTIONS].sort()).toEqual([...SPEC_ACTIONS].sort());
    expect([...SCREEN_PERMISSIONS].sort()).toEqual([...SPEC_SCREENS].sort());
  });
});

describe('operations the spec does not name (least privilege)', () => {
  // Written out by hand: which roles may do each, as issue 18 item 10 decides from the table above.
  const WHO: Record<string, string[]> = {
    readResults: ['project_owner', 'researcher'],
    export: ['project_owner', 'researcher'],
    shareResults: ['project_owner', 'researcher'],
    readAllResponses: ['project_owner', 'researcher', 'data_manager'],
  };
  it.each(Object.keys(WHO))('%s: only the roles decided', (op) => {
    for (const role of Object.keys(SPEC_TABLE)) {
      const screens = projectScreens({ ...noProjectRoles, [role]: true } as ProjectRoles);
      expect({ op, role, may: mayDo(screens, op as 'export') }).toEqual({ op, role, may: WHO[op]!.includes(role) });
    }
    expect(Object.keys(PROJECT_OPERATIONS).sort()).toEqual(Object.keys(WHO).sort());
  });

  it('gives the data manager no results, exports or share links, but every response', () => {
    const dm = projectScreens({ ...noProjectRoles, data_manager: true });
    expect(resultsReach({ screens: dm, read_sites: [] })).toBe('none');
    expect(mayDo(dm, 'export') || mayDo(dm, 'shareResults')).toBe(false);
    expect(mayDo(dm, 'readAllResponses')).toBe(true);
  });

  it('opens a read_sites holder’s own sites’ results, and all of them to the results permission', () => {
    expect(resultsReach({ screens: ['home', 'collector'], read_sites: [4] })).toBe('sites');
    expect(resultsReach({ screens: ['home', 'results'], read_sites: [4] })).toBe('all');
    expect(resultsReach({ screens: ['home', 'parameters', 'form'], read_sites: [] })).toBe('none');
  });
});

describe('scopes of responses and results, role by role (spec 001 §6; written out by hand, not derived)', () => {
  // role → [reads every response, reads every result, reads results at all without read_sites]
  const expected: Record<keyof typeof ROLE_TABLE, [boolean, boolean, boolean]> = {
    project_owner: [true, true, true],
    project_admin: [false, false, false],
    staff_admin: [false, false, false],
    researcher: [true, true, true],
    collector: [false, false, false],
    data_manager: [true, false, false],
  };
  it.each(Object.entries(expected))('%s', (role, [allResponses, allResults, anyResults]) => {
    const grant = { screens: ROLE_TABLE[role as keyof typeof ROLE_TABLE].screens, read_sites: [] as number[] };
    expect(responsesScope(grant, 7)).toEqual({ all: allResponses, userId: 7, sites: [] });
    expect(resultsScope(grant, 7)?.all ?? false).toBe(allResults);
    expect(resultsScope(grant, 7) !== undefined).toBe(anyResults);
    // read_sites open those sites' responses and results to anyone.
    const withSites = { ...grant, read_sites: [3] };
    expect(resultsScope(withSites, 7)).toEqual({ all: allResults, userId: 7, sites: [3] });
    expect(responsesScope(withSites, 7).sites).toEqual([3]);
  });

  it("keeps in scope everything, or the caller's own responses and those of their sites", () => {
    const own = { all: false, userId: 7, sites: [3] };
    expect(inScope(own, { user_id: 7, site_id: 9 })).toBe(true);
    expect(inScope(own, { user_id: 8, site_id: 3 })).toBe(true);
    expect(inScope(own, { user_id: 8, site_id: 9 })).toBe(false);
    expect(inScope(own, { user_id: null, site_id: null })).toBe(false);
    expect(inScope({ ...own, all: true }, { user_id: null, site_id: null })).toBe(true);
  });
});

describe('rolesForPermissions (permissions read are written back with the same names)', () => {
  const only = (...roles: string[]) => ({
    ...noProjectRoles,
    ...Object.fromEntries(roles.map((r) => [r, true])),
  });
  // Each case: the screen names of spec 000 §6 as a GET lists them, and the roles they stand for (by hand).
  const cases: [string[], string[]][] = [
    [SPEC_SCREENS, ['project_owner']],
    [['home', 'parameters', 'form'], ['project_admin']],
    [['home', 'staff'], ['staff_admin']],
    [['home', 'results'], ['researcher']],
    [['home', 'collector'], ['collector']],
    [['home', 'dataManager'], ['data_manager']],
    [
      ['home', 'results', 'collector', 'staff'],
      ['researcher', 'collector', 'staff_admin'],
    ],
    [[], []],
  ];
  it.each(cases)('%j are the roles %j', (screens, roles) => {
    expect(rolesForPermissions(screens)).toEqual({ roles: only(...roles), unknown: [], unmatched: [] });
  });
  it('reads role names as their screens (the old body still works)', () => {
    expect(rolesForPermissions(['researcher', 'collector']).roles).toEqual(only('researcher', 'collector'));
    expect(rolesForPermissions(['staff_admin', 'guest']).roles).toEqual(only('staff_admin'));
    // A role name that is also a screen, alone: the older body meant the role (the authz matrix sends it so).
    expect(rolesForPermissions(['collector'])).toEqual({ roles: only('collector'), unknown: [], unmatched: [] });
    expect(rolesForPermissions(['collector', 'data_manager']).roles).toEqual(only('collector', 'data_manager'));
  });
  it('names what no set of roles gives exactly, and what is no name at all', () => {
    expect(rolesForPermissions(['home', 'canSetLive', 'results'])).toEqual({
      roles: only('researcher'),
      unknown: [],
      unmatched: ['canSetLive'],
    });
    expect(rolesForPermissions(['home']).unmatched).toEqual(['home']);
    expect(rolesForPermissions(['home', 'boss']).unknown).toEqual(['boss']);
  });
  it('keeps the current roles when they already give these screens (an owner who is also a researcher)', () => {
    // A project user row carries more than its roles: only the roles come back.
    const current = { ...only('project_owner', 'researcher'), id: 9 } as ProjectRoles;
    expect(rolesForPermissions(SPEC_SCREENS, current).roles).toEqual(only('project_owner', 'researcher'));
    expect(rolesForPermissions(['home', 'results'], current).roles).toEqual(only('researcher'));
  });
});

describe('mayGrantRole (a role one does not hold cannot be granted)', () => {
  it('lets the owner grant every role', () => {
    const owner = projectScreens(only('project_owner'));
    expect(Object.keys(SPEC_TABLE).every((r) => mayGrantRole(owner, r as 'collector'))).toBe(true);
  });
  it('lets an owner of a workspace without the ingestion feature grant the owner role', () => {
    const owner = projectScreens(only('project_owner'));
    owner.delete('projectLevelIngestion');
    expect(mayGrantRole(owner, 'project_owner')).toBe(true);
  });
  it('lets the staff admin grant staff admin and collector only', () => {
    const staff = projectScreens(only('staff_admin'));
    const granted = Object.keys(SPEC_TABLE).filter((r) => mayGrantRole(staff, r as 'collector'));
    expect(granted.sort()).toEqual(['collector', 'staff_admin']);
  });
  it('refuses a project admin the researcher and owner roles', () => {
    const admin = projectScreens(only('project_admin'));
    expect(mayGrantRole(admin, 'researcher')).toBe(false);
    expect(mayGrantRole(admin, 'project_owner')).toBe(false);
    expect(mayGrantRole(admin, 'project_admin')).toBe(true);
  });
  function only(role: string) {
    return { ...noProjectRoles, [role]: true } as ProjectRoles;
  }
});

describe('workspace features', () => {
  it('knows ingestion, set by staff and superusers only', () => {
    expect(WORKSPACE_FEATURES).toEqual(['ingestion']);
    expect(canSetWorkspaceFeatures(plain)).toBe(false);
    expect(canSetWorkspaceFeatures({ is_staff: true, is_superuser: false })).toBe(true);
    expect(canSetWorkspaceFeatures({ is_staff: false, is_superuser: true })).toBe(true);
  });
});

describe('readSitesBeyondOwn (issue 30 item 4: nobody gives access above their own)', () => {
  const staffAdmin = { screens: ['home', 'staff'], read_sites: [] as number[] };
  it('refuses a staff admin, who reads no results, every new site', () => {
    expect(readSitesBeyondOwn(staffAdmin, [], [1, 2, 3])).toEqual([1, 2, 3]);
  });
  it('lets the results permission give any site', () => {
    expect(readSitesBeyondOwn({ screens: ['home', 'results'], read_sites: [] }, [], [1, 2])).toEqual([]);
  });
  it('lets a read_sites holder give only its own sites', () => {
    expect(readSitesBeyondOwn({ screens: ['home', 'staff'], read_sites: [2] }, [], [1, 2])).toEqual([1]);
  });
  it('keeps the sites the target already holds and always lets sites be taken away', () => {
    expect(readSitesBeyondOwn(staffAdmin, [4, 5], [4])).toEqual([]);
    expect(readSitesBeyondOwn(staffAdmin, [4], [4, 4])).toEqual([]);
  });
});
