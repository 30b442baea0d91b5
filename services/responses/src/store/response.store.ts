// All SQL of responses.
import type { Sql } from '@fieldwork/service-kit';

export interface CountRow {
  key: number | null;
  total: number;
  complete: number;
  last_response: Date | null;
  collectors: number;
}

export class ResponseStore {
  constructor(private readonly sql: Sql) {}

  /** Counts of a project's responses that are not deleted, grouped by `by` (schema or site), plus the totals. */
  async counts(projectId: number, by: 'schema_id' | 'site_id' | null): Promise<CountRow[]> {
    const key = by === null ? this.sql`null::bigint` : this.sql(by);
    return this.sql<CountRow[]>`
      select ${key} as key, count(*)::bigint as total, count(*) filter (where completed)::bigint as complete,
             max(time_updated) as last_response, count(distinct user_id)::bigint as collectors
      from responses where project_id = ${projectId} and not deleted
      group by 1`;
  }
}
