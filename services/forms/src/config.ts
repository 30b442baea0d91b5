// Every environment variable of the forms service, with its default.
import { loadConfig, serviceVars, vars, z } from '@fieldwork/service-kit';

export const formsConfigShape = {
  ...serviceVars,
  /** gRPC port of the forms service. */
  FORMS_GRPC_PORT: vars.port(50053),
  /** PostgreSQL connection URL; the service keeps its tables in the schema `forms`. */
  DATABASE_URL: z.url(),
  DB_POOL_SIZE: vars.int(10),
};
export const loadFormsConfig = (env?: Record<string, string | undefined>) => loadConfig(formsConfigShape, env);
