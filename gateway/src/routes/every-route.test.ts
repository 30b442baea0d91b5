// Every route of the gateway, enumerated as Fastify registers them (an onRoute hook added to the instance as it is
// made), is checked for what holds everywhere: no credentials, a bad token or an API key where keys may not go: 401
// or 403 before any service is called; a wrongly typed body field, a query field past its length or a non-integer id
// in the path: refused before any service is called. A route added without being public by design fails here until
// it authenticates or is listed below; the refusals are derived from the schema each route declares.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestGateway, JWT_SECRET, signJwt, USER_IDS } from '../testing/inject.js';
import { paramSample, refusals, validSample, type Resolve } from '../testing/samples.js';
import { registered } from '../testing/routes.js';

vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

/** Routes anyone may call without an access token, and why. */
const PUBLIC: Record<string, string> = {
  'GET /healthz': 'liveness probe of the orchestrator',
  'GET /readyz': 'readiness probe of the orchestrator',
  'GET /api/docs/json': 'the OpenAPI document of the public API',
  'POST /api/api-token-auth/': 'login (spec 000 §7 Accounts)',
  'POST /api/api-token-refresh/': 'the refresh token in the body is the credential',
  'GET /api/accounts/user/:email/reset': 'mails a reset link for a forgotten password',
  'POST /api/accounts/user/:email/reset':
    'sets a forgotten password with the mailed nonce (a change without one logs in)',
  'POST /api/accounts/email-check/': 'sign-up: whether an address is taken',
  'POST /api/request-invite/': 'sign-up: asks for an invitation',
  'POST /api/organization-match/': 'sign-up: finds the workspace of an address',
  'POST /api/error-reports/': 'spec 001 §3: error reports need no login',
  'POST /api/collect/:token/': "a collection link's token in the path is the credential",
  'GET /api/collect/survey/:token/': "a collection link's token in the path is the credential",
  'POST /api/item-results/:token/': "a share link's token in the path is the credential",
  'GET /api/files/*': 'a signed URL of the object store: the signature is the credential',
  'PUT /api/files/*': 'a signed URL of the object store: the signature is the credential',
  'GET /api/api/v1/oauth/providers/': 'the login page lists the identity providers (spec 000 §7 Accounts)',
  'POST /api/api/v1/oauth/authorize/': 'starts a sign-in at an identity provider',
  'POST /api/api/v1/oauth/code/': "sign-in through an identity provider: the provider's code and the PKCE verifier",
  'POST /api/accounts/signup/': 'sign-up, where the deployment allows it',
  'GET /api/legal/': 'the terms and privacy texts, shown before they are accepted',
};

/** Routes a collection link's token (an anonymous respondent) may call as well as a user (spec 000 §6). */
const COLLECT_TOKEN: readonly string[] = [
  'GET /api/samplerschema/:id/',
  'POST /api/project/:id/response/',
  'POST /api/project/:id/response/complete/',
  'POST /api/project/:id/response/uncomplete/',
  'POST /api/project/:id/media/',
  'POST /api/project/:id/media/:mediaId/complete/',
];

/**
 * The tags of the route groups whose tests (<group>.routes.test.ts) reach each of their routes; the routes without one
 * of them are listed with where they are tested.
 */
const GROUP_TAGS = [
  'accounts',
  'workspaces',
  'errors',
  'projects',
  'sites, groups, teams',
  'project users',
  'surveys, references',
  'forms',
  'responses',
  'results',
  'views',
  'exports',
  'identity',
];
const UNGROUPED: Record<string, string> = {
  'GET /healthz': 'accounts.routes.test.ts',
  'GET /readyz': 'accounts.routes.test.ts',
  'GET /api/docs/json': 'schemas/contracts.test.ts',
  'GET /api/files/*': 'here: the signature is all it checks',
  'PUT /api/files/*': 'here: the signature is all it checks',
};

/** Path parameters that are text, not record ids (a job's or a response's uuid, a token, an address, a profile key). */
const TEXT_PARAMS = new Set(['email', 'token', 'profile', 'responseId', 'mediaId', 'jobId', '*']);

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => t.reset());

const resolve: Resolve = (ref) => t.app.getSchema(ref.replace(/#$/, '')) as Record<string, unknown> | undefined;

interface Route {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  schema: { body?: unknown; querystring?: unknown; params?: unknown; tags?: string[] };
  apiKey: boolean;
}

// HEAD mirrors each GET (Fastify's exposeHeadRoutes: the same handler), OPTIONS is the CORS preflight.
const routes: Route[] = registered.flatMap((r) =>
  (Array.isArray(r.method) ? r.method : [r.method])
    .filter((m) => m !== 'HEAD' && !(m === 'OPTIONS' && r.url === '*'))
    .map((method) => ({
      key: `${method} ${r.url}`,
      method: method as Route['method'],
      url: r.url,
      schema: (r.schema ?? {}) as Route['schema'],
      apiKey: (r.config as { apiKey?: boolean } | undefined)?.apiKey === true,
    })),
);
const authenticated = routes.filter((r) => !(r.key in PUBLIC));

/** The route's URL with each parameter given a valid value (what its schema accepts, if it says), `bad` given 'x1'. */
const urlOf = (r: Route, bad?: string) =>
  r.url
    .replace(/:(\w+)/g, (_, name: string) =>
      name === bad
        ? 'x1'
        : (paramSample(r.schema.params, name, resolve) ??
          (name === 'email' ? 'someone@example.com' : name === 'token' ? 'token-0123456789' : '3')),
    )
    .replace('*', bad === '*' ? 'x1' : 'some/key');
/** A body the route's schema accepts (none when it declares none). */
const bodyOf = (r: Route) =>
  r.schema.body ? validSample(r.schema.body as Record<string, unknown>, resolve) : undefined;
const send = (r: Route, headers: Record<string, string>, url = urlOf(r), payload = bodyOf(r)) =>
  t.app.inject({
    method: r.method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('every route', () => {
  it('is enumerated: about as many as the API has, every public one among them', () => {
    expect(routes.length).toBeGreaterThan(120);
    const keys = new Set(routes.map((r) => r.key));
    expect(Object.keys(PUBLIC).filter((k) => !keys.has(k))).toEqual([]);
    expect(COLLECT_TOKEN.filter((k) => !keys.has(k))).toEqual([]);
  });

  it('belongs to a group whose route tests reach it, or is listed', () => {
    const tagsOf = (r: Route) => (r.schema as { tags?: string[] }).tags ?? [];
    const alone = routes.filter((r) => !tagsOf(r).some((tag) => GROUP_TAGS.includes(tag))).map((r) => r.key);
    expect(alone.sort()).toEqual(Object.keys(UNGROUPED).sort());
  });

  it('object store URLs: refused without a valid signature, before the store is read or written', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      for (const query of ['', `?method=${method}&exp=9999999999&sig=bad`, `?method=GET&exp=1&sig=x&extra=1`]) {
        const res = await t.inject({ method, url: `/api/files/project-7/a.csv${query}`, headers: t.as('owner') });
        expect([method, query, res.statusCode]).toEqual([method, query, 403]);
      }
    }
    expect(t.calls).toEqual([]);
  });

  it.each(authenticated.map((r) => [r.key, r] as const))(
    '%s: 401 without credentials, calling no service',
    async (_, r) => {
      const res = await send(r, {});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect(t.calls).toEqual([]);
    },
  );

  it.each(authenticated.map((r) => [r.key, r] as const))(
    '%s: 401 with a bad token, calling no service',
    async (_, r) => {
      const now = Math.floor(Date.now() / 1000);
      const claims = { user_id: USER_IDS.owner, sid: 'session-owner', is_staff: false, is_superuser: false };
      const tokens = {
        malformed: 'not-a-token',
        'signed by another deployment': signJwt('another-secret-'.padEnd(40, 'q'), { ...claims, token_type: 'access' }),
        expired: signJwt(JWT_SECRET, { ...claims, token_type: 'access', iat: now - 7200, exp: now - 3600 }),
        'a refresh token': signJwt(JWT_SECRET, { ...claims, token_type: 'refresh', iat: now }),
        'no user': signJwt(JWT_SECRET, { ...claims, user_id: 0, token_type: 'access', iat: now }),
        ...(COLLECT_TOKEN.includes(r.key)
          ? {}
          : {
              "a collection link's": signJwt(JWT_SECRET, {
                token_type: 'collect',
                project_id: 3,
                survey_id: 1,
                email: '',
                fingerprint: '',
                iat: now,
              }),
            }),
      };
      for (const [what, token] of Object.entries(tokens)) {
        const res = await send(r, { authorization: `JWT ${token}` });
        expect([what, res.statusCode, res.json()]).toEqual([what, 401, { detail: 'Token is invalid or expired' }]);
      }
      const bearer = await send(r, { authorization: `Bearer ${t.token('owner')}` });
      expect(bearer.statusCode).toBe(401);
      expect(t.calls).toEqual([]);
    },
  );

  it.each(authenticated.filter((r) => !r.apiKey).map((r) => [r.key, r] as const))(
    '%s: refuses an API key (a person’s call)',
    async (_, r) => {
      t.answer('auth', 'authenticateApiKey', { user_id: USER_IDS.owner, organization_id: 1, prefix: 'k1' });
      const res = await send(r, { authorization: 'Api-Key k1.secret' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'API keys cannot be used for this call.' });
      // (the key's answer is kept 30 s: asked once in this file)
      expect(t.calls.filter((c) => c.method !== 'authenticateApiKey')).toEqual([]);
    },
  );

  const shown = (v: unknown) => (typeof v === 'string' && v.length > 20 ? `"${v[0]!}"×${v.length}` : JSON.stringify(v));
  const wrong = authenticated.flatMap((r) =>
    refusals(r.schema, resolve).map((f) => [`${r.key} ${f.part}.${f.field}=${shown(f.value)}`, r, f] as const),
  );
  it.each(wrong)('%s: 400 naming the field, calling no service', async (_, r, f) => {
    const body = bodyOf(r);
    const res =
      f.part === 'body'
        ? await send(r, t.as('owner'), urlOf(r), { ...(body as object | undefined), [f.field]: f.value })
        : await send(r, t.as('owner'), `${urlOf(r)}?${f.field}=${String(f.value)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty([f.field]);
    expect(t.calls).toEqual([]);
  });

  // An id that is not a positive integer is refused by the route with the spec's message ("Invalid Project Id!",
  // 404, or 400) before any service is asked.
  const ids = authenticated.flatMap((r) =>
    [...r.url.matchAll(/:(\w+)/g)]
      .map((m) => m[1]!)
      .filter((name) => !TEXT_PARAMS.has(name))
      .map((name) => [`${r.key} :${name}=x1`, r, name] as const),
  );
  it.each(ids)('%s: refused, calling no service', async (_, r, name) => {
    const res = await send(r, t.as('owner'), urlOf(r, name));
    expect([400, 404]).toContain(res.statusCode);
    // (the caller's access to project 3 may have been decided: no service was asked to act)
    expect(t.serviceCalls()).toEqual([]);
  });
});
