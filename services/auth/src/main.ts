// The auth service process: config, build, listen, signals.
import { fileURLToPath } from 'node:url';
import { runMain, startService } from '@fieldwork/service-kit';
import { buildAuth } from './app.js';
import { loadAuthConfig } from './config.js';

runMain(async () => {
  const config = loadAuthConfig();
  const service = await startService({
    name: 'auth',
    logLevel: config.LOG_LEVEL,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.AUTH_GRPC_PORT,
    databaseUrl: config.DATABASE_URL,
    schema: 'auth',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_S * 1000,
    exitWithParent: config.EXIT_WITH_PARENT,
    poolSize: config.DB_POOL_SIZE,
    build: (deps) => buildAuth(config, deps),
  });
  return service;
});
