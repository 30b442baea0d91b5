// The whole Fieldwork stack as child processes: every service, then the gateway, each waited for until ready.
import { credentials, makeClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { repoPath } from './paths.js';
import { startChild, type Child, type LineSink } from './processes.js';
import {
  DEFAULT_SUPERVISION,
  supervise,
  type Supervised,
  type SupervisionPolicy,
  type Supervisor,
} from './supervise.js';
import { waitFor } from './infra/net.js';

export const SERVICES = ['auth', 'projects', 'forms', 'responses', 'results', 'exports'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface StackPorts extends Record<ServiceName, number> {
  gateway: number;
}

export const DEFAULT_PORTS: StackPorts = {
  gateway: 8080,
  auth: 50051,
  projects: 50052,
  forms: 50053,
  responses: 50054,
  results: 50055,
  exports: 50056,
};

export interface StackConfig {
  dataDir: string;
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  jwtSecret: string;
  /** Signs the fs object store's download and upload URLs (the projects service signs, the gateway verifies). */
  objectStoreSecret: string;
  /** Signs the project grants the gateway passes to the services (service-kit grant.ts); shared by all of them. */
  contextSecret: string;
  ports: StackPorts;
  gatewayHost: string;
  publicUrl: string;
  logLevel: string;
  /** Extra variables for every process (e.g. a faster login throttle in tests). */
  extraEnv?: Record<string, string>;
  /** Prometheus metrics ports (METRICS_PORT) of the processes that should serve /metrics. */
  metricsPorts?: Partial<StackPorts>;
  /**
   * Ports of further replicas of a service (the first listens on `ports`): processes `<name>-2`, `<name>-3`... The
   * callers get every address and balance round robin. Not the results service on chDB: a chDB directory is opened
   * by one process only.
   */
  replicaPorts?: Partial<Record<ServiceName, number[]>>;
  /** Extra node arguments for every process (e.g. --cpu-prof when profiling). */
  nodeArgs?: string[];
  sink: LineSink;
  /**
   * Restart a process that exits or stops answering, with backoff, without stopping the others (supervise.ts); the
   * launcher of `npm start` always does. Off in tests unless asked: a test that stops a service means it.
   */
  supervise?: { log: (msg: string) => void; policy?: Partial<SupervisionPolicy> };
}

export interface Stack {
  gatewayUrl: string;
  children: Map<string, Child>;
  /** Present when started with `supervise`. */
  supervisor?: Supervisor;
  /** Stops the gateway first, then the services, each draining its in-flight work. */
  stop(): Promise<void>;
}

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');

/** Resolves when the gRPC health of the service at `address` says SERVING. */
export async function waitServing(address: string, what: string, child: Child, timeoutMs = 90_000): Promise<void> {
  const client = new HealthClient(address, credentials.createInsecure()) as unknown as Client & {
    check: (
      req: { service: string },
      opts: { deadline: Date },
      cb: (err: ServiceError | null, res: { status: number | string }) => void,
    ) => void;
  };
  try {
    await waitFor(
      `${what} to serve`,
      async () => {
        if (child.process.exitCode !== null) throw new Error(`${what} exited with code ${child.process.exitCode}`);
        const status = await new Promise<number | string | undefined>((resolve) =>
          client.check({ service: '' }, { deadline: new Date(Date.now() + 1000) }, (err, res) =>
            resolve(err ? undefined : res.status),
          ),
        );
        return status === 1 || status === 'SERVING' ? true : undefined;
      },
      timeoutMs,
      250,
    );
  } finally {
    client.close();
  }
}

/** A liveness probe: whether the gRPC health service at `address` answers at all (NOT_SERVING is an answer). */
async function grpcAnswers(address: string, timeoutMs: number): Promise<boolean> {
  const client = new HealthClient(address, credentials.createInsecure()) as unknown as Client & {
    check: (req: { service: string }, opts: { deadline: Date }, cb: (err: ServiceError | null) => void) => void;
  };
  try {
    return await new Promise<boolean>((resolve) =>
      client.check({ service: '' }, { deadline: new Date(Date.now() + timeoutMs) }, (err) => resolve(err === null)),
    );
  } finally {
    client.close();
  }
}

/** Where each service listens, for the processes that call it: one address, or the list of its replicas. */
function addresses(c: StackConfig): Record<string, string> {
  return Object.fromEntries(
    SERVICES.map((s) => {
      const more = c.replicaPorts?.[s] ?? [];
      return [
        `${s.toUpperCase()}_GRPC_ADDR`,
        more.length === 0
          ? `127.0.0.1:${c.ports[s]}`
          : `ipv4:${[c.ports[s], ...more].map((p) => `127.0.0.1:${p}`).join(',')}`,
      ];
    }),
  );
}

export function serviceEnv(name: ServiceName, c: StackConfig): Record<string, string> {
  const common = {
    LOG_LEVEL: c.logLevel,
    GRPC_HOST: '127.0.0.1',
    DATABASE_URL: c.databaseUrl,
    NATS_URL: c.natsUrl,
    NATS_PREFIX: c.natsPrefix,
    EXIT_WITH_PARENT: 'true',
    CONTEXT_SIGNING_SECRET: c.contextSecret,
    ...addresses(c),
    [`${name.toUpperCase()}_GRPC_PORT`]: String(c.ports[name]),
    ...(c.metricsPorts?.[name] ? { METRICS_PORT: String(c.metricsPorts[name]) } : {}),
  };
  const objects = {
    OBJECT_STORE_DIR: `${c.dataDir}/objects`,
    OBJECT_STORE_SIGNING_SECRET: c.objectStoreSecret,
    PUBLIC_URL: c.publicUrl,
  };
  switch (name) {
    case 'projects':
    case 'forms':
    case 'responses':
      return { ...common, ...objects };
    case 'auth':
      return { ...common, JWT_SECRET: c.jwtSecret, PUBLIC_URL: c.publicUrl, MAIL_TRANSPORT: 'log' };
    case 'results':
      return { ...common, CLICKHOUSE_PATH: `${c.dataDir}/chdb` };
    case 'exports':
      return { ...common, ...objects };
    default:
      return common;
  }
}

function gatewayEnv(c: StackConfig): Record<string, string> {
  return {
    LOG_LEVEL: c.logLevel,
    GATEWAY_HOST: c.gatewayHost,
    GATEWAY_PORT: String(c.ports.gateway),
    ...(c.metricsPorts?.gateway ? { METRICS_PORT: String(c.metricsPorts.gateway) } : {}),
    JWT_SECRET: c.jwtSecret,
    CONTEXT_SIGNING_SECRET: c.contextSecret,
    // The revocation list the gateway watches.
    NATS_URL: c.natsUrl,
    NATS_PREFIX: c.natsPrefix,
    EXIT_WITH_PARENT: 'true',
    OBJECT_STORE_DIR: `${c.dataDir}/objects`,
    OBJECT_STORE_SIGNING_SECRET: c.objectStoreSecret,
    ...addresses(c),
  };
}

/** The environment a child starts with: PATH and locale from ours, nothing else leaks in. */
function baseEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'NODE_OPTIONS', 'TMPDIR'];
  return Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
}

/** Starts replica `n` (1 for the first) of a service on `port`; named `<service>` or `<service>-<n>`. */
export function startReplica(c: StackConfig, name: ServiceName, n: number, port: number): Child {
  const env = {
    ...baseEnv(),
    ...serviceEnv(name, c),
    ...c.extraEnv,
    [`${name.toUpperCase()}_GRPC_PORT`]: String(port),
  };
  if (n > 1) delete env.METRICS_PORT;
  return startChild(
    n === 1 ? name : `${name}-${n}`,
    process.execPath,
    [...(c.nodeArgs ?? []), repoPath('services', name, 'dist', 'main.js')],
    env,
    c.sink,
  );
}

function startGateway(c: StackConfig): Child {
  return startChild(
    'gateway',
    process.execPath,
    [...(c.nodeArgs ?? []), repoPath('gateway', 'dist', 'server.js')],
    { ...baseEnv(), ...gatewayEnv(c), ...c.extraEnv },
    c.sink,
  );
}

export async function startStack(c: StackConfig): Promise<Stack> {
  const children = new Map<string, Child>();
  let supervisor: Supervisor | undefined;
  const stop = async () => {
    supervisor?.stop();
    const gateway = children.get('gateway');
    if (gateway) await gateway.stop();
    await Promise.all([...children].filter(([name]) => name !== 'gateway').map(([, child]) => child.stop()));
  };
  try {
    if ((c.replicaPorts?.results?.length ?? 0) > 0 && !c.extraEnv?.CLICKHOUSE_URL) {
      throw new Error(
        'the results service runs once with the embedded chDB engine (one process per chDB directory); replicas need CLICKHOUSE_URL',
      );
    }
    const started: [string, number][] = [];
    const restartable = new Map<string, Supervised>();
    const supervised = (
      name: string,
      start: () => Child,
      probe: (timeoutMs: number) => Promise<boolean>,
    ): Supervised => ({
      child: () => children.get(name)!,
      start,
      probe,
      replaced: (child) => children.set(name, child),
    });
    for (const name of SERVICES) {
      for (const [i, port] of [c.ports[name], ...(c.replicaPorts?.[name] ?? [])].entries()) {
        const child = startReplica(c, name, i + 1, port);
        children.set(child.name, child);
        started.push([child.name, port]);
        restartable.set(
          child.name,
          supervised(
            child.name,
            () => startReplica(c, name, i + 1, port),
            (ms) => grpcAnswers(`127.0.0.1:${port}`, ms),
          ),
        );
      }
    }
    await Promise.all(started.map(([name, port]) => waitServing(`127.0.0.1:${port}`, name, children.get(name)!)));
    const gateway = startGateway(c);
    children.set('gateway', gateway);
    const gatewayUrl = `http://127.0.0.1:${c.ports.gateway}`;
    await waitFor(
      'the gateway to be ready',
      async () => {
        if (gateway.process.exitCode !== null) throw new Error(`gateway exited with code ${gateway.process.exitCode}`);
        const res = await fetch(`${gatewayUrl}/readyz`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      },
      60_000,
      250,
    );
    if (c.supervise) {
      restartable.set(
        'gateway',
        supervised(
          'gateway',
          () => startGateway(c),
          async (ms) =>
            (await fetch(`${gatewayUrl}/healthz`, { signal: AbortSignal.timeout(ms) }).catch(() => undefined))
              ?.status === 200,
        ),
      );
      supervisor = supervise(restartable, c.supervise.log, { ...DEFAULT_SUPERVISION, ...c.supervise.policy });
    }
    return { gatewayUrl, children, supervisor, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
