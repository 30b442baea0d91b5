// A ClickHouse server (or cluster) over HTTP through @clickhouse/client.
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Engine } from './engine.js';

export class ServerEngine implements Engine {
  readonly name = 'server' as const;
  private readonly client: ClickHouseClient;

  constructor(url: string) {
    this.client = createClient({
      url,
      request_timeout: 60_000,
      clickhouse_settings: { date_time_input_format: 'best_effort' },
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
