// Environment configuration: each process declares its variables once (with defaults) and parses them at start-up.
import { z } from 'zod';

export { z };

/** Thrown when environment variables are missing or invalid; lists every bad variable at once. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid environment variables:\n${issues.map((i) => `  ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reusable variable types. */
export const vars = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: (fallback?: string) => (fallback === undefined ? z.url() : z.url().default(fallback)),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  int: (fallback: number) => z.coerce.number().int().default(fallback),
  string: (fallback: string) => z.string().default(fallback),
};

/** The variables every service shares. */
export const serviceVars = {
  /** Log level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: vars.logLevel(),
  /** Interface the gRPC server binds to. */
  GRPC_HOST: vars.string('127.0.0.1'),
  /** Seconds to wait for in-flight calls on shutdown before cancelling them. */
  SHUTDOWN_TIMEOUT_S: vars.int(10),
  /** Exit when the launcher that started this process goes away (its stdin pipe closes). */
  EXIT_WITH_PARENT: vars.bool(false),
  /** PostgreSQL connection URL; each service keeps its tables in its own schema. */
  DATABASE_URL: z.url(),
  /** PostgreSQL pool size. */
  DB_POOL_SIZE: vars.int(10),
  /** auto: run the migrations at start; skip: someone else did (the chart's hook); only: run them and exit. */
  MIGRATE: z.enum(['auto', 'skip', 'only']).default('auto'),
  /** Port of the Prometheus metrics endpoint (GET /metrics); 0: no endpoint. */
  METRICS_PORT: vars.port(0),
  /**
   * The deployment's key for the project grants the gateway passes in gRPC metadata (grant.ts) and for the seal of
   * every gRPC call between our processes (call-seal.ts); the same value on the gateway and every service. Unset
   * (development only): no grant is used, each service asks the projects service, and calls are not checked.
   */
  CONTEXT_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
};

/** The variables of services that use NATS. */
export const natsVars = {
  /** NATS server URLs, comma-separated. */
  NATS_URL: vars.string('nats://127.0.0.1:4222'),
  /** Prefix of stream names and subjects, so that several installs (or test runs) share one NATS. */
  NATS_PREFIX: vars.string(''),
};

/** What startService reads from a service's parsed config. */
export type ServiceConfig = z.infer<z.ZodObject<typeof serviceVars>> & Partial<z.infer<z.ZodObject<typeof natsVars>>>;

/**
 * Parses `source` (the process environment by default) against `shape`.
 * Throws a ConfigError naming every invalid or missing variable.
 */
export function loadConfig<T extends z.ZodRawShape>(
  shape: T,
  source: Record<string, string | undefined> = process.env,
): z.infer<z.ZodObject<T>> {
  // Empty strings count as unset, so `FOO= cmd` falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = z.object(shape).safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join('.');
        const missing = cleaned[name] === undefined;
        return missing
          ? `${name}: is required but not set`
          : `${name}: ${issue.message} (got "${String(cleaned[name])}")`;
      }),
    );
  }
  return result.data;
}
