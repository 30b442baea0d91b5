// All SQL of sites, groups and teams.
import type { Sql } from '@fieldwork/service-kit';

export interface SiteRow {
  id: number;
  project_id: number;
  name: string;
  geotag: number[] | null;
  frontend_icon: string;
  frontend_color: string;
  date_start: string | null;
  date_end: string | null;
  active_flag: boolean;
  is_default: boolean;
  /** Responses the site is expected to collect (tracking); 0: no target. */
  goal_count: number;
}

export interface GroupRow {
  id: number;
  project_id: number;
  site_id: number;
  name: string;
  is_default: boolean;
}

export interface TeamRow {
  id: number;
  project_id: number;
  group_id: number;
  name: string;
  is_default: boolean;
}

const SITE_COLS = `id, project_id, name, geotag, frontend_icon, frontend_color, to_char(date_start, 'YYYY-MM-DD') as date_start,
  to_char(date_end, 'YYYY-MM-DD') as date_end, active_flag, is_default, goal_count::int4 as goal_count`;

export type SitePatch = Partial<
  Pick<
    SiteRow,
    'name' | 'geotag' | 'frontend_icon' | 'frontend_color' | 'date_start' | 'date_end' | 'active_flag' | 'goal_count'
  >
>;

export class StructureStore {
  constructor(private readonly sql: Sql) {}

  async sites(projectId: number): Promise<SiteRow[]> {
    return this.sql<
      SiteRow[]
    >`select ${this.sql.unsafe(SITE_COLS)} from sites where project_id = ${projectId} order by id`;
  }

  async groups(projectId: number): Promise<GroupRow[]> {
    return this.sql<
      GroupRow[]
    >`select id, project_id, site_id, name, is_default from groups where project_id = ${projectId} order by id`;
  }

  async teams(projectId: number): Promise<TeamRow[]> {
    return this.sql<
      TeamRow[]
    >`select id, project_id, group_id, name, is_default from teams where project_id = ${projectId} order by id`;
  }

  async site(projectId: number, id: number): Promise<SiteRow | undefined> {
    const [row] = await this.sql<
      SiteRow[]
    >`select ${this.sql.unsafe(SITE_COLS)} from sites where project_id = ${projectId} and id = ${id}`;
    return row;
  }

  async group(projectId: number, id: number): Promise<GroupRow | undefined> {
    const [row] = await this.sql<
      GroupRow[]
    >`select id, project_id, site_id, name, is_default from groups where project_id = ${projectId} and id = ${id}`;
    return row;
  }

  async team(projectId: number, id: number): Promise<TeamRow | undefined> {
    const [row] = await this.sql<
      TeamRow[]
    >`select id, project_id, group_id, name, is_default from teams where project_id = ${projectId} and id = ${id}`;
    return row;
  }

  async createSite(
    projectId: number,
    s: Required<Omit<SitePatch, 'goal_count'>> & { is_default?: boolean; goal_count?: number },
  ): Promise<SiteRow> {
    const [row] = await this.sql<{ id: number }[]>`
      insert into sites (project_id, name, geotag, frontend_icon, frontend_color, date_start, date_end, active_flag, is_default, goal_count)
      values (${projectId}, ${s.name}, ${s.geotag}, ${s.frontend_icon}, ${s.frontend_color}, ${s.date_start}, ${s.date_end},
              ${s.active_flag}, ${s.is_default ?? false}, ${s.goal_count ?? 0})
      returning id`;
    return (await this.site(projectId, row!.id))!;
  }

  async updateSite(projectId: number, id: number, patch: SitePatch): Promise<SiteRow> {
    const entries = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(entries).length > 0) {
      await this
        .sql`update sites set ${this.sql(entries as Record<string, never>)} where project_id = ${projectId} and id = ${id}`;
    }
    return (await this.site(projectId, id))!;
  }

  async deleteSite(projectId: number, id: number): Promise<void> {
    await this.sql`delete from sites where project_id = ${projectId} and id = ${id}`;
  }

  async createGroup(projectId: number, siteId: number, name: string, isDefault = false): Promise<GroupRow> {
    const [row] = await this.sql<GroupRow[]>`
      insert into groups (project_id, site_id, name, is_default) values (${projectId}, ${siteId}, ${name}, ${isDefault})
      returning id, project_id, site_id, name, is_default`;
    return row!;
  }

  async updateGroup(projectId: number, id: number, patch: { name?: string; site_id?: number }): Promise<GroupRow> {
    const [row] = await this.sql<GroupRow[]>`
      update groups set name = coalesce(${patch.name ?? null}, name), site_id = coalesce(${patch.site_id ?? null}, site_id)
      where project_id = ${projectId} and id = ${id} returning id, project_id, site_id, name, is_default`;
    return row!;
  }

  async deleteGroup(projectId: number, id: number): Promise<void> {
    await this.sql`delete from groups where project_id = ${projectId} and id = ${id}`;
  }

  async createTeam(projectId: number, groupId: number, name: string, isDefault = false): Promise<TeamRow> {
    const [row] = await this.sql<TeamRow[]>`
      insert into teams (project_id, group_id, name, is_default) values (${projectId}, ${groupId}, ${name}, ${isDefault})
      returning id, project_id, group_id, name, is_default`;
    return row!;
  }

  async updateTeam(projectId: number, id: number, patch: { name?: string; group_id?: number }): Promise<TeamRow> {
    const [row] = await this.sql<TeamRow[]>`
      update teams set name = coalesce(${patch.name ?? null}, name), group_id = coalesce(${patch.group_id ?? null}, group_id)
      where project_id = ${projectId} and id = ${id} returning id, project_id, group_id, name, is_default`;
    return row!;
  }

  async deleteTeam(projectId: number, id: number): Promise<void> {
    await this.sql`delete from teams where project_id = ${projectId} and id = ${id}`;
  }

  /** Moving a group to another site moves its teams' members with it. */
  async syncMembersOfGroup(projectId: number, groupId: number, siteId: number): Promise<void> {
    await this
      .sql`update project_users set site_id = ${siteId} where project_id = ${projectId} and group_id = ${groupId}`;
  }

  /** Moving a team to another group moves its members with it. */
  async syncMembersOfTeam(projectId: number, teamId: number, groupId: number, siteId: number): Promise<void> {
    await this
      .sql`update project_users set group_id = ${groupId}, site_id = ${siteId} where project_id = ${projectId} and team_id = ${teamId}`;
  }
}
