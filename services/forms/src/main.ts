// The forms service process: config, build, listen, signals.
import { projects } from '@fieldwork/proto';
import { createClient, createObjectStore, runMain, startService } from '@fieldwork/service-kit';
import { loadFormsConfig } from './config.js';
import { formsGrpc } from './grpc/forms.grpc.js';
import { DocumentService } from './service/document.service.js';
import { SchemaService } from './service/schema.service.js';

runMain(async () => {
  const config = loadFormsConfig();
  const projectsClient = createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR);
  return startService({
    name: 'forms',
    config,
    grpcPort: config.FORMS_GRPC_PORT,
    migrations: new URL('../migrations', import.meta.url),
    build: async ({ log, sql }) => {
      const files = createObjectStore(config);
      return {
        services: [formsGrpc(new SchemaService(sql), new DocumentService(sql, projectsClient, files, log), log)],
        close: async () => projectsClient.close(),
      };
    },
  });
});
