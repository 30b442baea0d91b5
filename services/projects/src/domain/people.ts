// What a project tells a caller about its other people. The project's user list (GET project/{id}/users/) is for those
// who manage its users (the admins or staff screen); every other answer that embeds people (the project itself) tells
// anyone else no more than what their own work needs, so a collector or a guest cannot read what the users list
// refuses them: others' emails, permissions and read_sites.
import { mayDo, type ScreenPermission } from '@fieldwork/access';
import type { projects } from '@fieldwork/proto';

/** Who may list the project's users, the same rule as the users list (ProjectUserService.list). */
export function mayListProjectUsers(screens: ReadonlySet<ScreenPermission>): boolean {
  return screens.has('admins') || screens.has('staff');
}

/**
 * A project user as `viewer` (the caller's user id and screens) may see them. Those who manage users, and everyone
 * for their own entry, see all of it. Anyone else sees another member's id, place (teams name their members already)
 * and name only, never a name made of their username, which is their email. Those who read every response (results,
 * data managers) also see who files responses (the collector, data manager and project owner roles): they filter
 * responses by collector, and each response already names its collector.
 */
export function visibleProjectUser(
  user: projects.ProjectUser,
  viewer: { userId: number; screens: ReadonlySet<ScreenPermission> },
  realName: string,
): projects.ProjectUser {
  if (mayListProjectUsers(viewer.screens) || user.user_id === viewer.userId) return user;
  const filers = mayDo(viewer.screens, 'readAllResponses');
  return {
    id: user.id,
    user: user.user,
    user_id: user.user_id,
    display_name: realName,
    email: '',
    username: '',
    org_id: user.org_id,
    site: user.site,
    group: user.group,
    team: user.team,
    read_sites: [],
    permissions: [],
    project_owner: filers && user.project_owner,
    project_admin: false,
    researcher: false,
    collector: filers && user.collector,
    data_manager: filers && user.data_manager,
    staff_admin: false,
  };
}

/** A person's own name (first and last), never their username or email. */
export function realName(brief: { first_name: string; last_name: string } | undefined): string {
  return brief ? `${brief.first_name} ${brief.last_name}`.trim() : '';
}
