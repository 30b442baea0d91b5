// The RESPONSES stream into chDB through the results service: versions converge (a newer one replaces, a re-send
// collapses, removed answers and deleted responses drop out),
// and a rebuild replays the whole stream into empty tables. (The failing insert is in its own file: one chDB
// directory per process.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { freePort, testInfra, type TestInfra } from '@fieldwork/launcher';
import { results } from '@fieldwork/proto';
import {
  createClient,
  ensureStream,
  responseSubject,
  responsesStream,
  startService,
  type PromiseClient,
  type StartedService,
} from '@fieldwork/service-kit';
import { buildResults } from '../../src/app.js';
import { loadResultsConfig } from '../../src/config.js';
import type { ResponseEvent } from '../../src/domain/rows.js';

let infra: TestInfra;
let service: StartedService;
let client: PromiseClient<typeof results.ResultsServiceService, results.ResultsServiceClient>;
let nc: NatsConnection;
let js: JetStreamClient;
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-results-'));

beforeAll(async () => {
  infra = await testInfra();
  const port = await freePort();
  const config = loadResultsConfig({
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: infra.natsPrefix,
    RESULTS_GRPC_PORT: String(port),
    CLICKHOUSE_PATH: join(dir, 'service'),
    LOG_LEVEL: 'silent',
  });
  nc = await connect({ servers: infra.natsUrl.replace(/^nats:\/\//, '') });
  js = jetstream(nc);
  await ensureStream(await jetstreamManager(nc), responsesStream(infra.natsPrefix));
  service = await startService({
    name: 'results',
    config,
    grpcPort: port,
    migrations: new URL('../../migrations', import.meta.url),
    build: (deps) => buildResults(config, deps),
  });
  client = createClient(results.ResultsServiceClient, `127.0.0.1:${port}`);
}, 60_000);

afterAll(async () => {
  client?.close();
  await service?.stop();
  await nc?.close();
  await infra?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function event(project: number, n: number, version = 1, patch: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    response_id: `${project}-1-1-d-${n}`,
    version,
    project,
    schema: 1,
    user: 1,
    site: 1 + (n % 2),
    group: null,
    team: null,
    completed: n % 3 === 0,
    deleted: false,
    archived: false,
    parent_id: null,
    geotag: null,
    time_created: new Date(Date.UTC(2026, 0, 1 + (n % 28))).toISOString(),
    time_updated: new Date(Date.UTC(2026, 0, 1 + (n % 28), 1)).toISOString(),
    time_completed: null,
    time_uploaded: new Date(Date.UTC(2026, 0, 1 + (n % 28), 2)).toISOString(),
    data: { '0': { 10: n, 11: [1 + (n % 3)], 12: `text ${n}` } },
    ...patch,
  };
}

async function publish(e: ResponseEvent, prefix = infra.natsPrefix): Promise<void> {
  await js.publish(responseSubject(prefix, e.project), JSON.stringify(e), { msgID: `${e.response_id}:${e.version}` });
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

describe('ingestion', () => {
  it('writes every response and answer once, and converges on the newest version', async () => {
    for (let n = 0; n < 300; n++) await publish(event(101, n));
    const status = () => client.ingestStatus({ project_id: 101 });
    expect(await until(status, (s) => s.responses === 300 && s.pending === 0)).toMatchObject({
      responses: 300,
      answers: 900,
      deleted: 0,
      pending: 0,
    });

    // Version 2 of response 0 drops question 12; response 1 is deleted; response 2 is re-sent as is (a second
    // message of the same version, past the publish de-duplication).
    await publish({ ...event(101, 0, 2, { data: { '0': { 10: 99, 11: [2] } } }), removed: ['0.12'] });
    await publish(event(101, 1, 2, { deleted: true }));
    await js.publish(responseSubject(infra.natsPrefix, 101), JSON.stringify(event(101, 2)), { msgID: 'resend-of-2' });
    const after = await until(status, (s) => s.deleted === 1 && s.answers === 900 - 1 - 3 && s.pending === 0);
    expect(after).toMatchObject({ responses: 300, deleted: 1, answers: 896 });

    // The counts of the project home and summary by site: not deleted, complete, last update, collectors.
    const live = Array.from({ length: 300 }, (_, n) => n).filter((n) => n !== 1);
    const counts = await client.countResponses({ project_id: 101 });
    expect(counts.all).toEqual({
      total: 299,
      complete: live.filter((n) => n % 3 === 0).length,
      last_response: '2026-01-28T01:00:00.000Z',
    });
    expect(counts.by_schema[1]?.total).toBe(299);
    for (const site of [1, 2]) {
      const ns = live.filter((n) => 1 + (n % 2) === site);
      expect(counts.by_site[site]).toMatchObject({ total: ns.length, complete: ns.filter((n) => n % 3 === 0).length });
      expect(counts.collectors_by_site[site]).toBe(1);
    }
    expect(await client.countResponses({ project_id: 999 })).toEqual({
      all: { total: 0, complete: 0, last_response: '' },
      by_schema: {},
      by_site: {},
      collectors_by_site: {},
    });
  }, 120_000);

  it('rebuilds from the stream into empty tables with the same figures', async () => {
    const before = await client.ingestStatus({ project_id: 101 });
    const r = await client.rebuild({});
    expect(r.messages).toBeGreaterThanOrEqual(303);
    const rebuilt = await until(
      () => client.ingestStatus({ project_id: 101 }),
      (s) =>
        s.responses === before.responses &&
        s.answers === before.answers &&
        s.deleted === before.deleted &&
        s.pending === 0,
    );
    expect({ responses: rebuilt.responses, answers: rebuilt.answers, deleted: rebuilt.deleted }).toEqual({
      responses: 300,
      answers: 896,
      deleted: 1,
    });
  }, 120_000);
});
