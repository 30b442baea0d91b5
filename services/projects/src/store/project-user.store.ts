// All SQL of project users.
import type { Sql } from '@fieldwork/service-kit';
import type { ProjectRoles } from '@fieldwork/access';

export interface ProjectUserRow extends ProjectRoles {
  id: number;
  project_id: number;
  user_id: number;
  site_id: number | null;
  group_id: number | null;
  team_id: number | null;
  read_sites: number[];
}

export type ProjectUserPatch = Partial<
  Pick<ProjectUserRow, 'site_id' | 'group_id' | 'team_id' | 'read_sites'> & ProjectRoles
>;

export class ProjectUserStore {
  constructor(private readonly sql: Sql) {}

  async ofProject(projectId: number): Promise<ProjectUserRow[]> {
    return this.sql<ProjectUserRow[]>`select * from project_users where project_id = ${projectId} order by id`;
  }

  /**
   * One page of a project's users in id order, with the total: only `userIds` when given (the workspace's active
   * members matching a search, from auth), and the role filter (a role name, `guest` for none, '' for all).
   */
  async page(
    projectId: number,
    q: { userIds: number[] | undefined; role: string; limit: number; offset: number },
  ): Promise<{ rows: ProjectUserRow[]; count: number }> {
    const sql = this.sql;
    const only = q.userIds === undefined ? sql`` : sql`and user_id = any(${q.userIds}::bigint[])`;
    const role =
      q.role === ''
        ? sql``
        : q.role === 'guest'
          ? sql`and not (project_owner or project_admin or researcher or collector or data_manager or staff_admin)`
          : sql`and ${sql(q.role)}`;
    const rows = await sql<(ProjectUserRow & { total: string })[]>`
      select *, count(*) over () as total from project_users
      where project_id = ${projectId} ${only} ${role}
      order by id limit ${q.limit} offset ${q.offset}`;
    if (rows.length === 0 && q.offset > 0) {
      const [c] = await sql<{ n: string }[]>`
        select count(*) as n from project_users where project_id = ${projectId} ${only} ${role}`;
      return { rows: [], count: Number(c!.n) };
    }
    return { rows: rows.map(({ total: _total, ...r }) => r), count: Number(rows[0]?.total ?? 0) };
  }

  /** The first `limit` users of a project in id order, with how many it has. */
  async firstOf(projectId: number, limit: number): Promise<{ rows: ProjectUserRow[]; count: number }> {
    return this.page(projectId, { userIds: undefined, role: '', limit, offset: 0 });
  }

  async one(projectId: number, userId: number): Promise<ProjectUserRow | undefined> {
    const [row] = await this.sql<
      ProjectUserRow[]
    >`select * from project_users where project_id = ${projectId} and user_id = ${userId}`;
    return row;
  }

  /** The projects of a workspace that `userId` belongs to. */
  async projectIdsOf(userId: number, organizationId: number): Promise<number[]> {
    const rows = await this.sql<{ project_id: number }[]>`
      select pu.project_id from project_users pu join projects p on p.id = pu.project_id
      where pu.user_id = ${userId} and p.organization_id = ${organizationId}`;
    return rows.map((r) => r.project_id);
  }

  /** Whether the user owns or administers a project of the workspace (they may upload logos). */
  async managesAnyProject(userId: number, organizationId: number): Promise<boolean> {
    const rows = await this.sql`
      select 1 from project_users pu join projects p on p.id = pu.project_id
      where pu.user_id = ${userId} and p.organization_id = ${organizationId} and (pu.project_owner or pu.project_admin) limit 1`;
    return rows.length > 0;
  }

  /** Inserts the user, or updates the given columns when they already belong; answers whether it was new. */
  async upsert(
    projectId: number,
    userId: number,
    values: ProjectUserPatch,
  ): Promise<{ row: ProjectUserRow; created: boolean }> {
    const existing = await this.one(projectId, userId);
    if (!existing) {
      // Two adds of one user at once (a double click, a retried request): the second finds the first's row and
      // updates it, instead of failing on the unique key (it answered 500).
      const [row] = await this.sql<ProjectUserRow[]>`
        insert into project_users ${this.sql({ project_id: projectId, user_id: userId, ...values } as unknown as Record<string, never>)}
        on conflict (project_id, user_id) do nothing
        returning *`;
      if (row) return { row, created: true };
    }
    return { row: await this.update(projectId, userId, values), created: false };
  }

  async update(projectId: number, userId: number, values: ProjectUserPatch): Promise<ProjectUserRow> {
    const set = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length > 0) {
      await this
        .sql`update project_users set ${this.sql(set as Record<string, never>)} where project_id = ${projectId} and user_id = ${userId}`;
    }
    return (await this.one(projectId, userId))!;
  }

  async delete(projectId: number, userId: number): Promise<boolean> {
    const rows = await this
      .sql`delete from project_users where project_id = ${projectId} and user_id = ${userId} returning 1`;
    return rows.length === 1;
  }

  /** Drops a deleted site from every read_sites list of the project. */
  async forgetSite(projectId: number, siteId: number): Promise<void> {
    await this
      .sql`update project_users set read_sites = array_remove(read_sites, ${siteId}::bigint) where project_id = ${projectId}`;
  }
}
