// The shape every service's main.ts follows: pool and migrations, optional NATS, the gRPC server, health kept
// current by periodic checks of the service's own dependencies, and an orderly stop.
import { createPool, migrate, type Sql } from './db.js';
import { createLogger, type Logger } from './logger.js';
import { connectNats, type Nats } from './nats.js';
import { startGrpcServer, type GrpcServiceRegistration, type RunningGrpcServer } from './grpc-server.js';

export interface ServiceDeps {
  log: Logger;
  sql: Sql;
  nats?: Nats;
}

export interface BuiltService {
  services: GrpcServiceRegistration[];
  /** Readiness checks besides PostgreSQL and NATS; a throw marks the service NOT_SERVING. */
  checks?: Array<() => Promise<void>>;
  /** Stops background work (consumers, relays) before the pools close. */
  close?: () => Promise<void>;
}

export interface ServiceOptions {
  name: string;
  logLevel: string;
  grpcHost: string;
  grpcPort: number;
  databaseUrl: string;
  /** PostgreSQL schema owned by this service. */
  schema: string;
  migrationsDir: string;
  natsUrl?: string;
  shutdownTimeoutMs: number;
  poolSize?: number;
  healthIntervalMs?: number;
  /** Stop when the launcher's stdin pipe closes. */
  exitWithParent?: boolean;
  build: (deps: ServiceDeps) => Promise<BuiltService>;
}

export interface StartedService {
  log: Logger;
  exitWithParent: boolean;
  grpc: RunningGrpcServer;
  stop: () => Promise<void>;
}

/** Starts a service; resolves once it is migrated, listening and SERVING. */
export async function startService(options: ServiceOptions): Promise<StartedService> {
  const log = createLogger(options.name, options.logLevel);
  const sql = createPool(options.databaseUrl, {
    schema: options.schema,
    max: options.poolSize ?? 10,
    appName: `fieldwork-${options.name}`,
  });
  await migrate(sql, { schema: options.schema, dir: options.migrationsDir, log });
  const nats = options.natsUrl ? await connectNats(options.natsUrl, { name: `fieldwork-${options.name}`, log }) : undefined;
  const built = await options.build({ log, sql, ...(nats ? { nats } : {}) });
  const grpc = await startGrpcServer({ host: options.grpcHost, port: options.grpcPort, services: built.services, log });

  const checks: Array<[string, () => Promise<void>]> = [
    ['postgres', async () => void (await sql`select 1`)],
    ...(nats
      ? [
          [
            'nats',
            async () => {
              if (nats.nc.isClosed()) throw new Error('nats connection closed');
              await nats.nc.flush();
            },
          ] as [string, () => Promise<void>],
        ]
      : []),
    ...(built.checks ?? []).map((c, i) => [`check${i}`, c] as [string, () => Promise<void>]),
  ];
  let serving: boolean | undefined;
  const runChecks = async () => {
    const failed: string[] = [];
    for (const [name, check] of checks) {
      try {
        await withTimeout(check(), 3000);
      } catch (err) {
        failed.push(name);
        log.warn({ err, check: name }, 'readiness check failed');
      }
    }
    const ok = failed.length === 0;
    if (ok !== serving) {
      serving = ok;
      grpc.setServing(ok);
      log.info({ serving: ok, failed }, 'health changed');
    }
  };
  await runChecks();
  let stopped = false;
  const timer = setInterval(() => void (stopped ? undefined : runChecks()), options.healthIntervalMs ?? 5000);
  timer.unref();

  return {
    log,
    exitWithParent: options.exitWithParent ?? false,
    grpc,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await grpc.shutdown(options.shutdownTimeoutMs);
      await built.close?.();
      await nats?.close();
      await sql.end({ timeout: 5 });
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
