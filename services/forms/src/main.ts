// The forms service process: config, build, listen, signals.
import { runMain, startService } from '@fieldwork/service-kit';
import { loadFormsConfig } from './config.js';
import { formsGrpc } from './grpc/forms.grpc.js';
import { SchemaService } from './service/schema.service.js';

runMain(async () => {
  const config = loadFormsConfig();
  return startService({
    name: 'forms',
    config,
    grpcPort: config.FORMS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    build: async ({ log, sql }) => ({ services: [formsGrpc(new SchemaService(sql), log)] }),
  });
});
