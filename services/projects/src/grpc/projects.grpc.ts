// ProjectsService over gRPC: each call goes to one use case.
import { projects } from '@fieldwork/proto';
import { implement, type AsyncHandlers, type GrpcServiceRegistration, type Logger } from '@fieldwork/service-kit';
import type { ProjectService } from '../service/project.service.js';

export function projectsGrpc(service: ProjectService, log: Logger): GrpcServiceRegistration {
  const handlers: AsyncHandlers<projects.ProjectsServiceServer> = {
    createProject: (req, ctx) => service.create(req, ctx.requestId),
    listProjects: (req, ctx) => service.list(req, ctx.requestId),
  };
  return {
    name: 'fieldwork.projects.v1.ProjectsService',
    definition: projects.ProjectsServiceService,
    implementation: implement(projects.ProjectsServiceService, handlers, log),
  };
}
