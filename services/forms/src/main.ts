// The forms service process: config, build, listen, signals.
import { fileURLToPath } from 'node:url';
import { runMain, startService } from '@fieldwork/service-kit';
import { loadFormsConfig } from './config.js';
import { formsGrpc } from './grpc/forms.grpc.js';

runMain(async () => {
  const config = loadFormsConfig();
  return startService({
    name: 'forms',
    logLevel: config.LOG_LEVEL,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.FORMS_GRPC_PORT,
    databaseUrl: config.DATABASE_URL,
    schema: 'forms',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_S * 1000,
    exitWithParent: config.EXIT_WITH_PARENT,
    poolSize: config.DB_POOL_SIZE,
    build: async ({ log }) => ({ services: [formsGrpc(log)] }),
  });
});
