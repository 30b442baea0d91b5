// The responses service process: config, build, listen, signals.
import { fileURLToPath } from 'node:url';
import { ensureStream, runMain, startService } from '@fieldwork/service-kit';
import { loadResponsesConfig } from './config.js';
import { responsesGrpc } from './grpc/responses.grpc.js';
import { responsesStream } from './stream.js';

runMain(async () => {
  const config = loadResponsesConfig();
  return startService({
    name: 'responses',
    logLevel: config.LOG_LEVEL,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.RESPONSES_GRPC_PORT,
    databaseUrl: config.DATABASE_URL,
    schema: 'responses',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    natsUrl: config.NATS_URL,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_S * 1000,
    exitWithParent: config.EXIT_WITH_PARENT,
    poolSize: config.DB_POOL_SIZE,
    build: async ({ log, nats }) => {
      await ensureStream(nats!.jsm, responsesStream(config.NATS_PREFIX));
      return { services: [responsesGrpc(log)] };
    },
  });
});
