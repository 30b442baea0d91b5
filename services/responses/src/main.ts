// The responses service process: config, build, listen, signals. NATS is not a readiness condition here: uploads
// are accepted while it is down and wait in the outbox.
import { runMain, startService } from '@fieldwork/service-kit';
import { buildResponses } from './app.js';
import { loadResponsesConfig } from './config.js';

runMain(async () => {
  const config = loadResponsesConfig();
  return startService({
    name: 'responses',
    config,
    grpcPort: config.RESPONSES_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    build: (deps) => buildResponses(config, deps),
  });
});
