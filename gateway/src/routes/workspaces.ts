// Workspace users, API keys, integrations, folders, logos and project lists of a workspace (spec 000 §7 Workspaces).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { id, ids, optId, optStr, projectJson, str } from '../wire.js';
import { workspaceSchemas as S } from '../schemas/workspaces.js';
import { listOf } from '../schemas/records.js';
import { projectSchemas } from '../schemas/projects.js';
import { noContent } from '../schemas/common.js';
import { readUpload, uploadBodySchema } from './uploads.js';
import { apiKeyRoute, cappedNote, meta, parseId, queryInt, secured, withSchema } from './util.js';

type Json = Record<string, unknown>;
type Org = { Params: { id: string }; Body: Json };
const orgId = (r: FastifyRequest<{ Params: { id: string } }>) => parseId(r.params.id, problems.invalidOrganizationId);
const userId = (v: string) => parseId(v, problems.invalidWorkspaceOrUserId);

export default async function workspaceRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  // Workspace administration (users, API keys, integrations) is a person's; the workspace's data (folders, project
  // lists, logos) is open to its API keys too.
  // The answers are the auth and projects services' records as they are (schemas/workspaces.ts, open objects).
  const opts = { preHandler: app.authenticate, schema: { tags: ['workspaces'], security: secured } };
  const answers = (schema: object) => ({ response: { 200: schema } });
  const creates = (schema: object) => ({ response: { 201: schema } });
  const dataOpts = { ...opts, config: apiKeyRoute };
  const org = withSchema(opts, { params: S.orgParams });
  const dataOrg = withSchema(dataOpts, { params: S.orgParams });
  const auth = clients.auth;
  const projects = clients.projects;

  // A page of the workspace's members, searched on the server (issue 19: the listing stopped at 10,000 silently).
  app.get<Org & { Querystring: Record<string, string | undefined> }>(
    '/api/organization/:id/organization-users/',
    withSchema(org, { querystring: S.orgUsersQuery, ...answers(S.orgUsers) }),
    async (r) => {
      const page = queryInt(r.query.page, 1, 'page', 1);
      const list = await auth.listOrganizationUsers(
        {
          caller: r.caller,
          organization_id: orgId(r),
          page,
          page_size: queryInt(r.query.page_size, 0, 'page_size', 0),
          search: r.query.search ?? '',
        },
        meta(r),
      );
      return { ...list, page, ...cappedNote(list) };
    },
  );
  app.patch<{ Params: { id: string; userId: string }; Body: Json }>(
    '/api/organization/:id/organization-users/:userId/',
    withSchema(opts, { params: S.orgUserParams, body: S.orgUserPatch, ...answers(S.orgUser) }),
    async (r) => {
      const b = r.body ?? {};
      return auth.updateOrganizationUser(
        {
          caller: r.caller,
          organization_id: orgId(r),
          user_id: userId(r.params.userId),
          first_name: optStr(b.first_name),
          last_name: optStr(b.last_name),
          ...(typeof b.user_admin === 'boolean' ? { user_admin: b.user_admin } : {}),
          ...(typeof b.project_admin === 'boolean' ? { project_admin: b.project_admin } : {}),
          ...(typeof b.billing_admin === 'boolean' ? { billing_admin: b.billing_admin } : {}),
        },
        meta(r),
      );
    },
  );
  app.delete<{ Params: { id: string; userId: string } }>(
    '/api/organization/:id/organization-users/:userId/',
    withSchema(opts, { params: S.orgUserParams, response: { 204: noContent } }),
    async (r, reply) => {
      await auth.removeOrganizationUser(
        { caller: r.caller, organization_id: orgId(r), user_id: userId(r.params.userId) },
        meta(r),
      );
      return reply.status(204).send();
    },
  );

  app.get<Org>('/api/organization/:id/api_keys/', withSchema(org, answers(S.apiKeys)), async (r) =>
    auth.listApiKeys({ caller: r.caller, organization_id: orgId(r) }, meta(r)),
  );
  app.post<Org>(
    '/api/organization/:id/api_keys/create/',
    withSchema(org, { body: S.apiKeyCreate, ...creates(S.apiKeyCreated) }),
    async (r, reply) => {
      const created = await auth.createApiKey(
        { caller: r.caller, organization_id: orgId(r), name: str(r.body?.name) },
        meta(r),
      );
      return reply.status(201).send({ ...created.api_key, key: created.key });
    },
  );
  app.put<Org>(
    '/api/api/v0/organization/:id/api_keys/revoke/',
    withSchema(org, { body: S.apiKeyRevoke, ...answers(S.apiKey) }),
    async (r) =>
      auth.revokeApiKey({ caller: r.caller, organization_id: orgId(r), prefix: str(r.body?.prefix) }, meta(r)),
  );

  app.get<Org>('/api/organization/:id/integrations/', withSchema(org, answers(S.integrations)), async (r) =>
    auth.listIntegrations({ caller: r.caller, organization_id: orgId(r) }, meta(r)),
  );
  app.post<Org>(
    '/api/organization/:id/integrations/create/',
    withSchema(org, { body: S.integrationCreate, ...creates(S.integration) }),
    async (r, reply) => {
      const made = await auth.createIntegration(
        { caller: r.caller, organization_id: orgId(r), integration_type: str(r.body?.integration_type) },
        meta(r),
      );
      return reply.status(201).send(made);
    },
  );
  app.put<Org>(
    '/api/organization/:id/integrations/projects/',
    withSchema(org, { body: S.integrationProjects, ...answers(S.integration) }),
    async (r) =>
      auth.setIntegrationProjects(
        { caller: r.caller, organization_id: orgId(r), token: str(r.body?.token), projects: ids(r.body?.projects) },
        meta(r),
      ),
  );
  app.post<Org>(
    '/api/organization/:id/integrations/verify/',
    withSchema(org, { body: S.integrationVerify, ...answers(S.integration) }),
    async (r) =>
      auth.verifyIntegration({ caller: r.caller, organization_id: orgId(r), token: str(r.body?.token) }, meta(r)),
  );

  const projectList = withSchema(dataOrg, answers(listOf('Project')));
  app.get<Org>('/api/organization/:id/advanced_projects/', projectList, async (r) => {
    const { results } = await projects.listAdvancedProjects({ caller: r.caller, organization_id: orgId(r) }, meta(r));
    return { results: results.map(projectJson), count: results.length };
  });
  app.get<Org>('/api/organization/:id/reference-projects/', projectList, async (r) => {
    const { results } = await projects.listReferenceProjects({ caller: r.caller, organization_id: orgId(r) }, meta(r));
    return { results: results.map(projectJson), count: results.length };
  });

  // The workspace's deleted projects and their purges, for its owner (a deleted project is in no other list).
  app.get<Org>('/api/organization/:id/purges/', withSchema(org, answers(S.purges)), async (r) => {
    const { results } = await projects.listPurges({ caller: r.caller, organization_id: orgId(r) }, meta(r));
    return {
      results: results.map((p) => ({
        ...p,
        counts: Object.fromEntries(Object.entries(p.counts).map(([k, v]) => [k, Number(v)])),
        requested_at: p.requested_at || null,
        finished_at: p.finished_at || null,
      })),
      count: results.length,
    };
  });

  app.get<Org>('/api/organization/:id/folders/', withSchema(dataOrg, answers(S.folders)), async (r) => {
    const { results } = await projects.listFolders({ caller: r.caller, organization_id: orgId(r) }, meta(r));
    return { results, count: results.length };
  });
  app.post<Org>(
    '/api/organization/:id/folders/',
    withSchema(dataOrg, { body: S.folderCreate, ...creates(S.folder) }),
    async (r, reply) => {
      const b = r.body ?? {};
      const made = await projects.createFolder(
        {
          caller: r.caller,
          organization_id: orgId(r),
          name: str(b.name),
          folder: id(b.folder),
          project: id(b.project),
        },
        meta(r),
      );
      return reply.status(201).send(made);
    },
  );
  app.put<{ Params: { id: string; folderId: string }; Body: Json }>(
    '/api/organization/:id/folders/:folderId/',
    withSchema(dataOpts, { params: S.folderParams, body: S.folderUpdate, ...answers(S.folder) }),
    async (r) => {
      const b = r.body ?? {};
      return projects.updateFolder(
        {
          caller: r.caller,
          organization_id: orgId(r),
          folder_id: parseId(r.params.folderId, problems.notFound),
          name: optStr(b.name),
          folder: optId(b.folder),
        },
        meta(r),
      );
    },
  );
  app.delete<{ Params: { id: string; folderId: string } }>(
    '/api/organization/:id/folders/:folderId/',
    withSchema(dataOpts, { params: S.folderParams, response: { 204: noContent } }),
    async (r, reply) => {
      await projects.deleteFolder(
        { caller: r.caller, organization_id: orgId(r), folder_id: parseId(r.params.folderId, problems.notFound) },
        meta(r),
      );
      return reply.status(204).send();
    },
  );

  // Project logos go to the object store under project-logos/ with a random prefix; the answer's file_id is what
  // a project's `logo` field takes.
  // The multipart body is documented (OpenAPI) and read by readUpload, which checks the part itself.
  const uploaded = projectSchemas.uploaded;
  const logoOpts = {
    ...withSchema(dataOrg, {
      consumes: ['multipart/form-data'],
      body: uploadBodySchema(2 * 1024 * 1024),
      ...creates(uploaded),
    }),
    validatorCompiler: () => () => true,
  };
  app.post<{ Params: { id: string } }>('/api/organization/:id/logo/', logoOpts, async (r, reply) => {
    const file = await readUpload(r, 2 * 1024 * 1024);
    const made = await projects.uploadLogo({ caller: r.caller, organization_id: orgId(r), ...file }, meta(r));
    return reply.status(201).send(made);
  });
}
