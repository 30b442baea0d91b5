// A failing ClickHouse insert: the batch is nak'ed and written later, once. Its own file, so its own process and
// chDB directory (one chDB directory per process).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { testInfra, type TestInfra } from '@fieldwork/launcher';
import { createLogger, ensureStream, responseSubject, responsesStream } from '@fieldwork/service-kit';
import { ChdbEngine } from '../../src/engine/chdb.engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { migrateClickhouse } from '../../src/engine/migrate.js';
import { Ingestor } from '../../src/ingest/consumer.js';
import type { ResponseEvent } from '../../src/domain/rows.js';

let infra: TestInfra;
let nc: NatsConnection;
let js: JetStreamClient;
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-results-faulty-'));

beforeAll(async () => {
  infra = await testInfra();
  nc = await connect({ servers: infra.natsUrl.replace(/^nats:\/\//, '') });
  js = jetstream(nc);
});
afterAll(async () => {
  await nc?.close();
  await infra?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const event = (n: number): ResponseEvent => ({
  response_id: `202-1-1-d-${n}`,
  version: 1,
  project: 202,
  schema: 1,
  user: 1,
  site: 1,
  group: null,
  team: null,
  completed: false,
  deleted: false,
  archived: false,
  parent_id: null,
  geotag: null,
  time_created: '2026-01-01T00:00:00.000Z',
  time_updated: '2026-01-01T00:00:00.000Z',
  time_completed: null,
  time_uploaded: '2026-01-01T00:00:00.000Z',
  data: { '0': { 10: n, 11: [1], 12: `text ${n}` } },
});

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

describe('a failing insert', () => {
  it('naks the batch and writes it later, once', async () => {
    // An ingestor over the real engine, refusing its first inserts of answers.
    const prefix = infra.natsPrefix;
    await ensureStream(await jetstreamManager(nc), responsesStream(prefix));
    const real = new ChdbEngine(dir);
    const log = createLogger('results-test', 'silent');
    await migrateClickhouse(real, 'fieldwork', log);
    let refusals = 2;
    // Whether the last answers insert went in, at each write of the results cache's marks.
    let answersIn = false;
    const marksWritten: boolean[] = [];
    const faulty: Engine = {
      name: 'chdb',
      exec: (s) => {
        if (s.includes('.project_marks ')) marksWritten.push(answersIn);
        return real.exec(s);
      },
      query: (s, p) => real.query(s, p),
      insert: async (table, rows) => {
        if (refusals > 0 && table.endsWith('.answers')) {
          refusals--;
          answersIn = false;
          throw new Error('ClickHouse is away');
        }
        await real.insert(table, rows);
        if (table.endsWith('.answers')) answersIn = true;
      },
      close: () => real.close(),
    };
    const ingestor = new Ingestor(faulty, { natsUrl: infra.natsUrl, prefix, db: 'fieldwork', log });
    ingestor.start();
    try {
      for (let n = 0; n < 50; n++)
        await js.publish(responseSubject(prefix, 202), JSON.stringify(event(n)), { msgID: `202-${n}:1` });
      const count = async () =>
        (await real.query<{ n: string }>('SELECT count() AS n FROM fieldwork.answers FINAL WHERE project_id = 202'))[0]!
          .n;
      expect(Number(await until(count, (n) => Number(n) === 150))).toBe(150);
      expect(refusals).toBe(0);
      expect(ingestor.stats.failures).toBeGreaterThanOrEqual(2);
      const [raw] = await real.query<{ n: string }>(
        'SELECT count(DISTINCT response_id) AS n FROM fieldwork.responses WHERE project_id = 202',
      );
      expect(Number(raw!.n)).toBe(50);
      // The project's mark was written only after a batch's data went in, never for a batch that failed.
      expect(marksWritten.length).toBeGreaterThanOrEqual(1);
      expect(marksWritten.every(Boolean)).toBe(true);
    } finally {
      await ingestor.stop();
      await real.close();
    }
  }, 120_000);
});
