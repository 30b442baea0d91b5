// All SQL of advanced results.
import type { Sql } from '@fieldwork/service-kit';

export interface AdvancedResultRow {
  id: number;
  project_id: number;
  name: string;
  description: string;
  threshold_value_upper: number | null;
  threshold_value_lower: number | null;
  formula: string;
  editor_state: unknown;
  deleted: boolean;
  show_on_project_summary: boolean;
  show_on_site_summary: boolean;
  display_type: string;
  edit_mode: boolean;
  created_by: number;
  time_created: Date;
  time_updated: Date;
}

export type AdvancedResultFields = Pick<
  AdvancedResultRow,
  | 'name'
  | 'description'
  | 'threshold_value_upper'
  | 'threshold_value_lower'
  | 'formula'
  | 'editor_state'
  | 'show_on_project_summary'
  | 'show_on_site_summary'
  | 'display_type'
  | 'edit_mode'
>;

export class AdvancedResultStore {
  constructor(private readonly sql: Sql) {}

  list(projectId: number): Promise<AdvancedResultRow[]> {
    return this.sql<
      AdvancedResultRow[]
    >`select * from advanced_results where project_id = ${projectId} and not deleted order by id`;
  }

  async create(projectId: number, by: number, f: AdvancedResultFields): Promise<AdvancedResultRow> {
    const [row] = await this.sql<AdvancedResultRow[]>`
      insert into advanced_results ${this.sql({ ...f, editor_state: this.sql.json(f.editor_state as never), project_id: projectId, created_by: by })} returning *`;
    return row!;
  }

  async update(projectId: number, id: number, f: AdvancedResultFields): Promise<AdvancedResultRow | undefined> {
    const [row] = await this.sql<AdvancedResultRow[]>`
      update advanced_results set ${this.sql({ ...f, editor_state: this.sql.json(f.editor_state as never) })}, time_updated = now()
      where project_id = ${projectId} and id = ${id} and not deleted returning *`;
    return row;
  }

  /** Marks it deleted (spec 001 §3: a deleted flag); false when there was none. */
  async delete(projectId: number, id: number): Promise<boolean> {
    const rows = await this
      .sql`update advanced_results set deleted = true, time_updated = now() where project_id = ${projectId} and id = ${id} and not deleted returning id`;
    return rows.length > 0;
  }
}
