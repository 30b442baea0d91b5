// Every environment variable of the exports service, with its default.
import { loadConfig, serviceVars, vars, z } from '@fieldwork/service-kit';

export const exportsConfigShape = {
  ...serviceVars,
  /** gRPC port of the exports service. */
  EXPORTS_GRPC_PORT: vars.port(50056),
  /** PostgreSQL connection URL; the service keeps its tables in the schema `exports`. */
  DATABASE_URL: z.url(),
  /** NATS server URLs, comma-separated. */
  NATS_URL: vars.string('nats://127.0.0.1:4222'),
  /** Prefix of stream names and subjects. */
  NATS_PREFIX: vars.string(''),
  DB_POOL_SIZE: vars.int(10),
};
export const loadExportsConfig = (env?: Record<string, string | undefined>) => loadConfig(exportsConfigShape, env);
