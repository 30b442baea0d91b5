// Routes of accounts and workspaces (the auth service, and the workspace's folders and project lists of the projects
// service) through app.inject with fake services: each answers its status with the service's reply on the wire, asks
// the service once with what the request said, and passes on the service's 404.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auth } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { buildTestGateway, USER_IDS } from '../testing/inject.js';
import { routesTagged, uncovered } from '../testing/routes.js';

// Every route of this group is reached by a test below (the last test checks it).
vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => t.reset());

const user = auth.User.fromPartial({ id: USER_IDS.owner, username: 'owner', email: 'o@example.com' });
const org = auth.Organization.fromPartial({ id: 1, name: 'Demo' });

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: object;
  /** The service and method the route calls, its reply, and what the request must hold. */
  call: `${'auth' | 'projects'}.${string}`;
  reply?: object;
  req?: object;
  status: number;
  wire?: object;
  /** A public route: sent without credentials. */
  anonymous?: true;
}

const ROWS: Row[] = [
  {
    method: 'POST',
    url: '/api/api-token-auth/',
    body: { username: 'owner', password: 'pw' },
    call: 'auth.login',
    reply: { access: 'a', refresh: 'r', user, organization: org },
    req: { username: 'owner', password: 'pw' },
    status: 200,
    wire: { access: 'a', refresh: 'r', user: { id: USER_IDS.owner, username: 'owner' }, organization: { id: 1 } },
    anonymous: true,
  },
  {
    method: 'POST',
    url: '/api/api-token-refresh/',
    body: { refresh: 'r' },
    call: 'auth.refreshToken',
    reply: { access: 'a2', refresh: 'r2' },
    req: { refresh: 'r' },
    status: 200,
    wire: { access: 'a2', refresh: 'r2' },
    anonymous: true,
  },
  {
    method: 'POST',
    url: '/api/accounts/logout/',
    body: { refresh: 'r' },
    call: 'auth.logout',
    req: { refresh: 'r' },
    status: 200,
    wire: { detail: 'Successfully logged out.' },
  },
  {
    method: 'GET',
    url: `/api/accounts/user/${USER_IDS.owner}/`,
    call: 'auth.getUser',
    reply: user,
    req: { id: USER_IDS.owner },
    status: 200,
    wire: { id: USER_IDS.owner, username: 'owner' },
  },
  {
    method: 'PATCH',
    url: `/api/accounts/user/${USER_IDS.owner}/`,
    body: { first_name: 'Ada' },
    call: 'auth.updateUser',
    reply: user,
    req: { first_name: 'Ada' },
    status: 200,
  },
  {
    method: 'PUT',
    url: `/api/accounts/user/${USER_IDS.owner}/settings`,
    body: { agreed_terms: '1.1' },
    call: 'auth.updateSettings',
    reply: user,
    status: 200,
  },
  {
    method: 'GET',
    url: '/api/accounts/invitations/',
    call: 'auth.listInvitations',
    reply: { results: [] },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/accounts/invitations/1/accept/',
    call: 'auth.answerInvitation',
    req: { organization_id: 1, accept: true },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/accounts/invitations/1/decline/',
    call: 'auth.answerInvitation',
    req: { organization_id: 1, accept: false },
    status: 200,
  },
  {
    method: 'GET',
    url: '/api/accounts/user/o@example.com/reset',
    call: 'auth.requestPasswordReset',
    req: { email: 'o@example.com' },
    status: 200,
    anonymous: true,
  },
  {
    method: 'POST',
    url: '/api/accounts/user/o@example.com/reset',
    body: { nonce: 'n-1', password: 'new pass 1' },
    call: 'auth.resetPassword',
    req: { email: 'o@example.com', nonce: 'n-1', password: 'new pass 1' },
    status: 200,
    wire: { detail: 'Your password has been set. You can now log in.' },
    anonymous: true,
  },
  {
    method: 'POST',
    url: '/api/accounts/user/o@example.com/reset',
    body: { old_password: 'old', new_password: 'new pass 1' },
    call: 'auth.changePassword',
    req: { email: 'o@example.com', old_password: 'old', new_password: 'new pass 1' },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/accounts/email-check/',
    body: { email: 'o@example.com' },
    call: 'auth.emailCheck',
    req: { email: 'o@example.com' },
    status: 200,
    anonymous: true,
  },
  {
    method: 'POST',
    url: '/api/request-invite/',
    body: { email: 'o@example.com', name: 'O', organization: 'Demo' },
    call: 'auth.requestInvite',
    status: 201,
    wire: { detail: 'Thank you. We will be in touch.' },
    anonymous: true,
  },
  {
    method: 'POST',
    url: '/api/organization-match/',
    body: { org_email: 'o@example.com' },
    call: 'auth.organizationMatch',
    status: 200,
    anonymous: true,
  },
  // Workspaces.
  {
    method: 'GET',
    url: '/api/organization/',
    call: 'auth.listOrganizations',
    reply: { results: [org] },
    status: 200,
    wire: { results: [{ id: 1, name: 'Demo' }], count: 1 },
  },
  {
    method: 'POST',
    url: '/api/organization/',
    body: { name: 'Demo' },
    call: 'auth.createOrganization',
    reply: org,
    req: { name: 'Demo' },
    status: 201,
    wire: { id: 1, name: 'Demo' },
  },
  {
    method: 'PUT',
    url: '/api/organization/1/',
    body: { name: 'Renamed', description: 'd' },
    call: 'auth.updateOrganization',
    reply: org,
    req: { id: 1, name: 'Renamed', description: 'd' },
    status: 200,
  },
  { method: 'GET', url: '/api/organization/1/audit/', call: 'auth.listAudit', status: 200 },
  {
    method: 'POST',
    url: '/api/api/v1/organization-user/',
    body: { email: 'n@example.com', organization: 1, user_admin: true },
    call: 'auth.createOrganizationUser',
    req: { email: 'n@example.com', organization: 1, user_admin: true, owner: false },
    status: 200,
  },
  {
    method: 'GET',
    url: '/api/organization/1/organization-users/',
    call: 'auth.listOrganizationUsers',
    req: { organization_id: 1 },
    status: 200,
  },
  {
    method: 'PATCH',
    url: '/api/organization/1/organization-users/60/',
    body: { project_admin: true },
    call: 'auth.updateOrganizationUser',
    req: { organization_id: 1, project_admin: true },
    status: 200,
  },
  {
    method: 'DELETE',
    url: '/api/organization/1/organization-users/60/',
    call: 'auth.removeOrganizationUser',
    req: { organization_id: 1 },
    status: 204,
  },
  {
    method: 'GET',
    url: '/api/organization/1/api_keys/',
    call: 'auth.listApiKeys',
    req: { organization_id: 1 },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/organization/1/api_keys/create/',
    body: { name: 'BI' },
    call: 'auth.createApiKey',
    reply: { api_key: { id: 2, name: 'BI', prefix: 'k1' }, key: 'k1.secret' },
    req: { organization_id: 1, name: 'BI' },
    status: 201,
    wire: { id: 2, name: 'BI', prefix: 'k1', key: 'k1.secret' },
  },
  {
    method: 'PUT',
    url: '/api/api/v0/organization/1/api_keys/revoke/',
    body: { prefix: 'k1' },
    call: 'auth.revokeApiKey',
    req: { organization_id: 1, prefix: 'k1' },
    status: 200,
  },
  {
    method: 'GET',
    url: '/api/organization/1/integrations/',
    call: 'auth.listIntegrations',
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/organization/1/integrations/create/',
    body: { integration_type: 'crm' },
    call: 'auth.createIntegration',
    status: 201,
  },
  {
    method: 'PUT',
    url: '/api/organization/1/integrations/projects/',
    body: { token: 'i-1', projects: [7] },
    call: 'auth.setIntegrationProjects',
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/organization/1/integrations/verify/',
    body: { token: 'i-1' },
    call: 'auth.verifyIntegration',
    req: { token: 'i-1' },
    status: 200,
  },
  {
    method: 'GET',
    url: '/api/organization/1/advanced_projects/',
    call: 'projects.listAdvancedProjects',
    reply: { results: [{ id: 7, name: 'Census' }] },
    status: 200,
    wire: { results: [{ id: 7, name: 'Census' }], count: 1 },
  },
  {
    method: 'GET',
    url: '/api/organization/1/reference-projects/',
    call: 'projects.listReferenceProjects',
    reply: { results: [] },
    status: 200,
    wire: { results: [], count: 0 },
  },
  {
    method: 'GET',
    url: '/api/organization/1/purges/',
    call: 'projects.listPurges',
    reply: {
      results: [
        { project_id: 7, name: 'Census', state: 'none', counts: {}, requested_at: '', finished_at: '', error: '' },
        {
          project_id: 8,
          name: 'Old',
          state: 'done',
          counts: { responses: '4' },
          requested_at: 't1',
          finished_at: 't2',
        },
      ],
    },
    req: { organization_id: 1 },
    status: 200,
    wire: {
      results: [
        { project_id: 7, name: 'Census', state: 'none', counts: {}, requested_at: null, finished_at: null },
        { project_id: 8, state: 'done', counts: { responses: 4 }, requested_at: 't1', finished_at: 't2' },
      ],
      count: 2,
    },
  },
  {
    method: 'GET',
    url: '/api/organization/1/folders/',
    call: 'projects.listFolders',
    reply: { results: [{ id: 3, name: 'F' }] },
    status: 200,
    wire: { results: [{ id: 3, name: 'F' }], count: 1 },
  },
  {
    method: 'POST',
    url: '/api/organization/1/folders/',
    body: { name: 'F', folder: 2 },
    call: 'projects.createFolder',
    reply: { id: 3, name: 'F' },
    req: { organization_id: 1, name: 'F', folder: 2, project: 0 },
    status: 201,
    wire: { id: 3, name: 'F' },
  },
  {
    method: 'PUT',
    url: '/api/organization/1/folders/3/',
    body: { name: 'G' },
    call: 'projects.updateFolder',
    req: { folder_id: 3, name: 'G' },
    status: 200,
  },
  {
    method: 'DELETE',
    url: '/api/organization/1/folders/3/',
    call: 'projects.deleteFolder',
    req: { folder_id: 3 },
    status: 204,
  },
];

const key = (r: Row) => `${r.method} ${r.url}${r.body && 'nonce' in r.body ? ' (nonce)' : ''}`;
const send = (row: Row) =>
  t.inject({
    method: row.method,
    url: row.url,
    headers: row.anonymous ? {} : t.as('owner'),
    ...(row.body ? { payload: row.body } : {}),
  });

describe('account and workspace routes', () => {
  it.each(ROWS.map((r) => [key(r), r] as const))(
    '%s: its status, one call of the service, the reply on the wire',
    async (_, row) => {
      const [service, method] = row.call.split('.') as [string, string];
      if (row.reply) t.answer(service, method, row.reply);
      const res = await send(row);
      expect(res.statusCode).toBe(row.status);
      if (row.status === 204) expect(res.body).toBe('');
      if (row.wire) expect(res.json()).toMatchObject(row.wire);
      expect(t.calls.map((c) => `${c.service}.${c.method}`)).toEqual([row.call]);
      if (!row.anonymous) expect(t.calls[0]?.req).toMatchObject({ caller: { user_id: USER_IDS.owner } });
      if (row.req) expect(t.calls[0]?.req).toMatchObject(row.req);
    },
  );

  it.each(ROWS.map((r) => [key(r), r] as const))('%s: passes on the service’s 404', async (_, row) => {
    const [service, method] = row.call.split('.') as [string, string];
    t.answer(service, method, () => {
      throw problems.notFound();
    });
    const res = await send(row);
    expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not found.' }]);
  });

  it('a failed login answers the auth service’s refusal', async () => {
    t.answer('auth', 'login', () => {
      throw problems.invalidFields({ non_field_errors: ['Unable to log in with provided credentials.'] });
    });
    const res = await t.inject({
      method: 'POST',
      url: '/api/api-token-auth/',
      payload: { username: 'owner', password: 'bad' },
    });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { non_field_errors: ['Unable to log in with provided credentials.'] },
    ]);
  });

  describe('a workspace with the caller’s permissions in it (spec 000 §6 access lists)', () => {
    const permissionsOf = async (membership: Partial<auth.Membership>) => {
      t.reset();
      t.answer('auth', 'getOrganization', org);
      t.answer('projects', 'listProjects', { results: [] });
      t.answer('auth', 'getMembership', auth.Membership.fromPartial(membership));
      const res = await t.inject({ url: '/api/organization/1/', headers: t.as('owner') });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: 1, name: 'Demo' });
      return (res.json<{ permissions: string[] }>().permissions ?? []).sort();
    };

    it('owner everything but orgLevelIngestion without the ingestion feature; project_admin projects, user_access', async () => {
      expect(await permissionsOf({ member: true, owner: true })).toEqual(
        ['billing', 'org_details', 'projects', 'user_access', 'user_create'].sort(),
      );
      expect(await permissionsOf({ member: true, project_admin: true, flagged_features: ['ingestion'] })).toEqual(
        ['orgLevelIngestion', 'projects', 'user_access'].sort(),
      );
      expect(await permissionsOf({ member: true, user_admin: true })).toEqual(['user_create']);
      expect(await permissionsOf({ member: true, billing_admin: true })).toEqual(['billing']);
      expect(await permissionsOf({ member: false })).toEqual([]);
      expect(await permissionsOf({ member: false, is_staff: true })).toEqual(
        ['billing', 'orgLevelIngestion', 'org_details', 'projects', 'user_access', 'user_create'].sort(),
      );
    });
  });

  it('a workspace logo: multipart, 201 with the file', async () => {
    t.answer('projects', 'uploadLogo', { file_id: 'project-logos/x.png' });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('89504e47', 'hex')], { type: 'image/png' }), 'logo.png');
    const res = await t.inject({
      method: 'POST',
      url: '/api/organization/1/logo/',
      headers: t.as('owner'),
      payload: form,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ file_id: 'project-logos/x.png' });
    expect(t.calls[0]?.req).toMatchObject({ organization_id: 1, filename: 'logo.png' });
  });

  it('error reports: 202 with a reference, no login, no service', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/error-reports/',
      payload: { hashId: 'h-1', message: 'boom' },
    });
    expect([res.statusCode, res.json()]).toEqual([202, { reference: 'h-1' }]);
    expect(t.calls).toEqual([]);
  });

  it('health: /healthz up; /readyz 200 when every service serves', async () => {
    expect((await t.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', services: { auth: 'SERVING', exports: 'SERVING' } });
  });

  it('has reached every route of its group', () => {
    const routes = [...routesTagged(['accounts', 'workspaces', 'errors']), 'GET /healthz', 'GET /readyz'];
    expect(routes.length).toBeGreaterThan(1);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
