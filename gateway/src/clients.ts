// The gateway's long-lived gRPC channels, one per service, and their health checks.
import { credentials, makeClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { auth, exports_, forms, projects, responses, results } from '@fieldwork/proto';
import { createClient, type PromiseClient } from '@fieldwork/service-kit';

export type AuthClient = PromiseClient<typeof auth.AuthServiceService, auth.AuthServiceClient>;
export type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
export type FormsClient = PromiseClient<typeof forms.FormsServiceService, forms.FormsServiceClient>;
export type ResultsClient = PromiseClient<typeof results.ResultsServiceService, results.ResultsServiceClient>;
export type ResponsesClient = PromiseClient<typeof responses.ResponsesServiceService, responses.ResponsesServiceClient>;
export type ExportsClient = PromiseClient<typeof exports_.ExportsServiceService, exports_.ExportsServiceClient>;

export const SERVICE_NAMES = ['auth', 'projects', 'forms', 'responses', 'results', 'exports'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface Clients {
  auth: AuthClient;
  projects: ProjectsClient;
  forms: FormsClient;
  responses: ResponsesClient;
  results: ResultsClient;
  exports: ExportsClient;
  /** grpc.health.v1 Check of each service: resolves to its serving status. */
  health: Record<ServiceName, (timeoutMs: number) => Promise<string>>;
  close(): void;
}

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');
const STATUS_NAMES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

function healthCheck(address: string): { check: (timeoutMs: number) => Promise<string>; client: Client } {
  const client = new HealthClient(address, credentials.createInsecure()) as unknown as Client & {
    check: (
      req: { service: string },
      opts: { deadline: Date },
      cb: (err: ServiceError | null, res: { status: number | string }) => void,
    ) => void;
  };
  return {
    client,
    check: (timeoutMs) =>
      new Promise((resolve) => {
        client.check({ service: '' }, { deadline: new Date(Date.now() + timeoutMs) }, (err, res) => {
          if (err) resolve(`UNREACHABLE (${err.details || err.code})`);
          else resolve(typeof res.status === 'number' ? (STATUS_NAMES[res.status] ?? String(res.status)) : res.status);
        });
      }),
  };
}

/** Channels to the services; every call is sealed with `secret` (CONTEXT_SIGNING_SECRET, service-kit call-seal.ts). */
export function connectClients(addresses: Record<ServiceName, string>, timeoutMs: number, secret = ''): Clients {
  const opts = { defaultTimeoutMs: timeoutMs, ...(secret ? { secret } : {}) };
  const authClient = createClient(auth.AuthServiceClient, addresses.auth, opts);
  const projectsClient = createClient(projects.ProjectsServiceClient, addresses.projects, opts);
  const formsClient = createClient(forms.FormsServiceClient, addresses.forms, opts);
  const responsesClient = createClient(responses.ResponsesServiceClient, addresses.responses, opts);
  const resultsClient = createClient(results.ResultsServiceClient, addresses.results, opts);
  const exportsClient = createClient(exports_.ExportsServiceClient, addresses.exports, opts);
  const checks = Object.fromEntries(SERVICE_NAMES.map((n) => [n, healthCheck(addresses[n])])) as Record<
    ServiceName,
    ReturnType<typeof healthCheck>
  >;
  return {
    auth: authClient,
    projects: projectsClient,
    forms: formsClient,
    responses: responsesClient,
    results: resultsClient,
    exports: exportsClient,
    health: Object.fromEntries(SERVICE_NAMES.map((n) => [n, checks[n].check])) as Clients['health'],
    close: () => {
      authClient.close();
      projectsClient.close();
      formsClient.close();
      responsesClient.close();
      resultsClient.close();
      exportsClient.close();
      for (const c of Object.values(checks)) c.client.close();
    },
  };
}
