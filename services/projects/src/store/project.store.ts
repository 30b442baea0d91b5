// All SQL of projects and folders.
import type { Sql } from '@fieldwork/service-kit';
import type { Level, TrendOptions } from '../domain/project.js';

export interface ProjectRow {
  id: number;
  organization_id: number;
  name: string;
  description: string;
  project_state: string;
  project_type: string;
  frontend_color: string;
  frontend_icon: string;
  geotag: number[] | null;
  folder_id: number | null;
  created_by: number;
  logo: string;
  is_hierarchical: boolean;
  is_entity: boolean;
  project_hierarchy: Level[];
  project_period: string;
  timing_column: string;
  aggregator: string;
  trend_series_options: TrendOptions | null;
  date_end: string | null;
  goal_count: number;
  current_collection_round_start: Date | null;
  reference_ids: number[];
  total_responses: number;
  last_response: Date | null;
  time_created: Date;
  time_updated: Date;
}

export interface NewProject {
  organization_id: number;
  name: string;
  description: string;
  frontend_color: string;
  frontend_icon: string;
  geotag: [number, number];
  folder_id: number | null;
  logo: string;
  created_by: number;
}

export interface FolderRow {
  id: number;
  organization_id: number;
  name: string;
  parent_id: number | null;
}

/** Columns an update may set. */
export type ProjectPatch = Partial<
  Pick<
    ProjectRow,
    | 'name'
    | 'description'
    | 'frontend_color'
    | 'frontend_icon'
    | 'geotag'
    | 'folder_id'
    | 'logo'
    | 'is_entity'
    | 'project_state'
    | 'project_type'
    | 'project_period'
    | 'timing_column'
    | 'aggregator'
    | 'trend_series_options'
    | 'is_hierarchical'
    | 'project_hierarchy'
    | 'date_end'
    | 'goal_count'
    | 'current_collection_round_start'
    | 'reference_ids'
  >
>;

const DATE_COLS = "to_char(date_end, 'YYYY-MM-DD') as date_end";

export class ProjectStore {
  constructor(private readonly sql: Sql) {}

  async create(p: NewProject): Promise<ProjectRow> {
    const [row] = await this.sql<{ id: number }[]>`
      insert into projects (organization_id, name, description, frontend_color, frontend_icon, geotag, folder_id, logo, created_by)
      values (${p.organization_id}, ${p.name}, ${p.description}, ${p.frontend_color}, ${p.frontend_icon}, ${p.geotag},
              ${p.folder_id}, ${p.logo}, ${p.created_by})
      returning id`;
    return (await this.byId(row!.id))!;
  }

  async byId(id: number): Promise<ProjectRow | undefined> {
    const [row] = await this.sql<ProjectRow[]>`select *, ${this.sql.unsafe(DATE_COLS)} from projects where id = ${id}`;
    return row;
  }

  /** The workspace's projects that are not deleted, newest first; all of them or only `ids`. */
  async ofOrganization(organizationId: number, ids?: number[]): Promise<ProjectRow[]> {
    return this.sql<ProjectRow[]>`
      select *, ${this.sql.unsafe(DATE_COLS)} from projects
      where organization_id = ${organizationId} and project_state <> 'D'
        ${ids ? this.sql`and id = any(${ids})` : this.sql``}
      order by time_updated desc, id desc`;
  }

  async update(id: number, patch: ProjectPatch): Promise<ProjectRow> {
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
    if (entries.length > 0) {
      const values = Object.fromEntries(
        entries.map(([k, v]) => [
          k,
          (k === 'project_hierarchy' || k === 'trend_series_options') && v !== null ? this.sql.json(v as never) : v,
        ]),
      );
      await this
        .sql`update projects set ${this.sql(values as Record<string, never>)}, time_updated = now() where id = ${id}`;
    }
    return (await this.byId(id))!;
  }

  async delete(id: number): Promise<void> {
    await this.sql`delete from projects where id = ${id}`;
  }

  // Folders.

  async folders(organizationId: number): Promise<FolderRow[]> {
    return this.sql<
      FolderRow[]
    >`select id, organization_id, name, parent_id from folders where organization_id = ${organizationId} order by name, id`;
  }

  async folder(organizationId: number, id: number): Promise<FolderRow | undefined> {
    const [row] = await this.sql<FolderRow[]>`
      select id, organization_id, name, parent_id from folders where organization_id = ${organizationId} and id = ${id}`;
    return row;
  }

  async createFolder(organizationId: number, name: string, parentId: number | null): Promise<FolderRow> {
    const [row] = await this.sql<FolderRow[]>`
      insert into folders (organization_id, name, parent_id) values (${organizationId}, ${name}, ${parentId})
      returning id, organization_id, name, parent_id`;
    return row!;
  }

  async updateFolder(id: number, patch: { name?: string; parent_id?: number | null }): Promise<FolderRow> {
    const [row] = await this.sql<FolderRow[]>`
      update folders set
        name = coalesce(${patch.name ?? null}, name),
        parent_id = ${patch.parent_id === undefined ? this.sql`parent_id` : patch.parent_id}
      where id = ${id} returning id, organization_id, name, parent_id`;
    return row!;
  }

  /** Deletes a folder; what it held moves up to its parent. */
  async deleteFolder(folder: FolderRow): Promise<void> {
    await this.sql`update folders set parent_id = ${folder.parent_id} where parent_id = ${folder.id}`;
    await this.sql`update projects set folder_id = ${folder.parent_id} where folder_id = ${folder.id}`;
    await this.sql`delete from folders where id = ${folder.id}`;
  }
}
