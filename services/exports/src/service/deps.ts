// What the exports use cases depend on.
import type { auth, forms, projects, responses } from '@fieldwork/proto';
import type { CallContext, Logger, ObjectStore, PromiseClient, Sql } from '@fieldwork/service-kit';

export type AuthClient = PromiseClient<typeof auth.AuthServiceService, auth.AuthServiceClient>;
export type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
export type FormsClient = PromiseClient<typeof forms.FormsServiceService, forms.FormsServiceClient>;
export type ResponsesClient = PromiseClient<typeof responses.ResponsesServiceService, responses.ResponsesServiceClient>;

export interface ExportsDeps {
  sql: Sql;
  log: Logger;
  store: ObjectStore;
  /** For the audit log (exports and imports are security events). */
  auth: AuthClient;
  projects: ProjectsClient;
  forms: FormsClient;
  responses: ResponsesClient;
  /** Publishes a job on the JOBS work queue. */
  enqueue: (jobId: string) => Promise<void>;
  /** Tells a request waiting for the job (the gateway's short wait) that it reached an end: done, failed or cancelled. */
  announceFinished: (jobId: string) => void;
  fileTtlHours: number;
  /** CONTEXT_SIGNING_SECRET: a gateway's grant is used when a call carries one. */
  contextSecret?: string;
}

export interface Ctx {
  requestId: string;
  /** The call's metadata: a gateway's signed grant of the project (service-kit grant.ts), when it decided one. */
  metadata?: CallContext['metadata'];
}
