// Every environment variable of the forms service, with its default.
import { loadConfig, objectStoreVars, serviceVars, vars, z } from '@fieldwork/service-kit';

const atLeast = (min: number, fallback: number) => z.coerce.number().int().min(min).default(fallback);

export const formsConfigShape = {
  ...serviceVars,
  ...objectStoreVars,
  /** Address (host:port) of the projects service. */
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  /** Address (host:port) of the responses service: replacing a form that has responses needs a confirmation. */
  RESPONSES_GRPC_ADDR: vars.string('127.0.0.1:50054'),
  /** gRPC port of the forms service. */
  FORMS_GRPC_PORT: vars.port(50053),
  /** Largest form file (CSV or XLSX) converted, in bytes; a larger one is refused (413.2) before it is read. */
  FORMS_MAX_FILE_BYTES: atLeast(1, 10 * 1024 * 1024),
  /** Most rows with content in one sheet of a form file (or records of a CSV); more are refused (400) before conversion. */
  FORMS_MAX_SHEET_ROWS: atLeast(1, 50_000),
  /** Conversions running at once, each in its own worker thread; 0: one fewer than the cores, from 1 to 4. */
  FORMS_CONVERT_WORKERS: atLeast(0, 0),
  /** Conversions waiting for a worker; past it a conversion is refused (503.2, Retry-After). */
  FORMS_CONVERT_QUEUE: atLeast(0, 4),
  /**
   * Conversions one workspace runs at once (its share; the queue is shared fairly, convert/fair-share.ts); 0: all the
   * workers but one, at least 1. Past its share while others convert, a workspace's conversion is refused (429.3,
   * Retry-After).
   */
  FORMS_CONVERT_WORKSPACE_WORKERS: atLeast(0, 0),
  /** Milliseconds a conversion may run before its worker is terminated (400.12); keep it under the gateway's GRPC_TIMEOUT_MS. */
  FORMS_CONVERT_TIMEOUT_MS: atLeast(1, 10_000),
  /** Heap (old generation) of a conversion worker, in MB; past it the conversion is stopped (400.13). */
  FORMS_CONVERT_HEAP_MB: atLeast(1, 256),
};
export const loadFormsConfig = (env?: Record<string, string | undefined>) => loadConfig(formsConfigShape, env);
export type FormsConfig = ReturnType<typeof loadFormsConfig>;
