// The results service process: config, build, listen, signals.
import { access, mkdir } from 'node:fs/promises';
import { constants } from 'node:fs';
import { runMain, startService } from '@fieldwork/service-kit';
import { loadResultsConfig } from './config.js';
import { resultsGrpc } from './grpc/results.grpc.js';

runMain(async () => {
  const config = loadResultsConfig();
  // The embedded engine's directory must exist and be writable; the engine itself opens with the results issue.
  if (config.CLICKHOUSE_URL === '') await mkdir(config.CLICKHOUSE_PATH, { recursive: true });
  return startService({
    name: 'results',
    config,
    grpcPort: config.RESULTS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    nats: true,
    build: async ({ log }) => ({
      services: [resultsGrpc(log)],
      checks: config.CLICKHOUSE_URL === '' ? [() => access(config.CLICKHOUSE_PATH, constants.W_OK)] : [],
    }),
  });
});
