// Names for the generated API types (schema.d.ts, from the gateway's OpenAPI document): the records the gateway
// answers, and the JSON body and answer of one call, by its path and method as the document names them.
import type { components, paths } from './schema';

/** A record of the API (Project, Site, Group, Team, ProjectUser, Survey, Response, ...). */
export type ApiRecord<N extends keyof components['schemas']> = components['schemas'][N];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON body a call takes (the fields the gateway reads; null: none). */
export type ApiBody<P extends keyof paths, M extends Method> = NonNullable<
  JsonOf<NonNullable<Operation<P, M> extends { requestBody?: infer B } ? B : never>>
>;

/** The JSON answer of a call with a given status. */
export type ApiReply<P extends keyof paths, M extends Method, S extends number = 200> =
  Operation<P, M> extends { responses: infer R } ? (S extends keyof R ? JsonOf<R[S]> : never) : never;
