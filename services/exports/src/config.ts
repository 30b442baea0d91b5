// Every environment variable of the exports service, with its default.
import { loadConfig, natsVars, objectStoreVars, serviceVars, vars } from '@fieldwork/service-kit';

export const exportsConfigShape = {
  ...serviceVars,
  ...natsVars,
  ...objectStoreVars,
  /** gRPC port of the exports service. */
  EXPORTS_GRPC_PORT: vars.port(50056),
  /** Addresses (host:port) of the services exports calls. */
  AUTH_GRPC_ADDR: vars.string('127.0.0.1:50051'),
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  FORMS_GRPC_ADDR: vars.string('127.0.0.1:50053'),
  RESPONSES_GRPC_ADDR: vars.string('127.0.0.1:50054'),
  /** Hours an export file is kept (and its link works); expired files are deleted. */
  EXPORT_FILE_TTL_H: vars.int(24),
  /** Responses read per page from the responses service. */
  EXPORT_PAGE_SIZE: vars.int(5000),
  /** Pause between pages, in ms: throttles exports on a busy database (0: none). */
  EXPORT_PAGE_DELAY_MS: vars.int(0),
  /** Attempts of a job before it is marked failed (a worker that dies mid-job leaves it to the next attempt). */
  EXPORT_MAX_ATTEMPTS: vars.int(3),
  /** Seconds without a sign of life before JetStream gives a running job to another worker. */
  EXPORT_ACK_WAIT_S: vars.int(10),
};
export const loadExportsConfig = (env?: Record<string, string | undefined>) => loadConfig(exportsConfigShape, env);
export type ExportsConfig = ReturnType<typeof loadExportsConfig>;
