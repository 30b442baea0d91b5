// The exports service process: config, build, listen, signals.
import { runMain, startService } from '@fieldwork/service-kit';
import { buildExports } from './app.js';
import { loadExportsConfig } from './config.js';

runMain(async () => {
  const config = loadExportsConfig();
  return startService({
    name: 'exports',
    config,
    grpcPort: config.EXPORTS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    nats: true,
    build: (deps) => buildExports(config, deps),
  });
});
