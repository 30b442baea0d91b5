// The shared test harness: real PostgreSQL and NATS (found or started by the launcher's code), a fresh database
// and fresh stream names per run, and the whole stack on free ports for end-to-end tests.
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  createDatabaseIfMissing,
  databaseUrl,
  dropDatabase,
  ensurePostgres,
  type PostgresHandle,
} from './infra/postgres.js';
import { ensureNats, type NatsHandle } from './infra/nats.js';
import { freePort } from './infra/net.js';
import { repoPath } from './paths.js';
import { formatLine } from './processes.js';
import { seedDemo, type DemoSettings } from './seed.js';
import { SERVICES, startStack, type ServiceName, type Stack, type StackPorts } from './stack.js';
import type { SupervisionPolicy } from './supervise.js';
import { startTestOidcProvider, TEST_OIDC_CLIENT_SECRET, type TestOidcProvider } from './test-oidc-provider.js';

export interface TestInfra {
  databaseUrl: string;
  natsUrl: string;
  /** Prefix of stream names and subjects for this run. */
  natsPrefix: string;
  runId: string;
  dispose(): Promise<void>;
}

const harnessDir = join(tmpdir(), 'fieldwork-test-infra');
let shared: Promise<{ pg: PostgresHandle; nats: NatsHandle }> | undefined;

function infra() {
  shared ??= (async () => {
    const log = (msg: string) => process.stderr.write(`[harness] ${msg}\n`);
    const pg = await ensurePostgres({ dataDir: harnessDir, port: 54339, log });
    const nats = await ensureNats({ dataDir: harnessDir, port: 42239, log });
    return { pg, nats };
  })();
  return shared;
}

/** A fresh database and NATS prefix on the machine's (or a throwaway) PostgreSQL and NATS. */
export async function testInfra(postgresAdminUrl?: string): Promise<TestInfra> {
  const { pg, nats } = await infra();
  const adminUrl = postgresAdminUrl ?? pg.adminUrl;
  const runId = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const dbName = `fw_test_${runId}`;
  await createDatabaseIfMissing(adminUrl, dbName);
  return {
    databaseUrl: databaseUrl(adminUrl, dbName),
    natsUrl: nats.url,
    natsPrefix: runId,
    runId,
    dispose: async () => {
      await dropDatabase(adminUrl, dbName);
      await deleteStreams(nats.url, runId);
    },
  };
}

async function deleteStreams(url: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: url.replace(/^nats:\/\//, '') });
  try {
    const jsm = await jetstreamManager(nc);
    // The run's streams, and the streams behind its KV buckets (KV_<prefix>_...).
    for await (const name of jsm.streams.names())
      if (name.startsWith(`${prefix}_`) || name.startsWith(`KV_${prefix}_`)) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
}

export interface TestStack {
  baseUrl: string;
  /** The metrics ports when started with `metrics: true`. */
  metricsPorts: Partial<StackPorts>;
  infra: TestInfra;
  stack: Stack;
  ports: StackPorts;
  demo: DemoSettings & { userId: number; organizationId: number };
  jwtSecret: string;
  /** CONTEXT_SIGNING_SECRET of the stack: a test's own gRPC clients seal their calls with it. */
  contextSecret: string;
  logDir: string;
  /** The OpenID provider, when started with `oidc: true`. */
  oidc?: TestOidcProvider;
  stop(): Promise<void>;
}

export const TEST_DEMO: DemoSettings = {
  username: 'demo',
  email: 'demo@example.com',
  password: 'fieldwork-demo',
  workspace: 'Demo Workspace',
};

/**
 * The whole stack, started by the launcher's code on free ports with a fresh database and stream prefix, the demo
 * seeded. Process logs go to artifacts/logs/<run>/<process>.log.
 */
export async function startTestStack(
  options: {
    extraEnv?: Record<string, string>;
    nodeArgs?: string[];
    natsUrl?: string;
    /** Another PostgreSQL server (its maintenance database) for the run's database, e.g. one a test restarts. */
    postgresAdminUrl?: string;
    metrics?: boolean;
    replicas?: Partial<Record<ServiceName, number>>;
    /** Supervise the processes as `npm start` does (restarts logged to the launcher's log). */
    supervise?: Partial<SupervisionPolicy>;
    /**
     * A real OpenID provider (test-oidc-provider.ts, any email a login) configured as the auth service's identity
     * provider `testidp`, and sign-up on: for the journeys of sign-in through a provider.
     */
    oidc?: boolean;
  } = {},
): Promise<TestStack> {
  const testInfraHandle = await testInfra(options.postgresAdminUrl);
  const ports = { gateway: await freePort() } as StackPorts;
  for (const s of SERVICES) ports[s] = await freePort();
  const replicaPorts: Partial<Record<ServiceName, number[]>> = {};
  for (const [name, n] of Object.entries(options.replicas ?? {}) as [ServiceName, number][]) {
    replicaPorts[name] = [];
    for (let i = 1; i < n; i++) replicaPorts[name].push(await freePort());
  }
  const metricsPorts: Partial<StackPorts> = {};
  if (options.metrics) for (const s of ['gateway', ...SERVICES] as const) metricsPorts[s] = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldwork-e2e-'));
  const logDir = repoPath('artifacts', 'logs', testInfraHandle.runId);
  mkdirSync(logDir, { recursive: true });
  const streams = new Map<string, ReturnType<typeof createWriteStream>>();
  const jwtSecret = randomBytes(32).toString('hex');
  const contextSecret = randomBytes(32).toString('hex');
  // The provider's port is known before the stack starts (its issuer is in the auth service's environment); it
  // starts once the gateway's port gives its client's redirect URI (discovery happens at the first sign-in).
  const oidcPort = options.oidc ? await freePort() : 0;
  const oidcEnv: Record<string, string> = options.oidc
    ? {
        OIDC_PROVIDERS: JSON.stringify([
          {
            id: 'testidp',
            name: 'Test Identity Provider',
            issuer: `http://127.0.0.1:${oidcPort}`,
            client_id: 'fieldwork-test',
            client_secret: TEST_OIDC_CLIENT_SECRET,
          },
        ]),
        SIGNUP_ENABLED: 'true',
      }
    : {};
  const stack = await startStack({
    dataDir,
    databaseUrl: testInfraHandle.databaseUrl,
    natsUrl: options.natsUrl ?? testInfraHandle.natsUrl,
    natsPrefix: testInfraHandle.natsPrefix,
    jwtSecret,
    objectStoreSecret: randomBytes(32).toString('hex'),
    contextSecret,
    ports,
    gatewayHost: '127.0.0.1',
    publicUrl: `http://127.0.0.1:${ports.gateway}`,
    logLevel: 'info',
    // Under vitest two files' stacks run side by side (vitest.config.ts) on one PostgreSQL server (max_connections
    // 100 by default): each service keeps a pool of 4 there instead of 10.
    extraEnv: { ...(process.env.VITEST_POOL_ID ? { DB_POOL_SIZE: '4' } : {}), ...oidcEnv, ...options.extraEnv },
    supervise: options.supervise
      ? {
          policy: options.supervise,
          log: (msg) => {
            let s = streams.get('launcher');
            if (!s) streams.set('launcher', (s = createWriteStream(join(logDir, 'launcher.log'))));
            s.write(`${new Date().toISOString()} ${msg}\n`);
          },
        }
      : undefined,
    nodeArgs: options.nodeArgs,
    metricsPorts,
    replicaPorts,
    sink: (name, line) => {
      let s = streams.get(name);
      if (!s) streams.set(name, (s = createWriteStream(join(logDir, `${name}.log`))));
      s.write(`${formatLine(name, line, false)}\n`);
    },
  }).catch(async (err: unknown) => {
    await testInfraHandle.dispose();
    throw new Error(`${err instanceof Error ? err.message : String(err)} (logs in ${logDir})`, { cause: err });
  });
  const oidc = options.oidc
    ? await startTestOidcProvider({
        redirectUris: [`${stack.gatewayUrl}/login-home/oauth`],
        port: oidcPort,
        anyEmail: true,
      })
    : undefined;
  const seeded = await seedDemo(
    { auth: `127.0.0.1:${ports.auth}`, projects: `127.0.0.1:${ports.projects}`, secret: contextSecret },
    TEST_DEMO,
  );
  return {
    baseUrl: stack.gatewayUrl,
    infra: testInfraHandle,
    stack,
    ports,
    metricsPorts,
    demo: { ...TEST_DEMO, userId: seeded.userId, organizationId: seeded.organizationId },
    jwtSecret,
    contextSecret,
    logDir,
    ...(oidc ? { oidc } : {}),
    stop: async () => {
      await oidc?.stop();
      await stack.stop();
      for (const s of streams.values()) s.end();
      await testInfraHandle.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
