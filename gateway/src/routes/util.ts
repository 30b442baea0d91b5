// Small helpers shared by the route files.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GRANT_KEY, type CallMeta } from '@fieldwork/service-kit';
import { problems, type Problem } from '@fieldwork/service-kit/problems';
import { INT32_MAX } from '../schemas.js';

/** The gRPC call metadata of a request: its id, its trace and, on a project's routes, its signed grant (plugins/app/access.ts). */
export const meta = (request: FastifyRequest): CallMeta => ({
  requestId: request.id,
  headers: request.grant
    ? { traceparent: request.traceparent, [GRANT_KEY]: request.grant }
    : { traceparent: request.traceparent },
});

/** A positive integer path id, or the given problem (the spec's "Invalid ... Id!" messages). */
export function parseId(value: string, invalid: () => Problem): number {
  if (!/^\d{1,15}$/.test(value)) throw invalid();
  const id = Number(value);
  if (id <= 0) throw invalid();
  return id;
}

export const secured = [{ jwt: [] }];

/**
 * An integer of the query string (page, page_size, limit), `fallback` when absent, else between `min` and `max`
 * (at most an int32 proto field's largest value): digits only, anything else or out of range refused with 400.
 */
export function queryInt(v: unknown, fallback: number, field: string, min = 0, max = INT32_MAX): number {
  if (v === undefined || v === '') return fallback;
  if (typeof v !== 'string' || !/^\d{1,20}$/.test(v))
    throw problems.invalidFields({ [field]: ['A valid integer is required.'] });
  const n = Number(v);
  if (n > max) throw problems.invalidFields({ [field]: [`Ensure this value is less than or equal to ${max}.`] });
  if (n < min) throw problems.invalidFields({ [field]: [`Ensure this value is greater than or equal to ${min}.`] });
  return n;
}

/**
 * The route config of a data route of a workspace (projects, sites, forms, responses, results, exports): the only
 * routes an API key may call (the auth plugin refuses a key anywhere else).
 */
export const apiKeyRoute = { apiKey: true } as const;

/** The route config that limits a route to `app.rateLimits[kind]` requests a minute per client address. */
export const limit = (app: FastifyInstance, kind: 'login' | 'lookup' | 'mail' | 'reports') => ({
  rateLimit: { max: app.rateLimits[kind], timeWindow: 60_000 },
});

/** The window of the collection links' limits. */
export const LINK_WINDOW_MS = 10_000;

/**
 * A pre-handler that limits a collection link's anonymous calls (after `authenticate`, which says whose they are) per
 * client address, then per link, each over LINK_WINDOW_MS (429.2 with Retry-After past either; a call refused for its
 * address does not use the link's allowance): `uploads` for response uploads and media calls, keyed by the token's
 * link; `opens` for new collection tokens, keyed by the link's token in the path. People (a JWT or an API key) are
 * not counted here.
 */
export function linkLimits(app: FastifyInstance, kind: 'uploads' | 'opens') {
  const anonymous = (r: FastifyRequest) => kind === 'opens' || (r.caller?.collect_survey_id ?? 0) > 0;
  const limits = app.rateLimits;
  const byAddress = app.createRateLimit({
    max: kind === 'opens' ? limits.addressOpens : limits.addressUploads,
    timeWindow: LINK_WINDOW_MS,
    keyGenerator: (r) => `${kind}:${r.ip}`,
  });
  const byLink = app.createRateLimit({
    max: kind === 'opens' ? limits.linkOpens : limits.linkUploads,
    timeWindow: LINK_WINDOW_MS,
    keyGenerator: (r) =>
      kind === 'opens'
        ? `open:${(r.params as { token?: string }).token ?? ''}`
        : `upload:${r.caller.collect_survey_id}`,
  });
  return async (r: FastifyRequest, reply: FastifyReply) => {
    if (!anonymous(r)) return;
    for (const check of [byAddress, byLink]) {
      const l = await check(r);
      if (!l.isAllowed && l.isExceeded) {
        void reply.header('retry-after', String(l.ttlInSeconds));
        throw problems.rateLimited();
      }
    }
  };
}

/**
 * The route config that limits an authenticated route to `app.rateLimits[kind]` requests a minute per caller (its
 * user; counted after authentication, so the route's `preHandler` must authenticate).
 */
export const limitPerCaller = (app: FastifyInstance, kind: 'people') => ({
  rateLimit: {
    max: app.rateLimits[kind],
    timeWindow: 60_000,
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `${kind}:${request.caller.user_id}`,
  },
});

/** Route options with more schema parts (params, querystring, body, response) added to the shared ones. */
export const withSchema = <O extends { schema: object }>(opts: O, schema: Record<string, unknown>) => ({
  ...opts,
  schema: { ...opts.schema, ...schema },
});

/** A page whose page size was over the cap says so (issue 19: no silent cap): `detail` names the size used. */
export const cappedNote = (list: { page_size: number; page_size_capped: boolean }) =>
  list.page_size_capped
    ? { detail: `page_size is at most ${list.page_size}: pages of ${list.page_size} are answered.` }
    : {};
