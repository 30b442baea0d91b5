// The ClickHouse port: one SQL dialect, two engines (docs/architecture.md): the embedded chDB engine by default, a
// ClickHouse server through @clickhouse/client when CLICKHOUSE_URL is set.
/**
 * Settings of every query, on both engines. `do_not_merge_across_partitions_select_final`: a FINAL read (the scans
 * of the answers' tables) skips the merge of a partition that ClickHouse's own background merges have already made
 * one part. Correct because every version of a row is in one partition: each partition key is a function of the sort
 * key (project_id) or of time_created, which no version of a response changes (clickhouse/0012-partitions.sql).
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
