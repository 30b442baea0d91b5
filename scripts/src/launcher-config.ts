// Every environment variable of the launcher (npm start) and the CLI, with its default.
import { loadConfig, vars, z } from '@fieldwork/service-kit';
import { repoPath } from './paths.js';

export const launcherConfigShape = {
  /** Where PostgreSQL (when we start it), NATS, chDB, objects and secrets live between runs. */
  FIELDWORK_DATA_DIR: vars.string(repoPath('.data')),
  /** An existing PostgreSQL (any database on the server); empty: the local server, else our own cluster. */
  DATABASE_URL: z.union([z.literal(''), z.url()]).default(''),
  /** Database the stack uses on that server. */
  DATABASE_NAME: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'lower-case letters, digits and _')
    .default('fieldwork'),
  /** `auto`: use local PostgreSQL and NATS when they answer, else start our own; `own`: always start our own. */
  FIELDWORK_INFRA: z.enum(['auto', 'own']).default('auto'),
  /** Port of our own PostgreSQL cluster when we have to start one. */
  FIELDWORK_PG_PORT: vars.port(54329),
  /** An existing NATS with JetStream; empty: the local server, else nats-server started by us. */
  NATS_URL: vars.string(''),
  /** Port of our own nats-server when 4222 is taken by a server without JetStream. */
  FIELDWORK_NATS_PORT: vars.port(42229),
  /** Ports of the gateway and the services. */
  GATEWAY_PORT: vars.port(8080),
  GATEWAY_HOST: vars.string('0.0.0.0'),
  AUTH_GRPC_PORT: vars.port(50051),
  PROJECTS_GRPC_PORT: vars.port(50052),
  FORMS_GRPC_PORT: vars.port(50053),
  RESPONSES_GRPC_PORT: vars.port(50054),
  RESULTS_GRPC_PORT: vars.port(50055),
  EXPORTS_GRPC_PORT: vars.port(50056),
  /**
   * Processes per service (all but the results service, whose chDB directory one process owns): replica n listens on
   * its service's port + 100 x (n - 1), and the callers balance over them.
   */
  FIELDWORK_REPLICAS: vars.int(1),
  /** Public URL printed and used in mailed links; defaults to http://localhost:<GATEWAY_PORT>. */
  PUBLIC_URL: vars.string(''),
  /** Secret signing access tokens; defaults to one generated once and kept in the data directory. */
  JWT_SECRET: vars.string(''),
  /** Secret signing the object store's URLs; defaults to one generated once and kept in the data directory. */
  OBJECT_STORE_SIGNING_SECRET: vars.string(''),
  CONTEXT_SIGNING_SECRET: vars.string(''),
  LOG_LEVEL: vars.logLevel(),
  /** `pretty` prints readable prefixed lines; `json` passes each process's JSON lines through. */
  LOG_FORMAT: z.enum(['pretty', 'json']).default('pretty'),
  /** The demo login (single-machine mode only). */
  DEMO_USERNAME: vars.string('demo'),
  DEMO_EMAIL: vars.string('demo@example.com'),
  DEMO_PASSWORD: vars.string('fieldwork-demo'),
  DEMO_WORKSPACE: vars.string('Demo Workspace'),
  /** Set to false to start without the demo workspace. */
  DEMO_SEED: vars.bool(true),
};

export const loadLauncherConfig = () => loadConfig(launcherConfigShape);
export type LauncherConfig = ReturnType<typeof loadLauncherConfig>;
