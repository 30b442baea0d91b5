// The workspace a caller asks about, and their membership in it. Unknown and foreign workspaces look the same:
// "Invalid Organization Id!".
import { canInWorkspace } from '@fieldwork/access';
import type { common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import type { MemberRow, OrganizationRow, OrganizationStore } from '../store/organization.store.js';

export async function visibleWorkspace(
  orgs: OrganizationStore,
  caller: common.Caller,
  id: number,
): Promise<{ org: OrganizationRow; member: MemberRow | undefined }> {
  const org = id > 0 ? await orgs.byId(id) : undefined;
  if (!org) throw problems.invalidOrganizationId();
  // An API key acts only in its own workspace.
  if (caller.organization_id > 0 && caller.organization_id !== org.id) throw problems.invalidOrganizationId();
  const member = await orgs.member(org.id, caller.user_id);
  const active = member?.is_active ? member : undefined;
  if (!active && !caller.is_staff && !caller.is_superuser) throw problems.invalidOrganizationId();
  return { org, member: active };
}

/**
 * The members a caller may see in a workspace's own answer (GET organization/{id}/, the login answer): every active
 * member for those who manage its users (user_access, user_create: the same who may list organization-users/) and
 * staff; anyone else sees only their own membership, never the others' emails and roles.
 */
export function visibleMembers(
  caller: common.Caller,
  org: OrganizationRow,
  member: MemberRow | undefined,
  members: MemberRow[],
): MemberRow[] {
  const active = members.filter((m) => m.is_active);
  const managesUsers = (['user_access', 'user_create'] as const).some((p) =>
    canInWorkspace(caller, member, p, org.flagged_features),
  );
  return managesUsers ? active : active.filter((m) => m.user_id === caller.user_id);
}
