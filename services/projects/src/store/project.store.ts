// All SQL of projects.
import type { Sql } from '@fieldwork/service-kit';

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
  total_responses: number;
  last_response: Date | null;
  time_created: Date;
  time_updated: Date;
}

export class ProjectStore {
  constructor(private readonly sql: Sql) {}

  async create(p: {
    organization_id: number;
    name: string;
    description: string;
    frontend_color: string;
    frontend_icon: string;
    geotag: [number, number];
    folder_id: number | null;
    created_by: number;
  }): Promise<ProjectRow> {
    const [row] = await this.sql<ProjectRow[]>`
      insert into projects (organization_id, name, description, frontend_color, frontend_icon, geotag, folder_id, created_by)
      values (${p.organization_id}, ${p.name}, ${p.description}, ${p.frontend_color}, ${p.frontend_icon},
              ${p.geotag}, ${p.folder_id}, ${p.created_by})
      returning *`;
    return row!;
  }

  /** The workspace's projects that are not deleted, newest first. */
  async ofOrganization(organizationId: number): Promise<ProjectRow[]> {
    return this.sql<ProjectRow[]>`
      select * from projects where organization_id = ${organizationId} and project_state <> 'D'
      order by time_updated desc, id desc`;
  }
}
