// Every environment variable of the forms service, with its default.
import { loadConfig, objectStoreVars, serviceVars, vars } from '@fieldwork/service-kit';

export const formsConfigShape = {
  ...serviceVars,
  ...objectStoreVars,
  /** Address (host:port) of the projects service. */
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  /** gRPC port of the forms service. */
  FORMS_GRPC_PORT: vars.port(50053),
};
export const loadFormsConfig = (env?: Record<string, string | undefined>) => loadConfig(formsConfigShape, env);
