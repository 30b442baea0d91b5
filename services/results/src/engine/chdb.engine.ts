// The embedded engine: chDB sessions on one directory (only this process may open it). Ingest and queries use
// separate sessions, but their native calls are serialised: an insert and a query running at once on two sessions of
// one directory were seen to stall ingestion under load, so correctness comes first (a query waits behind an insert
// of at most one batch).
import { Session } from 'chdb';
import { QUERY_SETTINGS, type Engine } from './engine.js';

function rows<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) if (line !== '') out.push(JSON.parse(line) as T);
  return out;
}

export class ChdbEngine implements Engine {
  readonly name = 'chdb' as const;
  private readonly writer: Session;
  private readonly reader: Session;
  private queue: Promise<unknown> = Promise.resolve();

  /** Runs `fn` after every earlier operation has settled. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  constructor(path: string) {
    this.writer = new Session(path);
    this.reader = new Session(path);
    // Session settings last for the session: set once, before any query (the queue runs them first).
    const settings = Object.entries(QUERY_SETTINGS)
      .map(([k, v]) => `${k} = ${v}`)
      .join(', ');
    void this.serial(() => this.reader.queryAsync(`SET ${settings}`, { format: 'CSV' }));
  }

  async exec(sql: string): Promise<void> {
    await this.serial(() => this.writer.queryAsync(sql, { format: 'CSV' }));
  }

  async query<T>(sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
    const r = await this.serial(() =>
      Object.keys(params).length > 0
        ? this.reader.queryBindAsync(sql, params, { format: 'JSONEachRow' })
        : this.reader.queryAsync(sql, { format: 'JSONEachRow' }),
    );
    return rows<T>(r.text());
  }

  async insert(table: string, values: readonly object[]): Promise<void> {
    if (values.length === 0) return;
    const payload = Buffer.from(values.map((v) => JSON.stringify(v)).join('\n'));
    await this.serial(() => this.writer.insert({ table, values: payload, format: 'JSONEachRow' }));
  }

  async close(): Promise<void> {
    this.reader.close();
    this.writer.close();
  }
}
