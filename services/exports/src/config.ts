// Every environment variable of the exports service, with its default.
import { loadConfig, natsVars, serviceVars, vars } from '@fieldwork/service-kit';

export const exportsConfigShape = {
  ...serviceVars,
  ...natsVars,
  /** gRPC port of the exports service. */
  EXPORTS_GRPC_PORT: vars.port(50056),
};
export const loadExportsConfig = (env?: Record<string, string | undefined>) => loadConfig(exportsConfigShape, env);
