// The authorization matrix (spec 000 §6): every route of spec 000 driven by a user of each kind, allowed or denied,
// enforced by the server whatever the web app shows. A user of another workspace gets 404 for what it cannot see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api } from './helpers.js';

const ROLES = [
  'owner',
  'wsProjectAdmin',
  'userAdmin',
  'billingAdmin',
  'projectOwner',
  'projectAdmin',
  'researcher',
  'collector',
  'dataManager',
  'guest',
  'outsider',
  'anonymous',
] as const;
type Role = (typeof ROLES)[number];

const MANAGERS: Role[] = ['owner', 'wsProjectAdmin'];
const PROJECT_USERS: Role[] = ['projectOwner', 'projectAdmin', 'researcher', 'collector', 'dataManager', 'guest'];
const MEMBERS: Role[] = [...MANAGERS, 'userAdmin', 'billingAdmin', ...PROJECT_USERS];
const AUTHENTICATED: Role[] = [...MEMBERS, 'outsider'];

let t: TestStack;
let api: Api;
const tokens = new Map<Role, string>();
const userIds = new Map<Role, number>();
let org: number;
let project: Record<string, any>;
let other: Record<string, any>;
/** The matrix project's form, its one question, the collector's response and an export job of the owner's. */
let schema: number;
let question: number;
let collected: string;
let ownerJob: string;
/** The demo owner's email (the other users' are `<role>@matrix.test`). */
let ownerEmail: string;

// A 1x1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5b1f3a80000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  // The matrix adds people for every role and case: the per-caller limit on adding people is not what it tests.
  t = await startTestStack({ extraEnv: { API_KEY_CACHE_S: '0', RATE_LIMIT_PEOPLE_PER_MIN: '100000' } });
  api = client(t);
  const owner = await login(api, t.demo.username, t.demo.password);
  tokens.set('owner', owner.access);
  userIds.set('owner', owner.user.id);
  ownerEmail = owner.user.email;
  org = owner.organization.id;
  const as = { token: owner.access };
  const p = await api<Record<string, any>>('POST', 'project/', {
    ...as,
    body: { name: 'Matrix', organization_pk: org, geotag: point(1, 2) },
  });
  project = p.body;
  other = (
    await api<Record<string, any>>('POST', 'project/', {
      ...as,
      body: { name: 'Matrix other', organization_pk: org, geotag: point(1, 2) },
    })
  ).body;
  await api('PATCH', `project/${other.id}/`, { ...as, body: { is_entity: true } });
  const wsFlags: [Role, Record<string, boolean>][] = [
    ['wsProjectAdmin', { project_admin: true }],
    ['userAdmin', { user_admin: true }],
    ['billingAdmin', { billing_admin: true }],
  ];
  for (const [role, flags] of wsFlags) {
    const r = await api<{ user: number }>('POST', 'api/v1/organization-user/', {
      ...as,
      body: { email: `${role}@matrix.test`, organization: org, ...flags },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await acceptInvitation(t, api, `${role}@matrix.test`, 'matrix pass 1');
  }
  const projectRoles: [Role, Record<string, boolean>][] = [
    ['projectOwner', { project_owner: true }],
    ['projectAdmin', { project_admin: true }],
    ['researcher', { researcher: true }],
    ['collector', { collector: true }],
    ['dataManager', { data_manager: true }],
    ['guest', {}],
  ];
  for (const [role, flags] of projectRoles) {
    const r = await api<{ user_id: number }>('POST', 'api/v1/project-user/', {
      ...as,
      body: { email: `${role}@matrix.test`, password: 'matrix pass 1', projectId: project.id, ...flags },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    userIds.set(role, r.body.user_id);
    await acceptInvitation(t, api, `${role}@matrix.test`, 'matrix pass 1');
  }
  for (const role of [...wsFlags.map(([r]) => r), ...projectRoles.map(([r]) => r)]) {
    const s = await login(api, `${role}@matrix.test`, 'matrix pass 1');
    tokens.set(role, s.access);
    userIds.set(role, s.user.id);
  }
  // The project users may open the other project too (as guests): referencing it needs that.
  for (const [role] of projectRoles) {
    const r = await api('PUT', `project/${other.id}/users/${userIds.get(role)}/`, { ...as, body: {} });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  // The outsider owns another workspace.
  await api('POST', 'api/v1/organization-user/', {
    ...as,
    body: { email: 'outsider@matrix.test', organization: org },
  });
  await acceptInvitation(t, api, 'outsider@matrix.test', 'matrix pass 1');
  const outsider = await login(api, 'outsider@matrix.test', 'matrix pass 1');
  const theirs = await api<{ id: number }>('POST', 'organization/', {
    token: outsider.access,
    body: { name: 'Outside' },
  });
  await api('DELETE', `organization/${org}/organization-users/${outsider.user.id}/`, as);
  tokens.set('outsider', (await login(api, 'outsider@matrix.test', 'matrix pass 1')).access);
  expect(theirs.status).toBe(201);
  // A form with one question, a response by the collector, and an export the owner queued.
  schema = project.sampler_schemas[0].id as number;
  const b = addBlock(newSchemaBody('S'), { en: 'B' });
  const q = addItem(b.body, b.id, 'number', 'en', 'Count');
  question = q.id;
  expect((await api('PUT', `samplerschema/${schema}/`, { ...as, body: { ...q.body, revision: 1 } })).status).toBe(200);
  collected = `${project.id}-${schema}-1-matrix-${Date.now()}`;
  const up = await api('POST', `project/${project.id}/response/`, {
    token: tokens.get('collector')!,
    body: { sampler_schema: schema, response_id: collected, data: { '0': { [question]: 3 } } },
  });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const job = await api<{ job: { id: string } }>('GET', `project/${project.id}/named_csv/?wait=0`, as);
  expect(job.status).toBeLessThan(300);
  ownerJob = job.body.job.id;
});
afterAll(async () => {
  await t?.stop();
});

interface Case {
  name: string;
  method: string;
  /** The path, possibly made fresh for each attempt (destructive calls). */
  path: () => Promise<string> | string;
  body?: () => Promise<unknown> | unknown;
  form?: () => FormData;
  allowed: Role[];
}

const ownerApi = <T = Record<string, any>>(method: string, path: string, body?: unknown) =>
  api<T>(method, path, { token: tokens.get('owner')!, body });
const P = () => project.id as number;
const freshSite = async () =>
  (await ownerApi('POST', `project/${P()}/sites/`, { name: 'S', geotag: point(1, 1) })).body.id as number;
const freshGroup = async () =>
  (await ownerApi('POST', `project/${P()}/groups/`, { name: 'G', site: project.sites[0].id })).body.id as number;
const freshTeam = async () =>
  (await ownerApi('POST', `project/${P()}/teams/`, { name: 'T', group: project.groups[0].id })).body.id as number;
let n = 0;
/** A new collector of the matrix project, who confirmed the invitation mailed to them. */
const freshCollector = async () => {
  const email = `c${++n}@fresh.test`;
  const made = await ownerApi('POST', 'api/v1/project-user/', { email, projectId: P(), collector: true });
  await acceptInvitation(t, api, email, 'fresh pass 12');
  return made.body.user_id as number;
};
/** A new member of the workspace, who confirmed the invitation (the answer names no account: its id is theirs). */
const freshMember = async () => {
  const email = `m${++n}@fresh.test`;
  await ownerApi('POST', 'api/v1/organization-user/', { email, organization: org });
  await acceptInvitation(t, api, email, 'fresh pass 12');
  return (await login(api, email, 'fresh pass 12')).user.id;
};
const freshFolder = async () =>
  (await ownerApi('POST', `organization/${org}/folders/`, { name: `F${++n}` })).body.id as number;
const csv = () => {
  const f = new FormData();
  f.append('file', new Blob([`email,role\nbulk${++n}@fresh.test,collector\n`], { type: 'text/csv' }), 'users.csv');
  return f;
};
const png = () => {
  const f = new FormData();
  f.append('file', new Blob([PNG], { type: 'image/png' }), 'logo.png');
  return f;
};
const upload = () => {
  const f = new FormData();
  f.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'data.csv');
  return f;
};

const PARAMS: Role[] = [...MANAGERS, 'projectOwner', 'projectAdmin'];
const SITES: Role[] = [...MANAGERS, 'projectOwner'];
const ADMINS: Role[] = [...MANAGERS, 'projectOwner'];
const HOME: Role[] = [...MANAGERS, 'projectOwner', 'projectAdmin', 'researcher', 'collector', 'dataManager'];
const VISIBLE: Role[] = [...MANAGERS, ...PROJECT_USERS];
// Results, exports and share links need the results permission (spec 001 §6; packages/access PROJECT_OPERATIONS):
// not the data manager (home, dataManager), not the project admin (home, parameters, form).
const RESULTS: Role[] = [...MANAGERS, 'projectOwner', 'researcher'];
// Reading responses: every role that collects, edits or reads results; the guest none.
const READERS: Role[] = [...MANAGERS, 'projectOwner', 'projectAdmin', 'researcher', 'collector', 'dataManager'];

const cases: Case[] = [
  { name: 'list workspaces', method: 'GET', path: () => 'organization/', allowed: AUTHENTICATED },
  { name: 'get workspace', method: 'GET', path: () => `organization/${org}/`, allowed: MEMBERS },
  {
    name: 'update workspace',
    method: 'PUT',
    path: () => `organization/${org}/`,
    body: () => ({ name: 'Demo Workspace' }),
    allowed: ['owner'],
  },
  {
    name: 'create workspace user',
    method: 'POST',
    path: () => 'api/v1/organization-user/',
    body: () => ({ email: `w${++n}@fresh.test`, organization: org }),
    allowed: ['owner', 'userAdmin'],
  },
  // Every route that creates or returns people (issue 30): adding one answers an invitation, never the account.
  { name: 'list my invitations', method: 'GET', path: () => 'accounts/invitations/', allowed: AUTHENTICATED },
  {
    name: 'read a collector’s account',
    method: 'GET',
    path: () => `accounts/user/${userIds.get('collector')}/`,
    allowed: ['owner', 'wsProjectAdmin', 'userAdmin', 'collector'],
  },
  {
    name: 'list workspace users',
    method: 'GET',
    path: () => `organization/${org}/organization-users/`,
    allowed: ['owner', 'wsProjectAdmin', 'userAdmin'],
  },
  {
    name: 'rename workspace user',
    method: 'PATCH',
    path: async () => `organization/${org}/organization-users/${await freshMember()}/`,
    body: () => ({ first_name: 'X' }),
    allowed: MANAGERS,
  },
  {
    name: 'remove workspace user',
    method: 'DELETE',
    path: async () => `organization/${org}/organization-users/${await freshMember()}/`,
    allowed: MANAGERS,
  },
  { name: 'list API keys', method: 'GET', path: () => `organization/${org}/api_keys/`, allowed: ['owner'] },
  {
    name: 'create API key',
    method: 'POST',
    path: () => `organization/${org}/api_keys/create/`,
    body: () => ({ name: 'k' }),
    allowed: ['owner'],
  },
  {
    name: 'revoke API key',
    method: 'PUT',
    path: () => `api/v0/organization/${org}/api_keys/revoke/`,
    body: async () => ({
      prefix: (await ownerApi('POST', `organization/${org}/api_keys/create/`, { name: 'r' })).body.prefix,
    }),
    allowed: ['owner'],
  },
  { name: 'list integrations', method: 'GET', path: () => `organization/${org}/integrations/`, allowed: MANAGERS },
  {
    name: 'create integration',
    method: 'POST',
    path: () => `organization/${org}/integrations/create/`,
    body: () => ({ integration_type: 'crm' }),
    allowed: MANAGERS,
  },
  {
    name: 'attach projects to an integration',
    method: 'PUT',
    path: () => `organization/${org}/integrations/projects/`,
    body: async () => ({
      token: (await ownerApi('POST', `organization/${org}/integrations/create/`, { integration_type: 'crm' })).body
        .token,
      projects: [P()],
    }),
    allowed: MANAGERS,
  },
  { name: 'list folders', method: 'GET', path: () => `organization/${org}/folders/`, allowed: MEMBERS },
  {
    name: 'create folder',
    method: 'POST',
    path: () => `organization/${org}/folders/`,
    body: () => ({ name: 'f' }),
    allowed: MANAGERS,
  },
  {
    name: 'rename folder',
    method: 'PUT',
    path: async () => `organization/${org}/folders/${await freshFolder()}/`,
    body: () => ({ name: 'g' }),
    allowed: MANAGERS,
  },
  {
    name: 'delete folder',
    method: 'DELETE',
    path: async () => `organization/${org}/folders/${await freshFolder()}/`,
    allowed: MANAGERS,
  },
  { name: 'advanced projects', method: 'GET', path: () => `organization/${org}/advanced_projects/`, allowed: MEMBERS },
  {
    name: 'reference projects',
    method: 'GET',
    path: () => `organization/${org}/reference-projects/`,
    allowed: MEMBERS,
  },
  {
    name: 'upload a logo',
    method: 'POST',
    path: () => `organization/${org}/logo/`,
    form: png,
    allowed: [...MANAGERS, 'projectOwner', 'projectAdmin'],
  },
  {
    name: 'create project',
    method: 'POST',
    path: () => 'project/',
    body: () => ({ name: 'p', organization_pk: org, geotag: point(0, 0) }),
    allowed: MANAGERS,
  },
  { name: 'get project', method: 'GET', path: () => `project/${P()}/`, allowed: VISIBLE },
  { name: 'project home', method: 'GET', path: () => `project/${P()}/home/`, allowed: HOME },
  { name: 'summary by site', method: 'GET', path: () => `project/${P()}/summary-by-site/`, allowed: HOME },
  {
    name: 'update project',
    method: 'PUT',
    path: () => `project/${P()}/`,
    body: () => ({ description: 'd' }),
    allowed: PARAMS,
  },
  {
    name: 'set is_entity',
    method: 'PATCH',
    path: () => `project/${P()}/`,
    body: () => ({ is_entity: false }),
    allowed: PARAMS,
  },
  { name: 'duplicate project', method: 'POST', path: () => `project/${P()}/duplicate/`, allowed: MANAGERS },
  { name: 'upload a file', method: 'POST', path: () => `project/${P()}/upload/`, form: upload, allowed: PARAMS },
  {
    name: 'set status',
    method: 'POST',
    path: () => `project/${P()}/status/`,
    body: () => ({ project_state: 'P' }),
    allowed: [...MANAGERS, 'projectOwner'],
  },
  {
    name: 'set type',
    method: 'POST',
    path: () => `project/${P()}/type/`,
    body: () => ({ project_type: 'S' }),
    allowed: PARAMS,
  },
  {
    name: 'set timing column',
    method: 'POST',
    path: () => `project/${P()}/timingcolumn/`,
    body: () => ({ timing_column: 'time_created' }),
    allowed: PARAMS,
  },
  {
    name: 'set aggregator',
    method: 'POST',
    path: () => `project/${P()}/aggregator/`,
    body: () => ({ project_aggregator: 'avg' }),
    allowed: PARAMS,
  },
  {
    name: 'set hierarchy',
    method: 'POST',
    path: () => `project/${P()}/hierarchy/`,
    body: () => ({ is_hierarchical: false, project_hierarchy: project.project_hierarchy }),
    allowed: PARAMS,
  },
  {
    name: 'create site',
    method: 'POST',
    path: () => `project/${P()}/sites/`,
    body: () => ({ name: 's', geotag: point(0, 0) }),
    allowed: SITES,
  },
  {
    name: 'update site',
    method: 'PUT',
    path: async () => `project/${P()}/sites/${await freshSite()}/`,
    body: () => ({ name: 's2' }),
    allowed: SITES,
  },
  {
    name: 'site active flag',
    method: 'PATCH',
    path: async () => `project/${P()}/sites/${await freshSite()}/`,
    body: () => ({ active_flag: false }),
    allowed: SITES,
  },
  {
    name: 'delete site',
    method: 'DELETE',
    path: async () => `project/${P()}/sites/${await freshSite()}/`,
    allowed: SITES,
  },
  {
    name: 'create group',
    method: 'POST',
    path: () => `project/${P()}/groups/`,
    body: () => ({ name: 'g', site: project.sites[0].id }),
    allowed: SITES,
  },
  {
    name: 'update group',
    method: 'PATCH',
    path: async () => `project/${P()}/groups/${await freshGroup()}/`,
    body: () => ({ name: 'g2' }),
    allowed: SITES,
  },
  {
    name: 'delete group',
    method: 'DELETE',
    path: async () => `project/${P()}/groups/${await freshGroup()}/`,
    allowed: SITES,
  },
  {
    name: 'create team',
    method: 'POST',
    path: () => `project/${P()}/teams/`,
    body: () => ({ name: 't', group: project.groups[0].id }),
    allowed: SITES,
  },
  {
    name: 'update team',
    method: 'PATCH',
    path: async () => `project/${P()}/teams/${await freshTeam()}/`,
    body: () => ({ name: 't2' }),
    allowed: SITES,
  },
  {
    name: 'delete team',
    method: 'DELETE',
    path: async () => `project/${P()}/teams/${await freshTeam()}/`,
    allowed: SITES,
  },
  { name: 'list project users', method: 'GET', path: () => `project/${P()}/users/`, allowed: ADMINS },
  {
    name: 'create project user',
    method: 'POST',
    path: () => 'api/v1/project-user/',
    body: () => ({ email: `p${++n}@fresh.test`, projectId: P(), collector: true }),
    allowed: ADMINS,
  },
  { name: 'list project users', method: 'GET', path: () => `project/${P()}/users/`, allowed: ADMINS },
  {
    name: 'update project user',
    method: 'PUT',
    path: async () => `project/${P()}/users/${await freshCollector()}/`,
    body: () => ({ collector: true }),
    allowed: ADMINS,
  },
  {
    name: 'remove project user',
    method: 'DELETE',
    path: async () => `project/${P()}/users/${await freshCollector()}/`,
    allowed: ADMINS,
  },
  {
    name: 'bulk add from a list',
    method: 'POST',
    path: () => 'project-user/bulk/',
    body: () => ({ projectId: P(), parsedList: [{ email: `l${++n}@fresh.test`, role: 'collector' }] }),
    allowed: ADMINS,
  },
  {
    name: 'bulk add from a file',
    method: 'POST',
    path: () => `project/${P()}/users/userslist/`,
    form: csv,
    allowed: ADMINS,
  },
  {
    name: 'set permissions',
    method: 'POST',
    path: () => 'project-users/permissions/',
    body: async () => ({ projectId: P(), userIds: [await freshCollector()], permissions: ['collector'] }),
    allowed: ADMINS,
  },
  // A public link delegates collecting to anyone: setting the project up, not collecting (issue 18, least privilege).
  {
    name: 'create survey',
    method: 'POST',
    path: () => `project/${P()}/surveys/`,
    body: () => ({ expiry_date: '2099-01-01T00:00:00Z' }),
    allowed: PARAMS,
  },
  { name: 'list surveys', method: 'GET', path: () => `project/${P()}/surveys/`, allowed: PARAMS },
  {
    name: 'revoke a survey',
    method: 'POST',
    path: async () =>
      `project/${P()}/surveys/${(await ownerApi('POST', `project/${P()}/surveys/`, { expiry_date: '2099-01-01T00:00:00Z' })).body.id}/revoke/`,
    allowed: PARAMS,
  },
  { name: 'list references', method: 'GET', path: () => `project/${P()}/references/`, allowed: VISIBLE },
  // Referencing changes the form's conditions: the form permission (the same roles as PARAMS), and the other project
  // must be one that may be referenced.
  {
    name: 'add reference',
    method: 'POST',
    path: () => `project/${P()}/references/`,
    body: () => ({ id: other.id, action: 'add' }),
    allowed: PARAMS,
  },
  // Results (issue 18 item 10: the data manager read them all).
  {
    name: 'project results',
    method: 'POST',
    path: () => `project/${P()}/results/`,
    body: () => ({}),
    allowed: RESULTS,
  },
  {
    name: 'item results',
    method: 'POST',
    path: () => `project/${P()}/results/schema/${schema}/item/`,
    body: () => ({ item_ids: [question] }),
    allowed: RESULTS,
  },
  {
    name: 'results response ids',
    method: 'POST',
    path: () => `project/${P()}/results/schema/${schema}/responses/`,
    body: () => ({ filters: {} }),
    allowed: RESULTS,
  },
  { name: 'results lookups', method: 'GET', path: () => `project/${P()}/results/lookups/`, allowed: RESULTS },
  {
    name: 'advanced results',
    method: 'POST',
    path: () => `project/${P()}/advanced_results/list/`,
    body: () => ({}),
    allowed: RESULTS,
  },
  {
    name: 'advanced result definitions',
    method: 'GET',
    path: () => `project/${P()}/advanced_results/edit_list/`,
    allowed: RESULTS,
  },
  {
    name: 'share an item',
    method: 'POST',
    path: () => `project/${P()}/results/schema/${schema}/item/${question}/token/`,
    body: () => ({}),
    allowed: RESULTS,
  },
  // Exports: every answer of the project, so the results permission; a job is its creator's alone.
  { name: 'export named CSV', method: 'GET', path: () => `project/${P()}/named_csv/?wait=0`, allowed: RESULTS },
  { name: 'export XLSX', method: 'GET', path: () => `project/${P()}/xlsx_excel/?wait=0`, allowed: RESULTS },
  { name: 'update export files', method: 'POST', path: () => `project/${P()}/export/`, allowed: RESULTS },
  {
    name: "read another user's export job",
    method: 'GET',
    path: () => `exports/jobs/${ownerJob}/`,
    allowed: ['owner'],
  },
  // Responses: the data manager lists, filters and reads them (to edit, delete and change their status).
  { name: 'list responses', method: 'GET', path: () => `project/${P()}/response/`, allowed: READERS },
  {
    name: 'filter responses',
    method: 'POST',
    path: () => `project/${P()}/response-chunk/filter/`,
    body: () => ({ filters: {}, currentSamplerSchema: schema }),
    allowed: READERS,
  },
];

describe('authorization matrix', () => {
  it.each(cases)('$name', async (c) => {
    const wrong: string[] = [];
    for (const role of ROLES) {
      const path = await c.path();
      const body = c.body ? await c.body() : undefined;
      const r = await api(c.method, path, {
        ...(role === 'anonymous' ? {} : { token: tokens.get(role)! }),
        body,
        ...(c.form ? { form: c.form() } : {}),
      });
      const allowed = c.allowed.includes(role);
      const ok = allowed
        ? r.status >= 200 && r.status < 300
        : role === 'anonymous'
          ? r.status === 401
          : role === 'outsider' && path.startsWith('project/')
            ? r.status === 404
            : r.status === 403 || r.status === 404;
      if (!ok)
        wrong.push(
          `${role}: ${allowed ? 'allowed' : 'denied'} but got ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`,
        );
    }
    expect(wrong).toEqual([]);
  });
});

describe('the data manager (spec 000 §6: editCompleted, changeStatus, edit, delete; screens home, dataManager)', () => {
  const as = (role: Role) => ({ token: tokens.get(role)! });
  it('reads, completes and deletes a collector’s response, and reads no results', async () => {
    const list = await api<{ results: { response_id: string }[] }>(
      'GET',
      `project/${P()}/response/`,
      as('dataManager'),
    );
    expect(list.body.results.map((r) => r.response_id)).toContain(collected);
    expect((await api('GET', `project/${P()}/response/single/${collected}/`, as('dataManager'))).status).toBe(200);
    const body = { sampler_schema: schema, response_id: collected, data: { '0': { [question]: 4 } } };
    // The researcher reads it but may not change its status; the data manager may, and may delete and restore it.
    expect((await api('POST', `project/${P()}/response/complete/`, { ...as('researcher'), body })).status).toBe(403);
    expect(await api('POST', `project/${P()}/response/complete/`, { ...as('dataManager'), body })).toMatchObject({
      status: 200,
      body: { completed: true },
    });
    expect(
      await api('POST', `project/${P()}/response/`, { ...as('dataManager'), body: { ...body, deleted: true } }),
    ).toMatchObject({ status: 200, body: { deleted: true } });
    expect(
      await api('POST', `project/${P()}/response/`, { ...as('dataManager'), body: { ...body, deleted: false } }),
    ).toMatchObject({ status: 200, body: { deleted: false } });
    // No statistic of it reaches the data manager, by any results route.
    const results = await api('POST', `project/${P()}/results/schema/${schema}/item/`, {
      ...as('dataManager'),
      body: { item_ids: [question] },
    });
    expect(results).toMatchObject({ status: 403, body: { detail: "You don't have access to this item." } });
  });

  it('gets a project whose screens say so, for the web to show no results', async () => {
    const p = await api<{ permissions: string[] }>('GET', `project/${P()}/`, as('dataManager'));
    expect([...p.body.permissions].sort()).toEqual(['dataManager', 'home']);
  });
});

describe('uploads that carry what no role may write (issue 30)', () => {
  // Whoever may upload gets a 400 naming the field; whoever may not, the matrix's refusal; nobody gets it stored.
  const crafted: { name: string; body: () => Record<string, unknown> }[] = [
    { name: 'made-up repeat instances', body: () => ({ data: { '0': {}, '5000': { [question]: 7 } } }) },
    { name: "another project's group", body: () => ({ site: project.sites[0].id, group: other.groups[0].id }) },
    { name: 'a time before 2000', body: () => ({ time_created: '1900-01-01T00:00:00Z' }) },
    { name: "another project's response as reference", body: () => ({ response_referenced_id: `${other.id}-1-x` }) },
  ];
  it.each(crafted)('$name', async (c) => {
    const wrong: string[] = [];
    for (const role of ROLES) {
      const r = await api('POST', `project/${P()}/response/`, {
        ...(role === 'anonymous' ? {} : { token: tokens.get(role)! }),
        body: {
          sampler_schema: schema,
          response_id: `${P()}-${schema}-1-crafted-${role}`,
          data: { '0': { [question]: 1 } },
          ...c.body(),
        },
      });
      if (![400, 401, 403, 404].includes(r.status))
        wrong.push(`${role}: ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('people (issue 30 item 8: the same rule on every route that returns people)', () => {
  // Those who may list the project's users (GET project/{id}/users/: the admins or staff screen).
  const USER_MANAGERS: Role[] = ADMINS;
  const emailOf = (role: Role) => (role === 'owner' ? ownerEmail : `${role}@matrix.test`).toLowerCase();
  /** The other members' emails, quoted as they appear in a JSON answer (compared lowercased). */
  const others = (role: Role) =>
    [...userIds].filter(([r]) => r !== role && r !== 'outsider').map(([r]) => `"${emailOf(r)}"`);

  it('gives the project’s other members’ emails, permissions and read_sites only to those who may list its users', async () => {
    // One member with read_sites and a name, one without a name (their username is their email).
    const named = await freshCollector();
    expect(
      (
        await ownerApi('PUT', `project/${P()}/users/${named}/`, {
          read_sites: [project.sites[0].id],
          first_name: 'Ada',
          last_name: 'Lovelace',
        })
      ).status,
    ).toBe(200);
    const wrong: string[] = [];
    for (const role of VISIBLE) {
      const r = await api<{ projectuser_set: Record<string, any>[] }>('GET', `project/${P()}/`, {
        token: tokens.get(role)!,
      });
      expect(r.status).toBe(200);
      const me = userIds.get(role);
      const theirs = r.body.projectuser_set.filter((u) => u.user_id !== me);
      const text = JSON.stringify(theirs).toLowerCase();
      const entry = theirs.find((u) => u.user_id === named);
      if (USER_MANAGERS.includes(role)) {
        if (!entry?.email || entry.read_sites.length !== 1 || entry.permissions.length === 0)
          wrong.push(`${role} manages users but got ${JSON.stringify(entry)}`);
        continue;
      }
      // Another member's name stays (the results and response lists show collectors by name); nothing else.
      if (entry?.display_name !== 'Ada Lovelace') wrong.push(`${role} lost the name: ${JSON.stringify(entry)}`);
      for (const email of [...others(role), 'fresh.test'])
        if (text.includes(email)) wrong.push(`${role} reads ${email}`);
      for (const u of theirs)
        if (u.read_sites.length > 0 || u.permissions.length > 0 || u.project_admin || u.researcher || u.staff_admin)
          wrong.push(`${role} reads ${JSON.stringify(u)}`);
      // Their own entry stays whole (the web app reads their place and roles from it).
      const own = r.body.projectuser_set.find((u) => u.user_id === me);
      if (own && own.email.toLowerCase() !== emailOf(role)) wrong.push(`${role}'s own entry: ${JSON.stringify(own)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers the same rule on the users list, the workspace and the collectors of the results', async () => {
    for (const role of VISIBLE) {
      const as = { token: tokens.get(role)! };
      const users = await api('GET', `project/${P()}/users/`, as);
      expect(users.status, role).toBe(USER_MANAGERS.includes(role) ? 200 : 403);
      // The workspace's answer lists only the caller's own membership to those who do not manage its users.
      const ws = await api('GET', `organization/${org}/`, as);
      if (ws.status === 200 && !['owner', 'wsProjectAdmin'].includes(role))
        for (const email of others(role))
          expect(JSON.stringify(ws.body).toLowerCase(), `${role}: ${email}`).not.toContain(email);
      // The collectors of the results name the people whose responses the caller reads: id, name, count, no more.
      const c = await api<{ results: Record<string, unknown>[] }>('GET', `project/${P()}/results/collectors/`, as);
      if (c.status === 200)
        for (const person of c.body.results)
          expect(Object.keys(person).sort(), role).toEqual(['id', 'name', 'responses']);
    }
  });
});
