// Project roles as names (bulk lists, the permissions call) and the rows of a bulk user list.
import { PROJECT_ROLES, type ProjectRole, type ProjectRoles } from '@fieldwork/access';

export const NO_ROLES: ProjectRoles = {
  project_owner: false,
  project_admin: false,
  researcher: false,
  collector: false,
  data_manager: false,
  staff_admin: false,
};

/** Role names to flags; `guest` (or nothing) is no role. Unknown names are returned separately. */
export function rolesFromNames(names: string[]): { roles: ProjectRoles; unknown: string[] } {
  const roles = { ...NO_ROLES };
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    if (name === '' || name === 'guest') continue;
    if ((PROJECT_ROLES as readonly string[]).includes(name)) roles[name as ProjectRole] = true;
    else unknown.push(raw.trim());
  }
  return { roles, unknown };
}

export function roleNames(roles: ProjectRoles): ProjectRole[] {
  return PROJECT_ROLES.filter((r) => roles[r]);
}

/** The header of the bulk user template, bulk_user_template.csv. */
export const BULK_TEMPLATE_HEADER = ['email', 'first_name', 'last_name', 'role', 'site', 'group', 'team'] as const;
export const BULK_MAX_ROWS = 5000;
