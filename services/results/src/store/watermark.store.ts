// The ingestion watermark of the results cache: a fingerprint of what the results tables hold, read from ClickHouse
// itself. Every insert makes a new part; every mutation (a purge, a delete) renames the parts it rewrites; a merge
// replaces parts; a rebuild drops the tables (new table UUIDs). So the set of active part names, with the tables'
// UUIDs, changes whenever what a query can read changes (and, harmlessly, when a merge only regroups it).
import type { Engine } from '../engine/engine.js';

/** The tables whose content the results read. */
export const WATERMARK_TABLES = ['responses', 'answers'] as const;

export class WatermarkStore {
  private readonly partsFrom: string;
  private readonly tablesFrom: string;
  private readonly tables: string[];

  /**
   * On a cluster (CLICKHOUSE_CLUSTER) the parts of every replica of every shard are read (clusterAllReplicas), so a
   * part that reached any replica changes the watermark, whichever replica the next query reads.
   */
  constructor(
    private readonly engine: Engine,
    private readonly db: string,
    cluster = '',
  ) {
    if (cluster !== '' && !/^[\w.-]+$/.test(cluster)) throw new Error(`unusable cluster name: ${cluster}`);
    this.partsFrom = cluster ? `clusterAllReplicas('${cluster}', system.parts)` : 'system.parts';
    this.tablesFrom = cluster ? `clusterAllReplicas('${cluster}', system.tables)` : 'system.tables';
    this.tables = WATERMARK_TABLES.map((t) => (cluster ? `${t}_local` : t));
  }

  /** The current watermark: equal strings mean the tables hold the same rows. */
  async current(): Promise<string> {
    const [r] = await this.engine.query<{ parts: string; rows: string; tables: string }>(
      `SELECT toString(cityHash64(arraySort(groupArray(concat(hostName(), '/', table, '/', name))))) AS parts,
              toString(sum(rows)) AS rows,
              (SELECT toString(cityHash64(arraySort(groupArray(concat(hostName(), '/', toString(uuid))))))
                 FROM ${this.tablesFrom} WHERE database = {db:String} AND name IN {tables:Array(String)}) AS tables
       FROM ${this.partsFrom} WHERE database = {db:String} AND table IN {tables:Array(String)} AND active`,
      { db: this.db, tables: this.tables },
    );
    return `${r?.tables ?? ''}:${r?.parts ?? ''}:${r?.rows ?? ''}`;
  }
}
