// The ClickHouse SQL of a deleted project's purge: its rows in every table, counted and removed.
import type { Engine } from '../engine/engine.js';

/** Every table that holds rows of a project (each is keyed by project_id first). */
export const PROJECT_TABLES = ['responses', 'answers'] as const;
/** The tables made from them (the counted states and the aggregates), removed with them. */
export const DERIVED_TABLES = [
  'response_state',
  'agg_values',
  'agg_cube',
  'agg_responses',
  'agg_words',
  'agg_times',
  'agg_texts',
  'agg_durations',
  'agg_projects',
] as const;

export class PurgeStore {
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
    private readonly cluster = '',
  ) {}

  /** The project's rows as stored (every version, not only the newest): what a purge removes. */
  async rows(projectId: number): Promise<Record<(typeof PROJECT_TABLES)[number], number>> {
    const out = { responses: 0, answers: 0 };
    for (const table of PROJECT_TABLES) {
      const [r] = await this.engine.query<{ n: string }>(
        `SELECT count() AS n FROM ${this.db}.${table} WHERE project_id = {p:UInt64}`,
        { p: projectId },
      );
      out[table] = Number(r?.n ?? 0);
    }
    return out;
  }

  /** The project's rows in the derived tables. */
  async derivedRows(projectId: number): Promise<number> {
    let n = 0;
    for (const table of DERIVED_TABLES) {
      const [r] = await this.engine.query<{ n: string }>(
        `SELECT count() AS n FROM ${this.db}.${table} WHERE project_id = {p:UInt64}`,
        { p: projectId },
      );
      n += Number(r?.n ?? 0);
    }
    return n;
  }

  /**
   * Removes them and the derived rows: a mutation per table, waited for (mutations_sync), so the parts are rewritten without the rows
   * before the call answers; on a cluster on each node's local table.
   */
  async remove(projectId: number): Promise<void> {
    for (const table of [...PROJECT_TABLES, ...DERIVED_TABLES]) {
      const target = this.cluster ? `${this.db}.${table}_local ON CLUSTER ${this.cluster}` : `${this.db}.${table}`;
      await this.engine.query(
        `ALTER TABLE ${target} DELETE WHERE project_id = {p:UInt64} SETTINGS mutations_sync = 2`,
        {
          p: projectId,
        },
      );
    }
  }
}
