// The results service process: config, build, listen, signals. NATS is not a readiness condition: queries answer
// from ClickHouse while ingestion waits for the stream.
import { runMain, startService } from '@fieldwork/service-kit';
import { buildResults, migrateResults, openEngine } from './app.js';
import { loadResultsConfig } from './config.js';

runMain(async () => {
  const config = loadResultsConfig();
  const engine = await openEngine(config);
  return startService({
    name: 'results',
    config,
    grpcPort: config.RESULTS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    migrate: (log) => migrateResults(engine, config, log),
    build: (deps) => buildResults(config, deps, engine),
  });
});
