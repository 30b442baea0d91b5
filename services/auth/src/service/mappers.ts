// Store rows to the messages of proto/auth.proto.
import type { auth } from '@fieldwork/proto';
import { displayName } from '../domain/accounts.js';
import type { MemberRow, OrganizationRow } from '../store/organization.store.js';
import type { UserRow } from '../store/user.store.js';

const iso = (d: Date | null): string => (d === null ? '' : d.toISOString());

export function toUser(row: UserRow, organizations: { id: number; name: string }[]): auth.User {
  return {
    id: row.id,
    name: displayName(row),
    first_name: row.first_name,
    last_name: row.last_name,
    username: row.username,
    email: row.email,
    groups: [],
    is_staff: row.is_staff,
    is_superuser: row.is_superuser,
    is_mobilemanager: row.is_mobilemanager,
    last_login: iso(row.last_login),
    time_created: iso(row.time_created),
    organizations: organizations.map((o) => ({ id: o.id, name: o.name })),
    current_organization:
      row.current_organization_id !== null && organizations.some((o) => o.id === row.current_organization_id)
        ? row.current_organization_id
        : (organizations[0]?.id ?? 0),
    settings: {
      agreed_terms: row.agreed_terms,
      agreed_privacy: row.agreed_privacy,
      account_activation_date: iso(row.time_created),
      lifetime_datapoints: row.lifetime_datapoints,
      lifetime_hours: row.lifetime_hours,
    },
  };
}

export function toMember(row: MemberRow): auth.OrganizationUser {
  return {
    id: row.id,
    user: row.user_id,
    name: displayName(row),
    email: row.email,
    owner: row.owner,
    user_admin: row.user_admin,
    project_admin: row.project_admin,
    billing_admin: row.billing_admin,
    organization: row.organization_id,
    is_active: row.is_active,
    orguser_id: row.id,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    invited: !row.is_active && row.invited_at !== null,
  };
}

export function toOrganization(row: OrganizationRow, members: MemberRow[] = []): auth.Organization {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    address: row.address,
    flagged_features: row.flagged_features,
    organizationuser_set: members.map(toMember),
    time_created: iso(row.time_created),
  };
}
