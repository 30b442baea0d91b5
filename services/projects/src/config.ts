// Every environment variable of the projects service, with its default.
import { loadConfig, objectStoreVars, serviceVars, vars } from '@fieldwork/service-kit';

export const projectsConfigShape = {
  ...serviceVars,
  ...objectStoreVars,
  /** gRPC port of the projects service. */
  PROJECTS_GRPC_PORT: vars.port(50052),
  /** Addresses (host:port) of the services projects calls. */
  AUTH_GRPC_ADDR: vars.string('127.0.0.1:50051'),
  FORMS_GRPC_ADDR: vars.string('127.0.0.1:50053'),
  RESPONSES_GRPC_ADDR: vars.string('127.0.0.1:50054'),
  RESULTS_GRPC_ADDR: vars.string('127.0.0.1:50055'),
};

export const loadProjectsConfig = (env?: Record<string, string | undefined>) => loadConfig(projectsConfigShape, env);
export type ProjectsConfig = ReturnType<typeof loadProjectsConfig>;
