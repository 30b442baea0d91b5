// Accounts and sessions (spec 000 §7 Accounts): login, refresh, logout, user, settings, password reset and change.
import type { FastifyInstance } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { detailSchema, userJson } from '../schemas.js';
import { accountSchemas as bodies } from '../schemas/accounts.js';
import { limit, meta, parseId, secured } from './util.js';

type Json = Record<string, unknown>;
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

export default async function accountRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const tags = ['accounts'];

  app.post<{ Body: Json }>(
    '/api/api-token-auth/',
    {
      config: limit(app, 'login'),
      schema: {
        tags,
        body: bodies.login,
        summary: 'Log in with username and password',
        response: { 200: bodies.loginReply },
      },
    },
    async (request) => {
      const reply = await clients.auth.login(
        {
          username: s(request.body.username),
          password: s(request.body.password),
          client_ip: request.ip,
          device: s(request.body.device),
        },
        meta(request),
      );
      return {
        access: reply.access,
        refresh: reply.refresh,
        user: reply.user ? userJson(reply.user) : null,
        organization: reply.organization ?? null,
        device: reply.device,
      };
    },
  );

  app.post<{ Body: Json }>(
    '/api/api-token-refresh/',
    {
      config: limit(app, 'login'),
      schema: {
        tags,
        body: bodies.refresh,
        summary: 'Exchange a refresh token (rotated) for a new access token',
        response: { 200: bodies.tokens },
      },
    },
    async (request) => clients.auth.refreshToken({ refresh: s(request.body.refresh) }, meta(request)),
  );

  app.post<{ Body: Json | null }>(
    '/api/accounts/logout/',
    {
      preHandler: app.authenticate,
      schema: { tags, body: bodies.logout, security: secured, response: { 200: detailSchema } },
    },
    async (request) => {
      await clients.auth.logout({ caller: request.caller, refresh: s(request.body?.refresh) }, meta(request));
      return { detail: 'Successfully logged out.' };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/accounts/user/:id/',
    {
      preHandler: app.authenticate,
      schema: { tags, params: bodies.userParams, security: secured, response: { 200: { $ref: 'User#' } } },
    },
    async (request) => {
      const id = parseId(request.params.id, problems.notFound);
      return userJson(await clients.auth.getUser({ caller: request.caller, id }, meta(request)));
    },
  );

  app.patch<{ Params: { id: string }; Body: Json }>(
    '/api/accounts/user/:id/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        params: bodies.userParams,
        body: bodies.userPatch,
        security: secured,
        response: { 200: { $ref: 'User#' } },
      },
    },
    async (request) => {
      const id = parseId(request.params.id, problems.notFound);
      const b = request.body;
      const user = await clients.auth.updateUser(
        {
          caller: request.caller,
          id,
          ...(typeof b.first_name === 'string' ? { first_name: b.first_name } : {}),
          ...(typeof b.last_name === 'string' ? { last_name: b.last_name } : {}),
        },
        meta(request),
      );
      return userJson(user);
    },
  );

  app.put<{ Params: { id: string }; Body: Json }>(
    '/api/accounts/user/:id/settings',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        params: bodies.userParams,
        body: bodies.settings,
        security: secured,
        summary: 'Accept the terms or the privacy policy',
        response: { 200: { $ref: 'User#' } },
      },
    },
    async (request) => {
      const id = parseId(request.params.id, problems.notFound);
      const b = request.body;
      const user = await clients.auth.updateSettings(
        {
          caller: request.caller,
          id,
          ...(typeof b.agreed_terms === 'string' ? { agreed_terms: b.agreed_terms } : {}),
          ...(typeof b.agreed_privacy === 'string' ? { agreed_privacy: b.agreed_privacy } : {}),
        },
        meta(request),
      );
      return userJson(user);
    },
  );

  // Invitations: an existing account added to a workspace joins it only when its owner accepts.
  app.get(
    '/api/accounts/invitations/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: secured,
        summary: 'The invitations to workspaces the caller has not answered',
        response: { 200: bodies.invitations },
      },
    },
    async (request) => {
      const { results } = await clients.auth.listInvitations({ caller: request.caller }, meta(request));
      return { results, count: results.length };
    },
  );
  for (const answer of ['accept', 'decline'] as const) {
    app.post<{ Params: { id: string } }>(
      `/api/accounts/invitations/:id/${answer}/`,
      {
        preHandler: app.authenticate,
        schema: {
          tags,
          params: bodies.invitationParams,
          body: bodies.answer,
          security: secured,
          summary: `${answer === 'accept' ? 'Accept' : 'Decline'} an invitation to a workspace`,
          response: { 200: bodies.invitation },
        },
      },
      async (request) => {
        const organization_id = parseId(request.params.id, problems.noInvitation);
        return clients.auth.answerInvitation(
          { caller: request.caller, organization_id, accept: answer === 'accept' },
          meta(request),
        );
      },
    );
  }

  app.get<{ Params: { email: string } }>(
    '/api/accounts/user/:email/reset',
    {
      config: limit(app, 'mail'),
      schema: {
        tags,
        params: bodies.emailParams,
        summary: 'Mail a password reset link',
        response: { 200: detailSchema },
      },
    },
    async (request) => {
      await clients.auth.requestPasswordReset({ email: request.params.email }, meta(request));
      return { detail: 'If an account uses this address, a password reset link is on its way.' };
    },
  );

  app.post<{ Params: { email: string }; Body: Json }>(
    '/api/accounts/user/:email/reset',
    {
      config: limit(app, 'login'),
      schema: {
        tags,
        params: bodies.emailParams,
        body: bodies.reset,
        summary:
          'Set a password from a mailed link ({nonce, password}), or change it ({new_password, old_password}, logged in)',
        response: { 200: detailSchema },
      },
    },
    async (request, reply) => {
      const b = request.body;
      if (typeof b.nonce === 'string' && b.nonce !== '') {
        await clients.auth.resetPassword(
          { email: request.params.email, nonce: b.nonce, password: s(b.password) },
          meta(request),
        );
        return { detail: 'Your password has been set. You can now log in.' };
      }
      await app.authenticate(request, reply);
      await clients.auth.changePassword(
        {
          caller: request.caller,
          email: request.params.email,
          new_password: s(b.new_password),
          old_password: s(b.old_password),
          firebase_id: s(b.firebase_id),
        },
        meta(request),
      );
      return { detail: 'Your password has been updated and you can now login with your new password.' };
    },
  );

  app.post<{ Body: Json }>(
    '/api/accounts/email-check/',
    {
      config: limit(app, 'lookup'),
      schema: {
        tags,
        body: bodies.emailCheck,
        summary: 'Is this email address taken?',
        response: { 200: bodies.emailChecked },
      },
    },
    async (request) => clients.auth.emailCheck({ email: s(request.body.email) }, meta(request)),
  );

  app.post<{ Body: Json }>(
    '/api/request-invite/',
    { config: limit(app, 'mail'), schema: { tags, body: bodies.requestInvite, response: { 201: detailSchema } } },
    async (request, reply) => {
      const b = request.body;
      await clients.auth.requestInvite(
        { email: s(b.email), name: s(b.name), organization: s(b.organization) },
        meta(request),
      );
      return reply.status(201).send({ detail: 'Thank you. We will be in touch.' });
    },
  );

  app.post<{ Body: Json }>(
    '/api/organization-match/',
    {
      config: limit(app, 'lookup'),
      schema: { tags, body: bodies.organizationMatch, response: { 200: bodies.organizationMatched } },
    },
    async (request) =>
      clients.auth.organizationMatch(
        { org_email: s(request.body.org_email), org_details: s(request.body.org_details) },
        meta(request),
      ),
  );
}
