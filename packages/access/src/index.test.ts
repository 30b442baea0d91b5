import { describe, expect, it } from 'vitest';
import {
  canEditProjectUser,
  canEditWorkspaceUser,
  canInProject,
  canInWorkspace,
  projectScreens,
  projectUserKind,
  rolesGranting,
  workspacePermissions,
  type ProjectRoles,
  type WorkspaceRoles,
} from './index.js';

const none: WorkspaceRoles = { owner: false, user_admin: false, project_admin: false, billing_admin: false };
const noProjectRoles: ProjectRoles = { project_owner: false, project_admin: false, researcher: false, collector: false, data_manager: false };
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
