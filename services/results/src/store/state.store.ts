// The ClickHouse SQL that keeps the aggregates (docs/results.md "Aggregates"): the counted state of responses, the
// signed changes, the journal of batches, each project's time zone and readiness, and the recount of a project.
import type { Engine } from '../engine/engine.js';
import { NO_DAY, stateKey, type ChangeRow, type StateRow } from '../domain/state.js';
import { TIME_ZONE } from '../domain/query.js';

/** The tables the recount empties for a project before counting it again. */
export const AGGREGATE_TABLES = [
  'agg_values',
  'agg_sites',
  'agg_months',
  'agg_cube',
  'agg_responses',
  'agg_words',
  'agg_words_months',
  'agg_times',
  'agg_texts',
  'agg_durations',
] as const;

/** Responses per slice when counted states are made from the answers' tables. */
const STATE_SLICE = 2_000_000;

export interface ProjectAggregates {
  tz: string;
  ready: boolean;
}

export class StateStore {
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
    private readonly cluster = '',
  ) {}

  /** The counted state of each response (by stateKey) among `keys` (project, response id). */
  async counted(keys: readonly { project: number; responseId: string }[]): Promise<Map<string, StateRow>> {
    const out = new Map<string, StateRow>();
    if (keys.length === 0) return out;
    const byProject = new Map<number, string[]>();
    for (const k of keys) {
      const list = byProject.get(k.project) ?? [];
      list.push(k.responseId);
      byProject.set(k.project, list);
    }
    for (const [project, ids] of byProject) {
      const rows = await this.engine.query<StateRow>(
        `SELECT * FROM ${this.db}.response_state FINAL WHERE project_id = {p:UInt64} AND response_id IN {ids:Array(String)}`,
        { p: project, ids },
      );
      for (const r of rows) out.set(stateKey(Number(r.project_id), r.response_id), r);
    }
    return out;
  }

  /**
   * Counts the changes: the views add them to the aggregates and record the new states (the rows of sign +1, which
   * are `_states`) in response_state, all in one insert.
   */
  async apply(changes: readonly ChangeRow[], _states: readonly StateRow[]): Promise<void> {
    await this.engine.insert(`${this.db}.state_changes`, changes);
  }

  async begin(batch: string, projects: number[]): Promise<void> {
    await this.engine.insert(`${this.db}.agg_journal`, [{ batch, phase: 0, projects }]);
  }

  async end(batches: string[]): Promise<void> {
    await this.engine.insert(
      `${this.db}.agg_journal`,
      batches.map((batch) => ({ batch, phase: 1, projects: [] })),
    );
  }

  /** Batches begun and not ended, with their projects. */
  async unfinished(): Promise<{ batch: string; projects: number[] }[]> {
    const rows = await this.engine.query<{ batch: string; projects: (string | number)[] }>(
      `SELECT batch, groupArrayArray(projects) AS projects FROM ${this.db}.agg_journal GROUP BY batch HAVING max(phase) = 0`,
    );
    return rows.map((r) => ({ batch: r.batch, projects: [...new Set(r.projects.map(Number))] }));
  }

  /** Every project's aggregates: time zone and readiness. */
  async projects(): Promise<Map<number, ProjectAggregates>> {
    const rows = await this.engine.query<{ project_id: string; tz: string; ready: number }>(
      `SELECT project_id, tz, ready FROM ${this.db}.agg_projects FINAL`,
    );
    return new Map(rows.map((r) => [Number(r.project_id), { tz: r.tz, ready: Number(r.ready) === 1 }]));
  }

  /** One project's aggregates (undefined: never counted). */
  async project(projectId: number): Promise<ProjectAggregates | undefined> {
    const [r] = await this.engine.query<{ tz: string; ready: number }>(
      `SELECT tz, ready FROM ${this.db}.agg_projects FINAL WHERE project_id = {p:UInt64}`,
      { p: projectId },
    );
    return r ? { tz: r.tz, ready: Number(r.ready) === 1 } : undefined;
  }

  async setProject(projectId: number, tz: string, ready: boolean): Promise<void> {
    await this.engine.insert(`${this.db}.agg_projects`, [
      {
        project_id: projectId,
        tz,
        ready: ready ? 1 : 0,
        at: new Date().toISOString().replace('T', ' ').replace('Z', ''),
      },
    ]);
  }

  /** Projects with responses in the answers' tables and no aggregates yet (data from before the aggregates). */
  async uncounted(): Promise<number[]> {
    const rows = await this.engine.query<{ project_id: string }>(
      `SELECT DISTINCT project_id FROM ${this.db}.responses
        WHERE project_id NOT IN (SELECT project_id FROM ${this.db}.agg_projects FINAL WHERE ready = 1)`,
    );
    return rows.map((r) => Number(r.project_id));
  }

  /** Whether anything of the project is stored (responses or counted states). */
  async holds(projectId: number): Promise<boolean> {
    const [r] = await this.engine.query<{ n: string }>(
      `SELECT (SELECT count() FROM ${this.db}.responses WHERE project_id = {p:UInt64})
            + (SELECT count() FROM ${this.db}.response_state WHERE project_id = {p:UInt64}) AS n`,
      { p: projectId },
    );
    return Number(r?.n ?? 0) > 0;
  }

  private target(table: string): string {
    return this.cluster ? `${this.db}.${table}_local ON CLUSTER ${this.cluster}` : `${this.db}.${table}`;
  }

  private async deleteProject(table: string, projectId: number): Promise<void> {
    await this.engine.query(
      `ALTER TABLE ${this.target(table)} DELETE WHERE project_id = {p:UInt64} SETTINGS mutations_sync = 2`,
      { p: projectId },
    );
  }

  /** The days of the timing columns in `tz` (a literal: ClickHouse takes a constant time zone). */
  private static days(tz: string, r = ''): string {
    if (!TIME_ZONE.test(tz)) throw new Error(`not a time zone: ${tz}`);
    const z = `'${tz}'`;
    return `toDate32(${r}time_created, ${z}) AS d_created, toDate32(${r}time_updated, ${z}) AS d_updated,
            if(${r}time_completed IS NULL, toDate32('${NO_DAY}'), toDate32(assumeNotNull(${r}time_completed), ${z})) AS d_completed,
            toDate32(${r}time_uploaded, ${z}) AS d_uploaded`;
  }

  /**
   * The counted states of a project made again from the newest versions in the responses and answers tables, days
   * in `tz`: how data stored before the aggregates existed is brought in (the answers tables hold every version
   * ingested, so they are complete). Nothing is counted yet: recount() follows.
   */
  async statesFromAnswers(projectId: number, tz: string): Promise<void> {
    await this.deleteProject('response_state', projectId);
    // In slices of about STATE_SLICE responses (by hash of the response id), so that the join's memory stays bounded
    // whatever the project's size.
    const [c] = await this.engine.query<{ n: string }>(
      `SELECT count() AS n FROM ${this.db}.responses WHERE project_id = {p:UInt64}`,
      { p: projectId },
    );
    const slices = Math.max(1, Math.ceil(Number(c?.n ?? 0) / STATE_SLICE));
    for (let slice = 0; slice < slices; slice++) {
      const mine = `cityHash64(response_id) % {slices:UInt32} = {slice:UInt32}`;
      await this.engine.query(
        `INSERT INTO ${this.db}.response_state
         SELECT r.project_id, r.schema_id, r.response_id, r.version, r.user_id, r.site_id, r.group_id, r.team_id,
                r.completed, r.deleted, r.time_created, r.time_updated, r.time_completed, r.time_uploaded,
                ${StateStore.days(tz, 'r.')},
                arrayMap(x -> x.1, a.t), arrayMap(x -> x.2, a.t), arrayMap(x -> x.3, a.t), arrayMap(x -> x.4, a.t),
                arrayMap(x -> x.5, a.t)
         FROM (SELECT * FROM ${this.db}.responses FINAL WHERE project_id = {p:UInt64} AND ${mine}) AS r
         LEFT JOIN (SELECT response_id, groupArray((item_id, num, choices, date, text)) AS t
                      FROM ${this.db}.answers FINAL WHERE project_id = {p:UInt64} AND removed = 0 AND ${mine}
                     GROUP BY response_id) AS a USING (response_id)`,
        { p: projectId, slices, slice },
      );
    }
  }

  /** The counted states of a project with their days in another time zone (same versions: the new rows win). */
  async redate(projectId: number, tz: string): Promise<void> {
    await this.engine.query(
      `INSERT INTO ${this.db}.response_state
       SELECT * REPLACE (${StateStore.days(tz)}) FROM ${this.db}.response_state FINAL WHERE project_id = {p:UInt64}`,
      { p: projectId },
    );
  }

  /**
   * Counts a project again from its counted states: its aggregates emptied, then every state counted once. The
   * caller marks the project not ready first (queries then scan) and ready after.
   */
  async recount(projectId: number): Promise<void> {
    for (const t of AGGREGATE_TABLES) await this.deleteProject(t, projectId);
    await this.engine.query(
      `INSERT INTO ${this.db}.state_changes SELECT *, toInt8(1) AS sign FROM ${this.db}.response_state FINAL WHERE project_id = {p:UInt64}`,
      { p: projectId },
    );
  }
}
