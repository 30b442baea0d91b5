// The ClickHouse port: one SQL dialect, two engines (DESIGN.md §3): the embedded chDB engine by default, a
// ClickHouse server through @clickhouse/client when CLICKHOUSE_URL is set.
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
