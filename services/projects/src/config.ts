// Every environment variable of the projects service, with its default.
import { loadConfig, serviceVars, vars } from '@fieldwork/service-kit';

export const projectsConfigShape = {
  ...serviceVars,
  /** gRPC port of the projects service. */
  PROJECTS_GRPC_PORT: vars.port(50052),
  /** Address (host:port) of the auth service. */
  AUTH_GRPC_ADDR: vars.string('127.0.0.1:50051'),
};

export const loadProjectsConfig = (env?: Record<string, string | undefined>) => loadConfig(projectsConfigShape, env);
export type ProjectsConfig = ReturnType<typeof loadProjectsConfig>;
