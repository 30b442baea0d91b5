// The embedded engine: chDB sessions on one directory (only this process may open it). Ingest and queries use
// separate sessions so a large insert does not hold queries up (one session runs one operation at a time).
import { Session } from 'chdb';
import type { Engine } from './engine.js';

function rows<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) if (line !== '') out.push(JSON.parse(line) as T);
  return out;
}

export class ChdbEngine implements Engine {
  readonly name = 'chdb' as const;
  private readonly writer: Session;
  private readonly reader: Session;

  constructor(path: string) {
    this.writer = new Session(path);
    this.reader = new Session(path);
  }

  async exec(sql: string): Promise<void> {
    await this.writer.queryAsync(sql, { format: 'CSV' });
  }

  async query<T>(sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
    const r = Object.keys(params).length > 0 ? await this.reader.queryBindAsync(sql, params, { format: 'JSONEachRow' }) : await this.reader.queryAsync(sql, { format: 'JSONEachRow' });
    return rows<T>(r.text());
  }

  async insert(table: string, values: readonly object[]): Promise<void> {
    if (values.length === 0) return;
    const payload = Buffer.from(values.map((v) => JSON.stringify(v)).join('\n'));
    await this.writer.insert({ table, values: payload, format: 'JSONEachRow' });
  }

  async close(): Promise<void> {
    this.reader.close();
    this.writer.close();
  }
}
