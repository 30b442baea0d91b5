// What the projects use cases depend on; passed in, so unit tests can use fakes.
import type { auth, exports_, forms, responses, results } from '@fieldwork/proto';
import type { Logger, PromiseClient, Sql } from '@fieldwork/service-kit';

export type AuthClient = PromiseClient<typeof auth.AuthServiceService, auth.AuthServiceClient>;
export type FormsClient = PromiseClient<typeof forms.FormsServiceService, forms.FormsServiceClient>;
export type ResponsesClient = PromiseClient<typeof responses.ResponsesServiceService, responses.ResponsesServiceClient>;
export type ResultsClient = PromiseClient<typeof results.ResultsServiceService, results.ResultsServiceClient>;
export type ExportsClient = PromiseClient<typeof exports_.ExportsServiceService, exports_.ExportsServiceClient>;

/** The part of the object store projects use (logos and uploaded files). */
export interface FileStore {
  put(key: string, body: Buffer, options?: { contentType?: string; size?: number }): Promise<unknown>;
  /** The size of a stored object (one the gateway streamed), undefined when missing. */
  stat(key: string): Promise<{ size: number } | undefined>;
  presignGet(key: string, options: { expiresInSeconds: number; filename?: string }): Promise<string>;
  /** A purge removes a project's uploaded files and its logo. */
  delete(key: string): Promise<void>;
  list(prefix?: string): AsyncIterable<string>;
}

export interface ProjectsDeps {
  sql: Sql;
  log: Logger;
  auth: AuthClient;
  forms: FormsClient;
  responses: ResponsesClient;
  /** Response counts for the project home and summaries come from the results store (ClickHouse). */
  results: ResultsClient;
  files: FileStore;
}

/** Per-call context: the request id travels to the services we call. */
export interface Ctx {
  requestId: string;
}
