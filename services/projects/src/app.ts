// Wiring only: builds the projects service from its dependencies.
import { auth, exports_, forms, responses, results } from '@fieldwork/proto';
import { createClient, createObjectStore, type BuiltService, type ServiceDeps } from '@fieldwork/service-kit';
import type { ProjectsConfig } from './config.js';
import { projectsGrpc } from './grpc/projects.grpc.js';
import { AccessResolver } from './service/access.js';
import { BulkUserService } from './service/bulk-user.service.js';
import { CollectionService } from './service/collection.service.js';
import { AdvancedResultService } from './service/advanced-result.service.js';
import type { ProjectsDeps } from './service/deps.js';
import { FolderService } from './service/folder.service.js';
import { ProjectService } from './service/project.service.js';
import { ProjectUserService } from './service/project-user.service.js';
import { PurgeRunner, PurgeService } from './service/purge.service.js';
import { SettingsService } from './service/settings.service.js';
import { StructureService } from './service/structure.service.js';

export async function buildProjects(config: ProjectsConfig, { sql, log }: ServiceDeps): Promise<BuiltService> {
  // Every call to another service is sealed with the deployment's secret (service-kit call-seal.ts).
  const sealed = { secret: config.CONTEXT_SIGNING_SECRET ?? '' };
  const files = createObjectStore(config);
  await files.ensureReady();
  const deps: ProjectsDeps = {
    sql,
    log,
    auth: createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR, sealed),
    forms: createClient(forms.FormsServiceClient, config.FORMS_GRPC_ADDR, sealed),
    responses: createClient(responses.ResponsesServiceClient, config.RESPONSES_GRPC_ADDR, sealed),
    results: createClient(results.ResultsServiceClient, config.RESULTS_GRPC_ADDR, sealed),
    files,
  };
  const access = new AccessResolver(sql, deps.auth);
  const projectService = new ProjectService(deps, access);
  const users = new ProjectUserService(deps, access);
  const exportsClient = createClient(exports_.ExportsServiceClient, config.EXPORTS_GRPC_ADDR, sealed);
  // A deleted project's purge: the other services' parts in this order (the responses service also empties the
  // project's stream messages, before the results store's rows go), then this service's own.
  const runner = new PurgeRunner(() => purge, config.PURGE_POLL_MS, log);
  const purge: PurgeService = new PurgeService(
    deps,
    access,
    [
      { name: 'responses', call: (req, ctx) => deps.responses.purgeProject(req, ctx) },
      { name: 'results', call: (req, ctx) => deps.results.purgeProject(req, ctx) },
      { name: 'exports', call: (req, ctx) => exportsClient.purgeProject(req, ctx) },
      { name: 'forms', call: (req, ctx) => deps.forms.purgeProject(req, ctx) },
    ],
    runner.kick,
  );
  runner.start();
  const services = {
    purge,
    projects: projectService,
    settings: new SettingsService(deps, access, projectService),
    folders: new FolderService(deps, access),
    structure: new StructureService(deps, access),
    users,
    bulk: new BulkUserService(deps, access, users),
    collection: new CollectionService(deps, access, projectService),
    advanced: new AdvancedResultService(deps, access),
  };
  return {
    services: [projectsGrpc(services, log)],
    close: async () => {
      await runner.stop();
      exportsClient.close();
      deps.results.close();
      deps.auth.close();
      deps.forms.close();
      deps.responses.close();
    },
  };
}
