// The forms service process: config, build, listen, signals.
import { runMain, startService } from '@fieldwork/service-kit';
import { loadFormsConfig } from './config.js';
import { formsGrpc } from './grpc/forms.grpc.js';

runMain(async () => {
  const config = loadFormsConfig();
  return startService({
    name: 'forms',
    config,
    grpcPort: config.FORMS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    build: async ({ log }) => ({ services: [formsGrpc(log)] }),
  });
});
