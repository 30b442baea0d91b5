// Every environment variable of the forms service, with its default.
import { loadConfig, serviceVars, vars } from '@fieldwork/service-kit';

export const formsConfigShape = {
  ...serviceVars,
  /** gRPC port of the forms service. */
  FORMS_GRPC_PORT: vars.port(50053),
};
export const loadFormsConfig = (env?: Record<string, string | undefined>) => loadConfig(formsConfigShape, env);
