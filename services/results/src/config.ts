// Every environment variable of the results service, with its default.
import { loadConfig, serviceVars, vars, z } from '@fieldwork/service-kit';

export const resultsConfigShape = {
  ...serviceVars,
  /** gRPC port of the results service. */
  RESULTS_GRPC_PORT: vars.port(50055),
  /** PostgreSQL connection URL; the service keeps its tables in the schema `results`. */
  DATABASE_URL: z.url(),
  /** NATS server URLs, comma-separated. */
  NATS_URL: vars.string('nats://127.0.0.1:4222'),
  /** Prefix of stream names and subjects. */
  NATS_PREFIX: vars.string(''),
  /** A ClickHouse server (http://user:pass@host:8123/db); when empty the embedded chDB engine is used. */
  CLICKHOUSE_URL: vars.string(''),
  /** Data directory of the embedded chDB engine (only one process may open it). */
  CLICKHOUSE_PATH: vars.string('.data/chdb'),
  DB_POOL_SIZE: vars.int(10),
};
export const loadResultsConfig = (env?: Record<string, string | undefined>) => loadConfig(resultsConfigShape, env);
