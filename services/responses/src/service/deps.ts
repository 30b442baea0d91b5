// What the responses use cases depend on; passed in, so unit tests can use fakes.
import type { auth, forms, projects } from '@fieldwork/proto';
import type { CallContext, Logger, ObjectStore, PromiseClient, Sql } from '@fieldwork/service-kit';

export type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
export type FormsClient = PromiseClient<typeof forms.FormsServiceService, forms.FormsServiceClient>;
export type AuthClient = PromiseClient<typeof auth.AuthServiceService, auth.AuthServiceClient>;

export interface ResponsesDeps {
  sql: Sql;
  log: Logger;
  projects: ProjectsClient;
  forms: FormsClient;
  auth: AuthClient;
  files: ObjectStore;
  /** Called after a commit that wrote outbox rows, so they are published at once. */
  published: () => void;
  /** Quotas of a collection link (config LINK_MAX_*). */
  linkLimits: { responses: number; mediaBytes: number; pendingMedia: number };
}

export interface Ctx {
  requestId: string;
  /** The call's metadata: a gateway's signed grant of the project (service-kit grant.ts), when it decided one. */
  metadata?: CallContext['metadata'];
}
