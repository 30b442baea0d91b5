// The workspace a caller asks about, and their membership in it. Unknown and foreign workspaces look the same:
// "Invalid Organization Id!".
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
