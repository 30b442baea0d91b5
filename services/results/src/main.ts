// The results service process: config, build, listen, signals. NATS is not a readiness condition: queries answer
// from ClickHouse while ingestion waits for the stream.
import { runMain, startService } from '@fieldwork/service-kit';
import { buildResults } from './app.js';
import { loadResultsConfig } from './config.js';

runMain(async () => {
  const config = loadResultsConfig();
  return startService({
    name: 'results',
    config,
    grpcPort: config.RESULTS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    build: (deps) => buildResults(config, deps),
  });
});
