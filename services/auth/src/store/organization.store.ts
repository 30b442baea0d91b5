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
  invited_at: Date | null;
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

  async update(
    id: number,
    o: { name: string; description?: string; address?: string },
  ): Promise<OrganizationRow | undefined> {
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
      select m.id, m.organization_id, m.user_id, m.owner, m.user_admin, m.project_admin, m.billing_admin, m.is_active, m.invited_at,
             u.username, u.email, u.first_name, u.last_name
      from organization_users m join users u on u.id = m.user_id
      where m.organization_id = ${organizationId}
      order by m.id`;
  }

  /**
   * One page of a workspace's active members in membership order, with the total: those whose name, username or
   * email contains `search` (case-insensitive) when it is not empty.
   */
  async membersPage(
    organizationId: number,
    q: { search: string; limit: number; offset: number },
  ): Promise<{ rows: MemberRow[]; count: number }> {
    const sql = this.sql;
    const where = sql`m.organization_id = ${organizationId} and m.is_active ${this.matching(q.search)}`;
    const rows = await sql<(MemberRow & { total: string })[]>`
      select m.id, m.organization_id, m.user_id, m.owner, m.user_admin, m.project_admin, m.billing_admin, m.is_active, m.invited_at,
             u.username, u.email, u.first_name, u.last_name, count(*) over () as total
      from organization_users m join users u on u.id = m.user_id
      where ${where}
      order by m.id limit ${q.limit} offset ${q.offset}`;
    if (rows.length === 0 && q.offset > 0) {
      const [c] = await sql<{ n: string }[]>`
        select count(*) as n from organization_users m join users u on u.id = m.user_id where ${where}`;
      return { rows: [], count: Number(c!.n) };
    }
    return { rows: rows.map(({ total: _total, ...r }) => r), count: Number(rows[0]?.total ?? 0) };
  }

  /** The user ids of a workspace's active members matching `search` (all of them when empty). */
  async memberIds(organizationId: number, search: string): Promise<number[]> {
    const rows = await this.sql<{ user_id: number }[]>`
      select m.user_id from organization_users m join users u on u.id = m.user_id
      where m.organization_id = ${organizationId} and m.is_active ${this.matching(search)}`;
    return rows.map((r) => r.user_id);
  }

  /** Which of `userIds` are active members of the workspace. */
  async activeAmong(organizationId: number, userIds: number[]): Promise<Set<number>> {
    const rows = await this.sql<{ user_id: number }[]>`
      select user_id from organization_users
      where organization_id = ${organizationId} and is_active and user_id = any(${userIds}::bigint[])`;
    return new Set(rows.map((r) => r.user_id));
  }

  /** A search over a member's name, username and email (`%` and `_` taken literally). */
  private matching(search: string) {
    const s = search.trim().toLowerCase();
    if (s === '') return this.sql``;
    const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.sql`and (lower(u.username) like ${like} or lower(u.email) like ${like}
      or lower(u.first_name || ' ' || u.last_name) like ${like})`;
  }

  async member(organizationId: number, userId: number): Promise<MemberRow | undefined> {
    const [row] = await this.sql<MemberRow[]>`
      select m.id, m.organization_id, m.user_id, m.owner, m.user_admin, m.project_admin, m.billing_admin, m.is_active, m.invited_at,
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
    await this.sql`
      update organization_users set is_active = false, invited_at = null, invited_by = null
      where organization_id = ${organizationId} and user_id = ${userId}`;
  }

  /**
   * Invites an existing account: an inactive membership with the roles it will have once accepted (without roles, a
   * pending invitation keeps the ones it has). Answers undefined when the account is already an active member.
   */
  async invite(
    organizationId: number,
    userId: number,
    roles: MemberRoles | undefined,
    invitedBy: number,
  ): Promise<MemberRow | undefined> {
    const by = invitedBy > 0 ? invitedBy : null;
    const r = {
      owner: roles?.owner ?? null,
      user_admin: roles?.user_admin ?? null,
      project_admin: roles?.project_admin ?? null,
      billing_admin: roles?.billing_admin ?? null,
    };
    const rows = await this.sql`
      insert into organization_users (organization_id, user_id, owner, user_admin, project_admin, billing_admin, is_active, invited_at, invited_by)
      values (${organizationId}, ${userId}, coalesce(${r.owner}::boolean, false), coalesce(${r.user_admin}::boolean, false),
              coalesce(${r.project_admin}::boolean, false), coalesce(${r.billing_admin}::boolean, false), false, now(), ${by})
      on conflict (organization_id, user_id) do update set
        owner = coalesce(${r.owner}::boolean, case when organization_users.invited_at is null then false else organization_users.owner end),
        user_admin = coalesce(${r.user_admin}::boolean, case when organization_users.invited_at is null then false else organization_users.user_admin end),
        project_admin = coalesce(${r.project_admin}::boolean, case when organization_users.invited_at is null then false else organization_users.project_admin end),
        billing_admin = coalesce(${r.billing_admin}::boolean, case when organization_users.invited_at is null then false else organization_users.billing_admin end),
        invited_at = now(), invited_by = excluded.invited_by
      where not organization_users.is_active
      returning id`;
    return rows.length === 0 ? undefined : this.member(organizationId, userId);
  }

  /** The invitations `userId` has not answered, newest first. */
  async invitationsOf(
    userId: number,
  ): Promise<{ organization_id: number; organization_name: string; invited_at: Date; invited_by: string }[]> {
    return this.sql<{ organization_id: number; organization_name: string; invited_at: Date; invited_by: string }[]>`
      select o.id as organization_id, o.name as organization_name, m.invited_at,
             coalesce(nullif(trim(concat_ws(' ', i.first_name, i.last_name)), ''), i.username, '') as invited_by
      from organization_users m join organizations o on o.id = m.organization_id left join users i on i.id = m.invited_by
      where m.user_id = ${userId} and not m.is_active and m.invited_at is not null
      order by m.invited_at desc`;
  }

  /** Accepts (activates) or declines (forgets) a pending invitation; false when there is none. */
  async answerInvitation(organizationId: number, userId: number, accept: boolean): Promise<boolean> {
    const rows = await this.sql`
      update organization_users set is_active = ${accept}, invited_at = null, invited_by = null
      where organization_id = ${organizationId} and user_id = ${userId} and not is_active and invited_at is not null
      returning id`;
    return rows.length === 1;
  }

  /** Whether the account is an active member of any workspace but this one. */
  async belongsElsewhere(userId: number, organizationId: number): Promise<boolean> {
    const rows = await this.sql`
      select 1 from organization_users
      where user_id = ${userId} and organization_id <> ${organizationId} and is_active limit 1`;
    return rows.length === 1;
  }

  /** Makes the user an active plain member, or reactivates them; answers whether anything changed. */
  async ensureMember(organizationId: number, userId: number): Promise<void> {
    await this.sql`
      insert into organization_users (organization_id, user_id) values (${organizationId}, ${userId})
      on conflict (organization_id, user_id) do update set is_active = true`;
  }

  async setFeatures(organizationId: number, features: string[]): Promise<void> {
    await this
      .sql`update organizations set flagged_features = ${features}, time_updated = now() where id = ${organizationId}`;
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
