// Every environment variable of the responses service, with its default.
import { loadConfig, natsVars, objectStoreVars, serviceVars, vars } from '@fieldwork/service-kit';

export const responsesConfigShape = {
  ...serviceVars,
  ...natsVars,
  ...objectStoreVars,
  /** gRPC port of the responses service. */
  RESPONSES_GRPC_PORT: vars.port(50054),
  /** Addresses (host:port) of the services responses calls. */
  AUTH_GRPC_ADDR: vars.string('127.0.0.1:50051'),
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  FORMS_GRPC_ADDR: vars.string('127.0.0.1:50053'),
  /** Host and port shown to BI tools for SQL access (project/{id}/postgres/); default: those of DATABASE_URL. */
  SQL_ACCESS_HOST: vars.string(''),
  SQL_ACCESS_PORT: vars.int(0),
  /** Published outbox events superseded by a newer one of the same response are deleted after this many hours. */
  OUTBOX_RETENTION_HOURS: vars.int(168),
  /** Per collection link: at most this many responses, and this many bytes of image and signature files. */
  LINK_MAX_RESPONSES: vars.int(10_000),
  LINK_MAX_MEDIA_BYTES: vars.int(2 * 1024 * 1024 * 1024),
  /**
   * Per collection link: at most this many files asked for and not uploaded yet (each holds up to 15 MB of the quota
   * until it is uploaded or expires); a respondent's device asks for a response's few photos just before it sends them.
   */
  LINK_MAX_PENDING_MEDIA: vars.int(50),
  /** An image or signature upload not completed after this many seconds is deleted (its URL lasts 15 minutes). */
  MEDIA_PENDING_TTL_S: vars.int(3600),
  /** How often uploads never completed are looked for. */
  MEDIA_SWEEP_INTERVAL_S: vars.int(300),
};
export const loadResponsesConfig = (env?: Record<string, string | undefined>) => loadConfig(responsesConfigShape, env);
export type ResponsesConfig = ReturnType<typeof loadResponsesConfig>;
