// The exports service process: config, build, listen, signals.
import { ensureStream, runMain, startService } from '@fieldwork/service-kit';
import { loadExportsConfig } from './config.js';
import { exportsGrpc } from './grpc/exports.grpc.js';
import { jobsStream } from './stream.js';

runMain(async () => {
  const config = loadExportsConfig();
  return startService({
    name: 'exports',
    config,
    grpcPort: config.EXPORTS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    nats: true,
    build: async ({ log, nats }) => {
      await ensureStream(nats!.jsm, jobsStream(config.NATS_PREFIX));
      return { services: [exportsGrpc(log)] };
    },
  });
});
