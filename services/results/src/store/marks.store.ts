// The results cache's per-project marks (clickhouse/0010-project-marks.sql, docs/results.md "The results cache"): a
// count per project of the writes that changed what its results read, added to after the data is written, and read
// before a results request runs its queries.
import type { Engine } from '../engine/engine.js';

/** The mark of the whole store (a rebuild, a migration): part of every project's key. */
export const STORE_MARK = 0;

/**
 * The marks this process wrote, per engine. With the embedded chDB engine one process opens the directory, so every
 * write of the results tables is this process's own and its count of them is exact: read here, a mark costs no query
 * (with chDB a query waits behind every insert and merge, chdb.engine.ts, which under a steady upload load was most
 * of a cache hit's time). A process starts with an empty cache and empty counts.
 */
const written = new WeakMap<Engine, Map<number, number>>();

export interface ProjectMark {
  /** Equal keys: nothing the project's results read has changed in between (as far as its writes are marked). */
  key: string;
  /**
   * Whether every node holds every write made so far: on a cluster, no node has rows of a data table waiting in a
   * Distributed table's queue or parts still to fetch from another replica. Always true on one node.
   */
  settled: boolean;
}

export class MarkStore {
  private readonly from: string;
  private readonly pending: string;
  private readonly insertSettings: string;
  /** Whether marks are read from this process's own count of its writes rather than from ClickHouse. */
  private readonly local: boolean;

  /**
   * On a cluster (CLICKHOUSE_CLUSTER) the marks of every replica are read (clusterAllReplicas over the local tables),
   * each replica's count apart, and whether a data row is still on its way to a replica. With chDB they are read from
   * this process (`written`) unless `fromTable`.
   */
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
    cluster = '',
    { fromTable = engine.name !== 'chdb' }: { fromTable?: boolean } = {},
  ) {
    this.local = !fromTable && engine.name === 'chdb' && cluster === '';
    if (cluster !== '' && !/^[\w.-]+$/.test(cluster)) throw new Error(`unusable cluster name: ${cluster}`);
    this.from = cluster ? `clusterAllReplicas('${cluster}', ${db}.project_marks_local)` : `${db}.project_marks`;
    this.pending = cluster
      ? `(SELECT sum(inserts_in_queue) FROM clusterAllReplicas('${cluster}', system.replicas)
           WHERE database = {db:String} AND table != 'project_marks_local')
         + (SELECT sum(data_files) FROM clusterAllReplicas('${cluster}', system.distribution_queue)
           WHERE database = {db:String} AND table != 'project_marks')`
      : '0';
    // Identical blocks (the same projects in two batches) must both count: no insert deduplication. On a cluster the
    // insert returns once the shard has the row, not when it is queued on this node.
    this.insertSettings = `insert_deduplicate = 0${cluster ? ', insert_distributed_sync = 1' : ''}`;
  }

  /** Adds one change to each project: call once its data is written, never before. */
  async touch(projectIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(projectIds)].filter((id) => Number.isSafeInteger(id) && id >= 0);
    if (ids.length === 0) return;
    await this.engine.exec(
      `INSERT INTO ${this.db}.project_marks (project_id, changes) SETTINGS ${this.insertSettings} VALUES ${ids
        .map((id) => `(${id}, 1)`)
        .join(', ')}`,
    );
    if (this.engine.name !== 'chdb') return;
    let counts = written.get(this.engine);
    if (!counts) written.set(this.engine, (counts = new Map()));
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  }

  /** Adds one change to each project of `rows` (rows with a project_id, as inserted). */
  touchRows(rows: readonly object[]): Promise<void> {
    return this.touch(rows.map((r) => Number((r as { project_id?: unknown }).project_id)));
  }

  /** Adds one change to the whole store: every project's key changes (a rebuild, a migration). */
  touchAll(): Promise<void> {
    return this.touch([STORE_MARK]);
  }

  /** The project's mark: its count and the store's, per replica on a cluster. */
  async read(projectId: number): Promise<ProjectMark> {
    if (this.local) {
      const counts = written.get(this.engine);
      return { key: `local/${counts?.get(STORE_MARK) ?? 0}/${counts?.get(projectId) ?? 0}`, settled: true };
    }
    const [r] = await this.engine.query<{ marks: string[]; pending: string | number | null }>(
      `SELECT (SELECT arraySort(groupArray(concat(host, '/', toString(project_id), '=', toString(n))))
                 FROM (SELECT hostName() AS host, project_id, sum(changes) AS n FROM ${this.from}
                       WHERE project_id IN ({store:UInt64}, {p:UInt64}) GROUP BY host, project_id)) AS marks,
              toString(${this.pending}) AS pending`,
      { store: STORE_MARK, p: projectId, db: this.db },
    );
    return { key: (r?.marks ?? []).join(','), settled: Number(r?.pending ?? 0) === 0 };
  }
}
