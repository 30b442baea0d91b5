// A ClickHouse server (or cluster) over HTTP through @clickhouse/client. `connection` swaps the HTTP transport for
// another one under the same client (the tests pass chDB's, `chdb/connection`, so that server mode's SQL, parameter
// encoding and JSONEachRow inserts run where no ClickHouse server can be installed: docs/scaling.md).
import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client';
import { QUERY_SETTINGS, type Engine } from './engine.js';

/** The transport under the client (HTTP by default). */
export type Transport = NonNullable<ClickHouseClientConfigOptions['connection']>;

export class ServerEngine implements Engine {
  readonly name = 'server' as const;
  private readonly client: ClickHouseClient;

  constructor(url: string, connection?: Transport) {
    this.client = createClient({
      url,
      ...(connection ? { connection } : {}),
      request_timeout: 60_000,
      clickhouse_settings: { date_time_input_format: 'best_effort', ...QUERY_SETTINGS },
    });
  }

  async exec(sql: string): Promise<void> {
    await this.client.command({ query: sql });
  }

  async query<T>(sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
    const r = await this.client.query({ query: sql, query_params: params, format: 'JSONEachRow' });
    return r.json<T>();
  }

  async insert(table: string, values: readonly object[]): Promise<void> {
    if (values.length === 0) return;
    await this.client.insert({ table, values: values as object[], format: 'JSONEachRow' });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
