// Sign-in through an identity provider (spec 000 §7: GET oauth/providers/ with an email query and POST oauth/code/
// {code, code_verifier, identity_provider} on the alternate v1 base, here /api/api/v1/), sign-up where the deployment
// allows it, and the terms of service and privacy policy the terms gate shows (issue 19).
//
// The browser makes a PKCE code verifier, sends its S256 challenge to oauth/authorize/ and goes to the provider with
// the URL it gets (the auth service keeps that request's state and nonce); back at /login-home/oauth, it sends the
// code, its verifier and the state to oauth/code/ and gets the login answer of api-token-auth/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PRIVACY_VERSION, TERMS_VERSION } from '@fieldwork/access';
import type { Clients } from '../clients.js';
import { identitySchemas as schemas } from '../schemas/identity.js';
import { userJson } from '../schemas.js';
import { limit, meta } from './util.js';

type Json = Record<string, unknown>;
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Current versions of the terms of service and the privacy policy (spec 000 §9), kept in packages/access. */
export { PRIVACY_VERSION, TERMS_VERSION };

/** The deployment's texts: terms.md and privacy.md of `dir` (LEGAL_DIR), read once at start. */
export function readLegalTexts(dir: string): { terms: string; privacy: string } {
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch (err) {
      throw new Error(`LEGAL_DIR: ${join(dir, name)} cannot be read (${(err as Error).message})`, { cause: err });
    }
  };
  return { terms: read('terms.md'), privacy: read('privacy.md') };
}

export default async function identityRoutes(
  app: FastifyInstance,
  { clients, legal }: { clients: Clients; legal: { terms: string; privacy: string } },
) {
  const tags = ['identity'];
  const login = (reply: Awaited<ReturnType<Clients['auth']['oidcCode']>>) => ({
    access: reply.access,
    refresh: reply.refresh,
    user: reply.user ? userJson(reply.user) : null,
    organization: reply.organization ?? null,
  });

  app.get<{ Querystring: { email?: string } }>(
    '/api/api/v1/oauth/providers/',
    {
      // Every sign-in and sign-up page asks for these: at the email lookups' 10 a minute, an office behind one
      // address lost its provider buttons to a 429 (seen in the browser journeys); the sign-in rate is the bound.
      config: limit(app, 'login'),
      schema: {
        tags,
        querystring: schemas.providersQuery,
        summary: 'The identity providers people may sign in with (and whether sign-up is open)',
        response: { 200: schemas.providers },
      },
    },
    async (request) => {
      const reply = await clients.auth.listIdentityProviders({ email: s(request.query.email) }, meta(request));
      return { results: reply.results, count: reply.results.length, signup_enabled: reply.signup_enabled };
    },
  );

  app.post<{ Body: Json }>(
    '/api/api/v1/oauth/authorize/',
    {
      config: limit(app, 'login'),
      schema: {
        tags,
        body: schemas.authorize,
        summary:
          "Start a sign-in at an identity provider: the provider's URL for the S256 challenge of a PKCE verifier",
        response: { 200: schemas.authorized },
      },
    },
    async (request) =>
      clients.auth.startOidc(
        { identity_provider: s(request.body.identity_provider), code_challenge: s(request.body.code_challenge) },
        meta(request),
      ),
  );

  app.post<{ Body: Json }>(
    '/api/api/v1/oauth/code/',
    {
      config: limit(app, 'login'),
      schema: {
        tags,
        body: schemas.code,
        summary: "Finish a sign-in at an identity provider: the provider's code, the PKCE verifier and the state",
        response: { 200: schemas.loginReply },
      },
    },
    async (request) => {
      const b = request.body;
      const reply = await clients.auth.oidcCode(
        {
          identity_provider: s(b.identity_provider),
          code: s(b.code),
          code_verifier: s(b.code_verifier),
          state: s(b.state),
          iss: s(b.iss),
          client_ip: request.ip,
        },
        meta(request),
      );
      return login(reply);
    },
  );

  app.post<{ Body: Json }>(
    '/api/accounts/signup/',
    {
      config: limit(app, 'login'),
      schema: {
        tags,
        body: schemas.signup,
        summary: 'Create an account and the workspace it owns (where the deployment allows sign-up), signed in',
        response: { 201: schemas.loginReply },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const answer = await clients.auth.signUp(
        {
          email: s(b.email),
          name: s(b.name),
          password: s(b.password),
          organization_name: s(b.newOrgName),
          organization_description: s(b.orgDescription),
          client_ip: request.ip,
        },
        meta(request),
      );
      return reply.status(201).send(login(answer));
    },
  );

  app.get(
    '/api/legal/',
    {
      schema: {
        tags,
        summary: 'The terms of service and the privacy policy, each with the version a user accepts',
        response: { 200: schemas.legal },
      },
    },
    async () => ({
      terms: { version: TERMS_VERSION, text: legal.terms },
      privacy: { version: PRIVACY_VERSION, text: legal.privacy },
    }),
  );
}
