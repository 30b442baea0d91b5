// The forms service process: config, build, listen, signals.
import { runMain, startService } from '@fieldwork/service-kit';
import { buildForms } from './app.js';
import { loadFormsConfig } from './config.js';

runMain(async () => {
  const config = loadFormsConfig();
  return startService({
    name: 'forms',
    config,
    grpcPort: config.FORMS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    build: (deps) => buildForms(config, deps),
  });
});
