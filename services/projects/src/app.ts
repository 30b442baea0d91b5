// Wiring only: builds the projects service from its dependencies.
import { auth, forms, responses, results } from '@fieldwork/proto';
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
import { SettingsService } from './service/settings.service.js';
import { StructureService } from './service/structure.service.js';

export async function buildProjects(config: ProjectsConfig, { sql, log }: ServiceDeps): Promise<BuiltService> {
  const files = createObjectStore(config);
  await files.ensureReady();
  const deps: ProjectsDeps = {
    sql,
    log,
    auth: createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR),
    forms: createClient(forms.FormsServiceClient, config.FORMS_GRPC_ADDR),
    responses: createClient(responses.ResponsesServiceClient, config.RESPONSES_GRPC_ADDR),
    results: createClient(results.ResultsServiceClient, config.RESULTS_GRPC_ADDR),
    files,
  };
  const access = new AccessResolver(sql, deps.auth);
  const projectService = new ProjectService(deps, access);
  const users = new ProjectUserService(deps, access);
  const services = {
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
      deps.auth.close();
      deps.forms.close();
      deps.responses.close();
    },
  };
}
