// What the global setup tells the tests about the stack it started, passed in one environment variable (Playwright
// starts its workers after the global setup, with its environment).
import type { DemoSettings, StackPorts } from '@fieldwork/launcher';

export interface StackInfo {
  /** The gateway, serving the built web app at / and the API at /api/. */
  baseUrl: string;
  /** gRPC ports of the services (for setup a journey cannot do over HTTP, e.g. workspace features). */
  ports: StackPorts;
  /** The run's fresh database (for what only the database shows, e.g. the mail outbox). */
  databaseUrl: string;
  /** The seeded demo user. Journeys do not change it: they make their own users (see `owner` in fixtures.ts). */
  demo: DemoSettings & { userId: number; organizationId: number };
  /** CONTEXT_SIGNING_SECRET of the stack: calls straight to a service are sealed with it (service-kit call-seal.ts). */
  contextSecret: string;
  /**
   * The OpenID provider the auth service offers as `testidp` (oidc-provider, started with the stack; any email
   * address is a login there, any password), sign-up being on.
   */
  oidcIssuer: string;
}

export const STACK_ENV = 'FIELDWORK_E2E_STACK';

export function stackInfo(): StackInfo {
  const raw = process.env[STACK_ENV];
  if (!raw)
    throw new Error(
      `${STACK_ENV} is not set: run the suite with playwright test -c web/e2e/playwright.config.ts, whose global setup starts the stack`,
    );
  return JSON.parse(raw) as StackInfo;
}

/** The gRPC address of a service of the stack. */
export const grpcAddress = (stack: StackInfo, service: keyof StackPorts) => `127.0.0.1:${stack.ports[service]}`;
