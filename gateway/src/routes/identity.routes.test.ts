// Routes of identity-provider sign-in, sign-up and the legal texts through app.inject with fake services: each is
// public, asks the auth service once with what the request said (the client's address included where the service
// audits it), answers the login reply on the wire, and refuses a malformed body with 400 before any service call.
// The real code paths (a real OpenID provider, PostgreSQL) are in services/auth/test/identity.service.test.ts and
// gateway/test/oidc.e2e.test.ts.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auth } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { buildTestGateway } from '../testing/inject.js';
import { routesTagged, uncovered } from '../testing/routes.js';

vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => t.reset());

const user = auth.User.fromPartial({ id: 9, username: 'ada@example.org', email: 'ada@example.org' });
const org = auth.Organization.fromPartial({ id: 4, name: 'Analytical' });
const verifier = 'v'.repeat(43);

describe('identity provider, sign-up and legal routes', () => {
  it('GET oauth/providers/: the providers offered for the email and whether sign-up is open', async () => {
    t.answer('auth', 'listIdentityProviders', { results: [{ id: 'acme', name: 'Acme SSO' }], signup_enabled: true });
    const res = await t.inject({ url: '/api/api/v1/oauth/providers/?email=bob%40acme.org' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ results: [{ id: 'acme', name: 'Acme SSO' }], count: 1, signup_enabled: true });
    expect(t.calls.map((c) => [`${c.service}.${c.method}`, c.req])).toEqual([
      ['auth.listIdentityProviders', { email: 'bob@acme.org' }],
    ]);
  });

  it('GET oauth/providers/ without an email asks for the providers of every address', async () => {
    const res = await t.inject({ url: '/api/api/v1/oauth/providers/' });
    expect(res.json()).toEqual({ results: [], count: 0, signup_enabled: false });
    expect(t.calls[0]?.req).toEqual({ email: '' });
  });

  it("POST oauth/authorize/: the provider's URL and state for the challenge", async () => {
    t.answer('auth', 'startOidc', { authorization_url: 'https://idp.example/auth?x=1', state: 's1' });
    const res = await t.inject({
      method: 'POST',
      url: '/api/api/v1/oauth/authorize/',
      payload: { identity_provider: 'acme', code_challenge: 'c'.repeat(43) },
    });
    expect([res.statusCode, res.json()]).toEqual([
      200,
      { authorization_url: 'https://idp.example/auth?x=1', state: 's1' },
    ]);
    expect(t.calls[0]?.req).toEqual({ identity_provider: 'acme', code_challenge: 'c'.repeat(43) });
  });

  it('POST oauth/code/: the login reply, with code, verifier, provider, state, iss and the client address sent', async () => {
    t.answer('auth', 'oidcCode', { access: 'a', refresh: 'r', user, organization: org });
    const res = await t.inject({
      method: 'POST',
      url: '/api/api/v1/oauth/code/',
      payload: { code: 'c0de', code_verifier: verifier, identity_provider: 'acme', state: 's1', iss: 'https://idp' },
      remoteAddress: '10.9.8.7',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      access: 'a',
      refresh: 'r',
      user: { id: 9, email: 'ada@example.org' },
      organization: { id: 4, name: 'Analytical' },
    });
    expect(t.calls[0]?.req).toEqual({
      code: 'c0de',
      code_verifier: verifier,
      identity_provider: 'acme',
      state: 's1',
      iss: 'https://idp',
      client_ip: '10.9.8.7',
    });
  });

  it("POST oauth/code/: the service's refusal of a wrong state reaches the client as its message", async () => {
    t.answer('auth', 'oidcCode', () => {
      throw problems.invalid('This sign-in has expired or was already used. Please sign in again.');
    });
    const res = await t.inject({
      method: 'POST',
      url: '/api/api/v1/oauth/code/',
      payload: { code: 'c0de', code_verifier: verifier, identity_provider: 'acme', state: 'wrong' },
    });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { non_field_errors: ['This sign-in has expired or was already used. Please sign in again.'] },
    ]);
  });

  it.each([
    ['no code', { code_verifier: verifier, identity_provider: 'acme' }, 'code'],
    ['a number for the verifier', { code: 'c', code_verifier: 12, identity_provider: 'acme' }, 'code_verifier'],
    [
      'a verifier past 128 characters',
      { code: 'c', code_verifier: 'v'.repeat(129), identity_provider: 'acme' },
      'code_verifier',
    ],
  ])('POST oauth/code/ with %s: 400 naming the field, no service call', async (_, payload, field) => {
    const res = await t.inject({ method: 'POST', url: '/api/api/v1/oauth/code/', payload });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json() as object)).toContain(field);
    expect(t.calls).toEqual([]);
  });

  it('POST accounts/signup/: 201 with the login reply; the spec names of the workspace fields are read', async () => {
    t.answer('auth', 'signUp', { access: 'a', refresh: 'r', user, organization: org });
    const res = await t.inject({
      method: 'POST',
      url: '/api/accounts/signup/',
      payload: {
        email: 'ada@example.org',
        name: 'Ada Lovelace',
        password: 'engine notes 1843',
        newOrgName: 'Analytical',
        orgDescription: 'Engines',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ access: 'a', user: { id: 9 }, organization: { id: 4 } });
    expect(t.calls[0]?.req).toMatchObject({
      email: 'ada@example.org',
      name: 'Ada Lovelace',
      password: 'engine notes 1843',
      organization_name: 'Analytical',
      organization_description: 'Engines',
    });
  });

  it('POST accounts/signup/ without a workspace name: 400, no service call', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/accounts/signup/',
      payload: { email: 'ada@example.org', name: 'Ada', password: 'engine notes 1843' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('newOrgName');
    expect(t.calls).toEqual([]);
  });

  it("GET legal/: the deployment's terms and privacy texts with the versions of spec 000 §9, no service", async () => {
    const res = await t.inject({ url: '/api/legal/' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ terms: { version: string; text: string }; privacy: { version: string; text: string } }>();
    expect(body.terms.version).toBe('1.1');
    expect(body.privacy.version).toBe('1.0');
    expect(body.terms.text).toMatch(/^Fieldwork terms of service\n/);
    expect(body.privacy.text).toMatch(/^Fieldwork privacy policy\n/);
    expect(t.calls).toEqual([]);
  });

  it('has reached every route of its group', () => {
    const routes = routesTagged(['identity']);
    expect(routes.length).toBe(5);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
