// The auth service process: config, build, listen, signals.
import { runMain, startService } from '@fieldwork/service-kit';
import { buildAuth } from './app.js';
import { loadAuthConfig } from './config.js';

runMain(async () => {
  const config = loadAuthConfig();
  return startService({
    name: 'auth',
    config,
    grpcPort: config.AUTH_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    nats: true,
    build: (deps) => buildAuth(config, deps),
  });
});
