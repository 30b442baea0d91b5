// All SQL of sampler schemas.
import type { Sql } from '@fieldwork/service-kit';
import type { SchemaBody } from '@fieldwork/sampler';

export interface SchemaRow {
  id: number;
  project_id: number;
  name: string;
  level: number;
  version: string;
  primary_language: string;
  body: SchemaBody;
  time_updated: Date;
}

export class SchemaStore {
  constructor(private readonly sql: Sql) {}

  async create(s: { project_id: number; name: string; level: number; body: SchemaBody }): Promise<SchemaRow> {
    const [row] = await this.sql<SchemaRow[]>`
      insert into sampler_schemas (project_id, name, level, version, primary_language, body)
      values (${s.project_id}, ${s.name}, ${s.level}, ${s.body.version}, ${s.body.primary_language}, ${this.sql.json(s.body as never)})
      returning *`;
    return row!;
  }

  async ofProject(projectId: number): Promise<SchemaRow[]> {
    return this.sql<SchemaRow[]>`
      select * from sampler_schemas where project_id = ${projectId} and not deleted order by level, id`;
  }

  async markDeleted(projectId: number, ids: number[]): Promise<SchemaRow[]> {
    return this.sql<SchemaRow[]>`
      update sampler_schemas set deleted = true, time_updated = now()
      where project_id = ${projectId} and id = any(${ids}) and not deleted returning *`;
  }
}
