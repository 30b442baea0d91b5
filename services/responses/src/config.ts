// Every environment variable of the responses service, with its default.
import { loadConfig, serviceVars, vars, z } from '@fieldwork/service-kit';

export const responsesConfigShape = {
  ...serviceVars,
  /** gRPC port of the responses service. */
  RESPONSES_GRPC_PORT: vars.port(50054),
  /** PostgreSQL connection URL; the service keeps its tables in the schema `responses`. */
  DATABASE_URL: z.url(),
  /** NATS server URLs, comma-separated. */
  NATS_URL: vars.string('nats://127.0.0.1:4222'),
  /** Prefix of stream names and subjects, so that several installs (or test runs) share one NATS. */
  NATS_PREFIX: vars.string(''),
  DB_POOL_SIZE: vars.int(10),
};
export const loadResponsesConfig = (env?: Record<string, string | undefined>) => loadConfig(responsesConfigShape, env);
