// The projects service process: config, build, listen, signals.
import { runMain, startService } from '@fieldwork/service-kit';
import { buildProjects } from './app.js';
import { loadProjectsConfig } from './config.js';

runMain(async () => {
  const config = loadProjectsConfig();
  return startService({
    name: 'projects',
    config,
    grpcPort: config.PROJECTS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    build: (deps) => buildProjects(config, deps),
  });
});
