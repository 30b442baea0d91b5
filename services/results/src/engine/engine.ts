// The ClickHouse port: one SQL dialect, two engines (DESIGN.md §3): the embedded chDB engine by default, a
// ClickHouse server through @clickhouse/client when CLICKHOUSE_URL is set.
/**
 * Settings of every query, on both engines. `do_not_merge_across_partitions_select_final`: a FINAL read skips the
 * merge of a partition that is one part already merged (level > 0), which is what the compactor leaves once ingestion
 * is idle, so FINAL then costs what a plain read costs (bench/results/variants.mjs). Correct because every version of
 * a row is in one partition: the tables have no PARTITION BY (a partition key must stay a function of the sort key).
 */
export const QUERY_SETTINGS = { do_not_merge_across_partitions_select_final: 1 } as const;

export interface Engine {
  readonly name: 'chdb' | 'server';
  /** Runs a statement (DDL, mutations); nothing returned. */
  exec(sql: string): Promise<void>;
  /** Runs a query with {name:Type} parameters and answers its rows. */
  query<T>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
  /** Inserts rows (objects keyed by column) into `table`. */
  insert(table: string, rows: readonly object[]): Promise<void>;
  close(): Promise<void>;
}
