// The exports service process: config, build, listen, signals.
import { fileURLToPath } from 'node:url';
import { ensureStream, runMain, startService } from '@fieldwork/service-kit';
import { loadExportsConfig } from './config.js';
import { exportsGrpc } from './grpc/exports.grpc.js';
import { jobsStream } from './stream.js';

runMain(async () => {
  const config = loadExportsConfig();
  return startService({
    name: 'exports',
    logLevel: config.LOG_LEVEL,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.EXPORTS_GRPC_PORT,
    databaseUrl: config.DATABASE_URL,
    schema: 'exports',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    natsUrl: config.NATS_URL,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_S * 1000,
    exitWithParent: config.EXIT_WITH_PARENT,
    poolSize: config.DB_POOL_SIZE,
    build: async ({ log, nats }) => {
      await ensureStream(nats!.jsm, jobsStream(config.NATS_PREFIX));
      return { services: [exportsGrpc(log)] };
    },
  });
});
