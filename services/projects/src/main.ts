// The projects service process: config, build, listen, signals.
import { fileURLToPath } from 'node:url';
import { runMain, startService } from '@fieldwork/service-kit';
import { buildProjects } from './app.js';
import { loadProjectsConfig } from './config.js';

runMain(async () => {
  const config = loadProjectsConfig();
  return startService({
    name: 'projects',
    logLevel: config.LOG_LEVEL,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.PROJECTS_GRPC_PORT,
    databaseUrl: config.DATABASE_URL,
    schema: 'projects',
    migrationsDir: fileURLToPath(new URL('../migrations', import.meta.url)),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_S * 1000,
    exitWithParent: config.EXIT_WITH_PARENT,
    poolSize: config.DB_POOL_SIZE,
    build: (deps) => buildProjects(config, deps),
  });
});
