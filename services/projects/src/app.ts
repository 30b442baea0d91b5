// Wiring only: builds the projects service from its dependencies.
import { auth } from '@fieldwork/proto';
import { createClient, type BuiltService, type ServiceDeps } from '@fieldwork/service-kit';
import type { ProjectsConfig } from './config.js';
import { projectsGrpc } from './grpc/projects.grpc.js';
import { ProjectService } from './service/project.service.js';

export async function buildProjects(config: ProjectsConfig, { sql, log }: ServiceDeps): Promise<BuiltService> {
  const authClient = createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR);
  const service = new ProjectService(sql, authClient, log);
  return { services: [projectsGrpc(service, log)], close: async () => authClient.close() };
}
