// Small helpers shared by the route files.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallMeta } from '@fieldwork/service-kit';
import type { Problem } from '@fieldwork/service-kit/problems';

/** The gRPC call metadata of a request: its id travels to the services. */
export const meta = (request: FastifyRequest): CallMeta => ({ requestId: request.id, headers: { traceparent: request.traceparent } });

/** A positive integer path id, or the given problem (the spec's "Invalid ... Id!" messages). */
export function parseId(value: string, invalid: () => Problem): number {
  if (!/^\d{1,15}$/.test(value)) throw invalid();
  const id = Number(value);
  if (id <= 0) throw invalid();
  return id;
}

export const secured = [{ jwt: [] }];

/**
 * The route config of a data route of a workspace (projects, sites, forms, responses, results, exports): the only
 * routes an API key may call (the auth plugin refuses a key anywhere else).
 */
export const apiKeyRoute = { apiKey: true } as const;

/** The route config that limits a route to `app.rateLimits[kind]` requests a minute per client address. */
export const limit = (app: FastifyInstance, kind: 'login' | 'lookup' | 'mail' | 'reports') => ({ rateLimit: { max: app.rateLimits[kind], timeWindow: 60_000 } });
