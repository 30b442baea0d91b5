// The responses service process: config, build, listen, signals.
import { ensureStream, runMain, startService } from '@fieldwork/service-kit';
import { loadResponsesConfig } from './config.js';
import { responsesGrpc } from './grpc/responses.grpc.js';
import { CountService } from './service/count.service.js';
import { responsesStream } from './stream.js';

runMain(async () => {
  const config = loadResponsesConfig();
  return startService({
    name: 'responses',
    config,
    grpcPort: config.RESPONSES_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    nats: true,
    build: async ({ log, nats, sql }) => {
      await ensureStream(nats!.jsm, responsesStream(config.NATS_PREFIX));
      return { services: [responsesGrpc(new CountService(sql), log)] };
    },
  });
});
