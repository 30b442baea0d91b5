// Every environment variable of the responses service, with its default.
import { loadConfig, natsVars, serviceVars, vars } from '@fieldwork/service-kit';

export const responsesConfigShape = {
  ...serviceVars,
  ...natsVars,
  /** gRPC port of the responses service. */
  RESPONSES_GRPC_PORT: vars.port(50054),
};
export const loadResponsesConfig = (env?: Record<string, string | undefined>) => loadConfig(responsesConfigShape, env);
