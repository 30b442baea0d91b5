// All SQL of workspaces (organizations) and workspace users.
import type { Sql } from '@fieldwork/service-kit';

export interface OrganizationRow {
  id: number;
  name: string;
  description: string;
  address: string;
  flagged_features: string[];
  time_created: Date;
}

export interface MemberRow {
  id: number;
  organization_id: number;
  user_id: number;
  owner: boolean;
  user_admin: boolean;
  project_admin: boolean;
  billing_admin: boolean;
  is_active: boolean;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
}

export interface MemberRoles {
  owner: boolean;
  user_admin: boolean;
  project_admin: boolean;
  billing_admin: boolean;
}

export class OrganizationStore {
  constructor(private readonly sql: Sql) {}

  async create(o: { name: string; description: string; address: string }): Promise<OrganizationRow> {
    const [row] = await this.sql<OrganizationRow[]>`
      insert into organizations (name, description, address) values (${o.name}, ${o.description}, ${o.address})
      returning id, name, description, address, flagged_features, time_created`;
    return row!;
  }

  async byId(id: number): Promise<OrganizationRow | undefined> {
    const [row] = await this.sql<OrganizationRow[]>`
      select id, name, description, address, flagged_features, time_created from organizations where id = ${id}`;
    return row;
  }

  async byName(name: string): Promise<OrganizationRow | undefined> {
    const [row] = await this.sql<OrganizationRow[]>`
      select id, name, description, address, flagged_features, time_created from organizations where name = ${name}
      order by id limit 1`;
    return row;
  }

  /** The active workspaces `userId` belongs to, oldest membership first. */
  async ofUser(userId: number): Promise<OrganizationRow[]> {
    return this.sql<OrganizationRow[]>`
      select o.id, o.name, o.description, o.address, o.flagged_features, o.time_created
      from organizations o join organization_users m on m.organization_id = o.id
      where m.user_id = ${userId} and m.is_active
      order by m.id`;
  }

  async update(id: number, o: { name: string; description?: string; address?: string }): Promise<OrganizationRow | undefined> {
    const [row] = await this.sql<OrganizationRow[]>`
      update organizations set name = ${o.name},
        description = coalesce(${o.description ?? null}, description),
        address = coalesce(${o.address ?? null}, address),
        time_updated = now()
      where id = ${id}
      returning id, name, description, address, flagged_features, time_created`;
    return row;
  }

  async members(organizationId: number): Promise<MemberRow[]> {
    return this.sql<MemberRow[]>`
      select m.id, m.organization_id, m.user_id, m.owner, m.user_admin, m.project_admin, m.billing_admin, m.is_active,
             u.username, u.email, u.first_name, u.last_name
      from organization_users m join users u on u.id = m.user_id
      where m.organization_id = ${organizationId}
      order by m.id`;
  }

  async member(organizationId: number, userId: number): Promise<MemberRow | undefined> {
    const [row] = await this.sql<MemberRow[]>`
      select m.id, m.organization_id, m.user_id, m.owner, m.user_admin, m.project_admin, m.billing_admin, m.is_active,
             u.username, u.email, u.first_name, u.last_name
      from organization_users m join users u on u.id = m.user_id
      where m.organization_id = ${organizationId} and m.user_id = ${userId}`;
    return row;
  }

  /** Adds a member; answers undefined when the user already is one. */
  async addMember(organizationId: number, userId: number, roles: MemberRoles): Promise<MemberRow | undefined> {
    const rows = await this.sql`
      insert into organization_users (organization_id, user_id, owner, user_admin, project_admin, billing_admin)
      values (${organizationId}, ${userId}, ${roles.owner}, ${roles.user_admin}, ${roles.project_admin}, ${roles.billing_admin})
      on conflict (organization_id, user_id) do nothing
      returning id`;
    return rows.length === 0 ? undefined : this.member(organizationId, userId);
  }

  async updateMemberRoles(organizationId: number, userId: number, roles: Partial<MemberRoles>): Promise<void> {
    await this.sql`
      update organization_users set
        user_admin = coalesce(${roles.user_admin ?? null}, user_admin),
        project_admin = coalesce(${roles.project_admin ?? null}, project_admin),
        billing_admin = coalesce(${roles.billing_admin ?? null}, billing_admin)
      where organization_id = ${organizationId} and user_id = ${userId}`;
  }

  /** Removing a member deactivates the membership (their responses and history stay attributed). */
  async deactivateMember(organizationId: number, userId: number): Promise<void> {
    await this.sql`update organization_users set is_active = false where organization_id = ${organizationId} and user_id = ${userId}`;
  }

  /** Makes the user an active plain member, or reactivates them; answers whether anything changed. */
  async ensureMember(organizationId: number, userId: number): Promise<void> {
    await this.sql`
      insert into organization_users (organization_id, user_id) values (${organizationId}, ${userId})
      on conflict (organization_id, user_id) do update set is_active = true`;
  }

  async setFeatures(organizationId: number, features: string[]): Promise<void> {
    await this.sql`update organizations set flagged_features = ${features}, time_updated = now() where id = ${organizationId}`;
  }

  /** Workspaces with a member whose email has `domain`. */
  async byMemberEmailDomain(domain: string): Promise<{ id: number; name: string }[]> {
    return this.sql<{ id: number; name: string }[]>`
      select distinct o.id, o.name from organizations o
      join organization_users m on m.organization_id = o.id
      join users u on u.id = m.user_id
      where lower(split_part(u.email, '@', 2)) = ${domain}
      order by o.id limit 20`;
  }
}
