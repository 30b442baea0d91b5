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
  /** The exports service: a deleted project's purge removes its export and import jobs and files there. */
  EXPORTS_GRPC_ADDR: vars.string('127.0.0.1:50056'),
  /** How often the purge job looks for a purge to run (milliseconds); a new purge starts it at once. */
  PURGE_POLL_MS: vars.int(5000),
};

export const loadProjectsConfig = (env?: Record<string, string | undefined>) => loadConfig(projectsConfigShape, env);
export type ProjectsConfig = ReturnType<typeof loadProjectsConfig>;
