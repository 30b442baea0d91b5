// The shape every service's main.ts follows: pool and migrations, optional NATS, the gRPC server, health kept
// current by periodic checks of the service's own dependencies, and an orderly stop.
import { fileURLToPath } from 'node:url';
import type { ServiceConfig } from './config.js';
import { createPool, migrate, type Sql } from './db.js';
import { createLogger, type Logger } from './logger.js';
import { connectNats, type Nats } from './nats.js';
import { startGrpcServer, type GrpcServiceRegistration, type RunningGrpcServer } from './grpc-server.js';
import { MigrationsDone } from './lifecycle.js';
import { startMetricsServer } from './metrics.js';

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
  /** The service's parsed config (service-kit's serviceVars, plus natsVars when it uses NATS). */
  config: ServiceConfig;
  grpcPort: number;
  /** PostgreSQL schema owned by this service; defaults to its name. */
  schema?: string;
  /** The migrations folder, e.g. new URL('../migrations', import.meta.url). */
  migrations: URL | string;
  /** Migrations beyond PostgreSQL's (the results service's ClickHouse tables), run in the same phase. */
  migrate?: (log: Logger) => Promise<void>;
  /** Connect to NATS (config.NATS_URL). */
  nats?: boolean;
  healthIntervalMs?: number;
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
  const { config } = options;
  const schema = options.schema ?? options.name;
  const log = createLogger(options.name, config.LOG_LEVEL);
  const sql = createPool(config.DATABASE_URL, {
    schema,
    max: config.DB_POOL_SIZE,
    appName: `fieldwork-${options.name}`,
  });
  const dir = options.migrations instanceof URL ? fileURLToPath(options.migrations) : options.migrations;
  if (config.MIGRATE !== 'skip') {
    await migrate(sql, { schema, dir, log });
    await options.migrate?.(log);
  }
  if (config.MIGRATE === 'only') {
    await sql.end({ timeout: 5 });
    log.info('migrations done (MIGRATE=only)');
    throw new MigrationsDone();
  }
  const metrics =
    config.METRICS_PORT > 0
      ? await startMetricsServer({ port: config.METRICS_PORT, host: config.GRPC_HOST, service: options.name, log })
      : undefined;
  const nats = options.nats
    ? await connectNats(config.NATS_URL ?? 'nats://127.0.0.1:4222', { name: `fieldwork-${options.name}`, log })
    : undefined;
  const built = await options.build({ log, sql, ...(nats ? { nats } : {}) });
  if (!config.CONTEXT_SIGNING_SECRET)
    log.warn('CONTEXT_SIGNING_SECRET is not set: calls to this service are not checked for a seal (call-seal.ts)');
  const grpc = await startGrpcServer({
    host: config.GRPC_HOST,
    port: options.grpcPort,
    services: built.services,
    log,
    ...(config.CONTEXT_SIGNING_SECRET ? { secret: config.CONTEXT_SIGNING_SECRET } : {}),
  });

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
    exitWithParent: config.EXIT_WITH_PARENT,
    grpc,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await grpc.shutdown(config.SHUTDOWN_TIMEOUT_S * 1000);
      await built.close?.();
      await nats?.close();
      await sql.end({ timeout: 5 });
      await metrics?.close();
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
