// The exports service built by buildExports (app.ts) as main.ts starts it, against the real PostgreSQL and NATS: it
// makes the JOBS stream and the workers' consumer, its workers take what is queued (a job id it does not know is
// acknowledged and dropped), and a stop ends a waiting pull at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, testInfra, type TestInfra } from '@fieldwork/launcher';
import { connectNats, consumerLag, createLogger, startService, type Nats, type StartedService } from '@fieldwork/service-kit';
import { buildExports } from '../../src/app.js';
import { loadExportsConfig } from '../../src/config.js';
import { jobsStream, jobSubject } from '../../src/stream.js';
import { DURABLE } from '../../src/worker/worker.js';

let infra: TestInfra;
let service: StartedService | undefined;
let nats: Nats;
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-exports-'));

beforeAll(async () => {
  infra = await testInfra();
  nats = await connectNats(infra.natsUrl, { name: 'exports-app-test', log: createLogger('exports-app-test', 'silent') });
});

afterAll(async () => {
  await service?.stop();
  await nats?.close();
  await infra?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe(buildExports.name, () => {
  it('starts with its stream and workers, drops an unknown job, and stops at once', async () => {
    const port = await freePort();
    const config = loadExportsConfig({
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.natsPrefix,
      EXPORTS_GRPC_PORT: String(port),
      OBJECT_STORE_DIR: join(dir, 'objects'),
      OBJECT_STORE_SIGNING_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'silent',
    });
    service = await startService({ name: 'exports', config, grpcPort: port, migrations: new URL('../../migrations', import.meta.url), nats: true, build: (deps) => buildExports(config, deps) });
    const stream = jobsStream(infra.natsPrefix).name;
    expect((await nats.jsm.consumers.info(stream, DURABLE)).config.ack_wait).toBe(10_000_000_000);
    await nats.js.publish(jobSubject(infra.natsPrefix), '00000000-0000-0000-0000-000000000000', { msgID: 'export:unknown' });
    const end = Date.now() + 20_000;
    while ((await consumerLag(nats.jsm, stream, DURABLE)) > 0) {
      if (Date.now() > end) throw new Error('the job was never taken');
      await new Promise((r) => setTimeout(r, 100));
    }
    const t0 = Date.now();
    await service.stop();
    service = undefined;
    // The workers' pull waits 5 s for a job; a stop does not wait for it.
    expect(Date.now() - t0).toBeLessThan(4000);
  });
});
