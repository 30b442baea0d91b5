// Access tokens: `Authorization: JWT <token>` verified with the secret the auth service signs with, and the
// caller of each authenticated request.
import fastifyJwt from '@fastify/jwt';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { common } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit/problems';
import type { RevocationCheck } from '@fieldwork/service-kit';
import type { SharedView } from '../../shared-view.js';

interface AccessClaims {
  user_id: number;
  sid: string;
  is_staff: boolean;
  is_superuser: boolean;
  token_type: string;
}

/** A collection link's token: an anonymous respondent allowed to collect in one project until it expires. */
export interface CollectClaims {
  token_type: 'collect';
  project_id: number;
  survey_id: number;
  email: string;
  fingerprint: string;
}

/** A shared item's token (spec 001 §7 Results): anyone holding it reads that one item's results as the sharer would. */
export interface ItemClaims {
  token_type: 'item';
  /** Issued at (seconds), set by the signer. */
  iat?: number;
  user_id: number;
  sid: string;
  is_staff: boolean;
  is_superuser: boolean;
  project_id: number;
  schema_id: number;
  item_id: number;
  /** What was shared of the item (filters, comparison, buckets, timing column, time zone): all the link answers. */
  view?: SharedView;
}

/** An item share: the item and the view of it that was shared (gateway/src/shared-view.ts). */
export interface SharedItem {
  project_id: number;
  schema_id: number;
  item_id: number;
  view: SharedView;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    user: AccessClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: refuses the request unless it carries a valid access token; sets request.caller. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler of collection routes: an access token, or a collection link's token (anonymous respondent). */
    authenticateCollect: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Signs a collection token valid until `expiresAt`. */
    signCollectToken: (claims: Omit<CollectClaims, 'token_type'>, expiresAt: Date) => string;
    /** Signs a token sharing one item's results, as the sharer sees them, in the view shared (and only that). */
    signItemToken: (caller: common.Caller, item: SharedItem, ttlSeconds: number) => string;
    /** The sharer (as a caller), the item and the view shared of a share token; refuses anything else. */
    verifyItemToken: (token: string) => { caller: common.Caller } & SharedItem;
  }
  interface FastifyContextConfig {
    /** API keys may call this route: a data route of their workspace (routes/util.ts apiKeyRoute). */
    apiKey?: boolean;
  }
  interface FastifyRequest {
    caller: common.Caller;
    /** W3C trace context of this request, passed to the services (app.ts). */
    traceparent: string;
  }
}

const SCHEME = /^JWT\s+(\S+)$/i;
const API_KEY = /^Api-Key\s+(\S+)$/i;

export default fp(
  async (
    app,
    opts: {
      secret: string;
      apiKeyCacheMs: number;
      authenticateApiKey: (key: string, requestId: string) => Promise<{ caller: common.Caller; prefix: string }>;
      revocations: RevocationCheck;
    },
  ) => {
    // API keys act as the user who made them, in their workspace only; answers are cached briefly, and a revoked key
    // stops at once: the revocation list is checked on every use, cached or not.
    const keyCache = new Map<string, { caller: common.Caller; prefix: string; until: number }>();
    const byApiKey = async (key: string, requestId: string): Promise<common.Caller> => {
      let hit = keyCache.get(key);
      if (!hit || hit.until <= Date.now()) {
        const who = await opts.authenticateApiKey(key, requestId);
        hit = { ...who, until: Date.now() + opts.apiKeyCacheMs };
        if (keyCache.size > 10_000) keyCache.clear();
        if (opts.apiKeyCacheMs > 0) keyCache.set(key, hit);
      }
      if (opts.revocations.isApiKeyRevoked(hit.prefix)) {
        keyCache.delete(key);
        throw problems.tokenInvalid();
      }
      return hit.caller;
    };
    await app.register(fastifyJwt, {
      secret: opts.secret,
      verify: {
        algorithms: ['HS256'],
        extractToken: (request: FastifyRequest) => SCHEME.exec(request.headers.authorization ?? '')?.[1],
      },
    });
    app.decorateRequest('caller', undefined as unknown as common.Caller);
    // A collection link's token must never pass as a user's: `authenticate` refuses it (verify() returns it as is
    // and the token_type check fails).
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const apiKey = API_KEY.exec(request.headers.authorization ?? '')?.[1];
      if (apiKey !== undefined) {
        const caller = await byApiKey(apiKey, request.id);
        // Keys reach the data routes of their workspace only: never accounts, sessions, workspaces, workspace users,
        // keys, integrations or share links, so a leaked key cannot mint what would outlive it.
        if (request.routeOptions.config.apiKey !== true) throw problems.apiKeyNotAllowed();
        request.caller = caller;
        return;
      }
      const claims = await verify(request);
      if (claims.token_type !== 'access') throw problems.tokenInvalid();
      request.caller = callerOf(claims);
    });
    app.decorate('authenticateCollect', async (request: FastifyRequest, reply: FastifyReply) => {
      if (API_KEY.test(request.headers.authorization ?? '')) return app.authenticate(request, reply);
      const claims = await verify(request);
      if (claims.token_type === 'collect') {
        const c = claims as unknown as CollectClaims;
        request.caller = common.Caller.fromPartial({
          collect_project_id: c.project_id,
          collect_survey_id: c.survey_id,
          collect_email: c.email,
          collect_fingerprint: c.fingerprint,
        });
        return;
      }
      if (claims.token_type !== 'access') throw problems.tokenInvalid();
      request.caller = callerOf(claims);
    });
    app.decorate('signCollectToken', (claims: Omit<CollectClaims, 'token_type'>, expiresAt: Date) =>
      app.jwt.sign({ ...claims, token_type: 'collect' } as never, {
        expiresIn: Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
      }),
    );

    app.decorate('signItemToken', (caller: common.Caller, item: SharedItem, ttlSeconds: number) => {
      const claims: ItemClaims = {
        token_type: 'item',
        user_id: caller.user_id,
        sid: caller.session_id,
        is_staff: caller.is_staff,
        is_superuser: caller.is_superuser,
        ...item,
      };
      return app.jwt.sign(claims as never, { expiresIn: ttlSeconds });
    });
    app.decorate('verifyItemToken', (token: string) => {
      let claims: ItemClaims;
      try {
        claims = app.jwt.verify<ItemClaims>(token);
      } catch {
        throw problems.notFound();
      }
      if (claims.token_type !== 'item' || !Number.isSafeInteger(claims.user_id) || claims.user_id <= 0)
        throw problems.notFound();
      // A share link is the sharer's publication: it outlives a logout, not new credentials (a password change or
      // reset voids every share the account made before). It also reads only what the sharer may still read.
      if (typeof claims.iat !== 'number' || claims.iat < opts.revocations.sharesRevokedBeforeS(claims.user_id))
        throw problems.notFound();
      const { project_id, schema_id, item_id } = claims;
      // Links made before views were kept shared the item unfiltered: an empty view.
      const view =
        typeof claims.view === 'object' && claims.view !== null && !Array.isArray(claims.view) ? claims.view : {};
      return { caller: callerOf({ ...claims, token_type: 'access' }), project_id, schema_id, item_id, view };
    });

    // Tokens already verified, until they expire: a client sends the same access token on every request, and
    // decoding and checking it each time cost the gateway about 6% of its CPU on a project read. Revocation is still
    // checked on every request, below.
    const verified = new LRUCache<string, AccessClaims & { exp: number }>({ max: 10_000 });
    async function verify(request: FastifyRequest): Promise<AccessClaims> {
      const token = SCHEME.exec(request.headers.authorization ?? '')?.[1];
      if (token === undefined) throw problems.notAuthenticated();
      let claims: AccessClaims;
      const known = verified.get(token);
      if (known && known.exp * 1000 > Date.now()) claims = known;
      else
        try {
          claims = await request.jwtVerify<AccessClaims>();
          const exp = (claims as { exp?: unknown }).exp;
          if (typeof exp === 'number') verified.set(token, { ...claims, exp });
        } catch {
          throw problems.tokenInvalid();
        }
      if (claims.token_type === 'collect') return claims;
      if (!Number.isSafeInteger(claims.user_id) || claims.user_id <= 0) throw problems.tokenInvalid();
      // Logged out, password changed or reset, refresh token stolen: the session's access tokens stop now.
      if (opts.revocations.isSessionRevoked(typeof claims.sid === 'string' ? claims.sid : ''))
        throw problems.tokenInvalid();
      return claims;
    }
    function callerOf(claims: AccessClaims): common.Caller {
      return common.Caller.fromPartial({
        user_id: claims.user_id,
        session_id: claims.sid,
        is_staff: claims.is_staff === true,
        is_superuser: claims.is_superuser === true,
      });
    }
  },
  { name: 'auth' },
);
