// Every environment variable of the results service, with its default.
import { loadConfig, natsVars, serviceVars, vars } from '@fieldwork/service-kit';

export const resultsConfigShape = {
  ...serviceVars,
  ...natsVars,
  /** gRPC port of the results service. */
  RESULTS_GRPC_PORT: vars.port(50055),
  /** A ClickHouse server (http://user:pass@host:8123); when empty the embedded chDB engine is used. */
  CLICKHOUSE_URL: vars.string(''),
  /** Data directory of the embedded chDB engine (only one process may open it). */
  CLICKHOUSE_PATH: vars.string('.data/chdb'),
  /** Addresses (host:port) of the services results calls. */
  AUTH_GRPC_ADDR: vars.string('127.0.0.1:50051'),
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  FORMS_GRPC_ADDR: vars.string('127.0.0.1:50053'),
  /** The ClickHouse database of Fieldwork's tables. */
  CLICKHOUSE_DATABASE: vars.string('fieldwork'),
  /** A ClickHouse cluster name (remote_servers): Replicated tables on every node and Distributed tables over them. */
  CLICKHOUSE_CLUSTER: vars.string(''),
  /** Megabytes of whole results payloads cached in this process, invalidated by new data (0: no cache). */
  RESULTS_CACHE_MB: vars.int(64),
  /** This process reads the RESPONSES stream into ClickHouse and keeps the aggregates (the writer); false: queries only. */
  RESULTS_INGEST: vars.bool(true),
};
export const loadResultsConfig = (env?: Record<string, string | undefined>) => loadConfig(resultsConfigShape, env);
export type ResultsConfig = ReturnType<typeof loadResultsConfig>;
