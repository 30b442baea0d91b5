// Workspaces (spec 000 §7 Workspaces): list, create, get (with its projects), update, and create a workspace user.
import type { FastifyInstance } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { WORKSPACE_PERMISSIONS, workspacePermissions } from '@fieldwork/access';
import { organizationJson } from '../schemas.js';
import { workspaceSchemas as S } from '../schemas/workspaces.js';
import { apiKeyRoute, limitPerCaller, meta, parseId, queryInt, secured } from './util.js';

type Json = Record<string, unknown>;
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

export default async function organizationRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const tags = ['workspaces'];
  const orgResponse = { 200: { $ref: 'Organization#' } };

  app.get(
    '/api/organization/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: secured,
        response: {
          200: {
            type: 'object',
            properties: { results: { type: 'array', items: { $ref: 'Organization#' } }, count: { type: 'integer' } },
          },
        },
      },
    },
    async (request) => {
      const { results } = await clients.auth.listOrganizations({ caller: request.caller }, meta(request));
      return { results: results.map((o) => organizationJson(o)), count: results.length };
    },
  );

  app.post<{ Body: Json }>(
    '/api/organization/',
    {
      preHandler: app.authenticate,
      schema: { tags, security: secured, body: S.organization, response: { 201: { $ref: 'Organization#' } } },
    },
    async (request, reply) => {
      const b = request.body;
      const org = await clients.auth.createOrganization(
        { caller: request.caller, name: s(b.name), description: s(b.description), address: s(b.address) },
        meta(request),
      );
      return reply.status(201).send(organizationJson(org, []));
    },
  );

  // The audit log of security events (workspace owners): logins, failed logins, lockouts, role and permission
  // changes, API keys, exports and imports, SQL access.
  app.get<{ Params: { id: string }; Querystring: { event?: string; page?: string; page_size?: string } }>(
    '/api/organization/:id/audit/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security: secured,
        summary: 'The workspace audit log (owners only), newest first',
        params: S.orgParams,
        querystring: S.auditQuery,
        response: { 200: S.audit },
      },
    },
    async (request) => {
      const id = parseId(request.params.id, problems.invalidOrganizationId);
      const list = await clients.auth.listAudit(
        {
          caller: request.caller,
          organization_id: id,
          event: request.query.event ?? '',
          page: queryInt(request.query.page, 0, 'page', 0, 999_999),
          page_size: queryInt(request.query.page_size, 0, 'page_size', 0, 999),
        },
        meta(request),
      );
      return {
        count: list.count,
        results: list.results.map((e) => ({
          id: e.id,
          time: e.time,
          event: e.event,
          actor_user_id: e.actor_user_id || null,
          target: e.target,
          ip: e.ip,
          details: JSON.parse(e.details_json || '{}') as unknown,
        })),
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/organization/:id/',
    {
      preHandler: app.authenticate,
      config: apiKeyRoute,
      schema: { tags, security: secured, params: S.orgParams, response: orgResponse },
    },
    async (request) => {
      const id = parseId(request.params.id, problems.invalidOrganizationId);
      const [org, { results }, membership] = await Promise.all([
        clients.auth.getOrganization({ caller: request.caller, id }, meta(request)),
        clients.projects.listProjects({ caller: request.caller, organization_id: id }, meta(request)),
        clients.auth.getMembership({ user_id: request.caller.user_id, organization_id: id }, meta(request)),
      ]);
      const staff = membership.is_staff || membership.is_superuser;
      const permissions = staff
        ? [...WORKSPACE_PERMISSIONS]
        : membership.member
          ? [...workspacePermissions(membership, membership.flagged_features)]
          : [];
      return { ...organizationJson(org, results), permissions };
    },
  );

  app.put<{ Params: { id: string }; Body: Json }>(
    '/api/organization/:id/',
    {
      preHandler: app.authenticate,
      schema: { tags, security: secured, params: S.orgParams, body: S.organization, response: orgResponse },
    },
    async (request) => {
      const id = parseId(request.params.id, problems.invalidOrganizationId);
      const b = request.body;
      const org = await clients.auth.updateOrganization(
        {
          caller: request.caller,
          id,
          name: s(b.name),
          ...(typeof b.description === 'string' ? { description: b.description } : {}),
          ...(typeof b.address === 'string' ? { address: b.address } : {}),
          flagged_features: Array.isArray(b.flagged_features) ? (b.flagged_features as string[]) : [],
          flagged_features_given: Array.isArray(b.flagged_features),
        },
        meta(request),
      );
      return organizationJson(org);
    },
  );

  app.post<{ Body: Json }>(
    '/api/api/v1/organization-user/',
    {
      preHandler: app.authenticate,
      // Each address added is mailed an invitation: limited per caller (issue 30 item 7).
      config: limitPerCaller(app, 'people'),
      schema: {
        tags,
        security: secured,
        body: S.organizationUser,
        summary:
          'Invite an address to a workspace: the same answer whether an account uses it or not (a password given is not used)',
        response: { 200: { $ref: 'OrganizationUser#' } },
      },
    },
    async (request) => {
      const b = request.body;
      return clients.auth.createOrganizationUser(
        {
          caller: request.caller,
          email: s(b.email),
          first_name: s(b.first_name),
          last_name: s(b.last_name),
          password: s(b.password),
          organization: typeof b.organization === 'number' ? b.organization : 0,
          owner: b.owner === true,
          user_admin: b.user_admin === true,
          project_admin: b.project_admin === true,
          billing_admin: b.billing_admin === true,
        },
        meta(request),
      );
    },
  );
}
