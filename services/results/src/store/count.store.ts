// The ClickHouse SQL of response counts (project home, summary by site): one pass per (schema, site).
import type { Engine } from '../engine/engine.js';

export interface CountRow {
  schema_id: string;
  site_id: string;
  total: string;
  complete: string;
  last: string | null;
  collectors: string;
}

export class CountStore {
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
  ) {}

  /** Per (schema, site): responses not deleted, complete ones, the last update and the collectors. */
  async countsBySchemaAndSite(projectId: number): Promise<(CountRow & { users: string[] })[]> {
    // One pass: per (schema, site), with the collectors as a uniqExact state merged per site by the caller.
    return this.engine.query<CountRow & { users: string[] }>(
      `SELECT toString(schema_id) AS schema_id, toString(site_id) AS site_id, count() AS total, countIf(completed = 1) AS complete,
              toString(max(time_updated)) AS last, groupUniqArray(toString(user_id)) AS users
       FROM ${this.db}.responses FINAL WHERE project_id = {project:UInt64} AND deleted = 0 GROUP BY schema_id, site_id`,
      { project: projectId },
    );
  }

  /** Per project of `projectIds`: responses not deleted, complete ones and the last update (projects without any: absent). */
  async countsByProject(
    projectIds: readonly number[],
  ): Promise<{ project_id: string; total: string; complete: string; last: string | null }[]> {
    if (projectIds.length === 0) return [];
    return this.engine.query(
      `SELECT toString(project_id) AS project_id, count() AS total, countIf(completed = 1) AS complete,
              toString(max(time_updated)) AS last
       FROM ${this.db}.responses FINAL WHERE project_id IN {projects:Array(UInt64)} AND deleted = 0 GROUP BY project_id`,
      { projects: projectIds },
    );
  }
}
