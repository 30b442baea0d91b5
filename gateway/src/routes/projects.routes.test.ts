// Routes of the projects service (projects, sites, groups, teams, project users, collection links, references)
// through app.inject with fake services: each answers its status with the service's reply on the wire, asks the
// service once with what the request said, and passes on the service's 404.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { projects, exports_ } from '@fieldwork/proto';
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

const project = projects.Project.fromPartial({ id: 7, name: 'Census', folder_id: 0, logo: '' });
const projectWire = { id: 7, name: 'Census', folder_id: null, logo: null };
const site = projects.Site.fromPartial({ id: 3, name: 'North', date_start: '', duration_days: -1 });
const siteWire = { id: 3, name: 'North', date_start: null, duration_days: null };
const group = projects.Group.fromPartial({ id: 4, name: 'G', site: 3 });
const team = projects.Team.fromPartial({ id: 5, name: 'T', group: 4 });
const user = projects.ProjectUser.fromPartial({ id: 6, user_id: 60, email: 'a@example.com', site: 0 });
const userWire = { id: 6, user_id: 60, email: 'a@example.com', site: null };
const survey = projects.Survey.fromPartial({ id: 8, site: 0, revoked_at: '' });
const surveyWire = { id: 8, site: null, revoked_at: null };

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: object;
  /** The projects service's method the route calls, its reply, and what the request must hold. */
  call: string;
  reply?: object;
  req?: object;
  status: number;
  /** Part of the answer (none for 204). */
  wire?: object;
}

const ROWS: Row[] = [
  {
    method: 'POST',
    url: '/api/project/',
    body: { name: 'Census', organization_pk: 1, geotag: { type: 'Point', coordinates: [2, 1] } },
    call: 'createProject',
    reply: project,
    req: { name: 'Census', organization_pk: 1, geotag: { latitude: 1, longitude: 2 } },
    status: 201,
    wire: projectWire,
  },
  {
    method: 'GET',
    url: '/api/project/7/',
    call: 'getProject',
    reply: project,
    req: { project_id: 7 },
    status: 200,
    wire: projectWire,
  },
  { method: 'GET', url: '/api/project/7/home/', call: 'projectHome', req: { project_id: 7 }, status: 200 },
  {
    method: 'GET',
    url: '/api/project/7/summary-by-site/',
    call: 'summaryBySite',
    reply: { results: [{ site_id: 3, last_response: '' }] },
    status: 200,
    wire: { results: [{ site_id: 3, last_response: null }], count: 1 },
  },
  {
    method: 'PUT',
    url: '/api/project/7/',
    body: { name: 'Renamed', goal_count: 10 },
    call: 'updateProject',
    reply: project,
    req: { project_id: 7, name: 'Renamed', goal_count: 10 },
    status: 200,
    wire: projectWire,
  },
  {
    method: 'PATCH',
    url: '/api/project/7/',
    body: { description: 'd' },
    call: 'updateProject',
    reply: project,
    req: { project_id: 7, description: 'd' },
    status: 200,
    wire: projectWire,
  },
  {
    method: 'POST',
    url: '/api/project/7/duplicate/',
    call: 'duplicateProject',
    reply: project,
    req: { project_id: 7, folder_id: 0 },
    status: 201,
    wire: projectWire,
  },
  {
    method: 'POST',
    url: '/api/project/7/duplicate/2/',
    call: 'duplicateProject',
    reply: project,
    req: { project_id: 7, folder_id: 2 },
    status: 201,
  },
  {
    method: 'GET',
    url: '/api/project/7/purge/',
    call: 'getPurge',
    reply: projects.PurgeStatus.fromPartial({
      project_id: 7,
      name: 'Census',
      state: 'none',
      counts: { responses: 10 },
    }),
    req: { project_id: 7 },
    status: 200,
    wire: { project_id: 7, state: 'none', counts: { responses: 10 }, requested_at: null, finished_at: null },
  },
  {
    method: 'POST',
    url: '/api/project/7/purge/',
    call: 'startPurge',
    reply: projects.PurgeStatus.fromPartial({
      project_id: 7,
      state: 'running',
      requested_at: '2026-11-26T10:00:00.000Z',
    }),
    req: { project_id: 7 },
    status: 202,
    wire: { project_id: 7, state: 'running', requested_at: '2026-11-26T10:00:00.000Z' },
  },
  {
    method: 'POST',
    url: '/api/project/7/status/',
    body: { project_state: 'live' },
    call: 'setStatus',
    reply: { status: 'live' },
    req: { project_id: 7, project_state: 'live' },
    status: 200,
    wire: { status: 'live' },
  },
  {
    method: 'POST',
    url: '/api/project/7/type/',
    body: { project_type: 'trend', trend_series_options: { time_particle: 'week' } },
    call: 'setType',
    reply: project,
    req: { project_type: 'trend', trend_series_options: { time_particle: 'week' } },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/project/7/period/',
    body: { trend_series_options: { trend_question_schema: 2 } },
    call: 'setPeriod',
    reply: project,
    req: { trend_series_options: { trend_question_schema: 2 } },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/project/7/hierarchy/',
    body: { is_hierarchical: true, project_hierarchy: [{ name: 'Household', schema: 2 }] },
    call: 'setHierarchy',
    reply: project,
    req: { is_hierarchical: true, project_hierarchy: [{ level: 0, name: 'Household', schema_id: 2 }] },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/project/7/timingcolumn/',
    body: { timing_column: 'q1' },
    call: 'setTimingColumn',
    reply: project,
    req: { timing_column: 'q1' },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/project/7/aggregator/',
    body: { project_aggregator: 'mean' },
    call: 'setAggregator',
    reply: project,
    req: { project_aggregator: 'mean' },
    status: 200,
  },
  // Sites, groups, teams.
  {
    method: 'POST',
    url: '/api/project/7/sites/',
    body: { name: 'North', geotag: { latitude: 1, longitude: 2 } },
    call: 'createSite',
    reply: site,
    req: { project_id: 7, name: 'North' },
    status: 201,
    wire: siteWire,
  },
  {
    method: 'PUT',
    url: '/api/project/7/sites/3/',
    body: { name: 'North' },
    call: 'updateSite',
    reply: site,
    req: { project_id: 7, site_id: 3, name: 'North' },
    status: 200,
    wire: siteWire,
  },
  {
    method: 'PATCH',
    url: '/api/project/7/sites/3/',
    body: { active_flag: false },
    call: 'setSiteActive',
    reply: site,
    req: { project_id: 7, site_id: 3, active_flag: false },
    status: 200,
  },
  {
    method: 'DELETE',
    url: '/api/project/7/sites/3/',
    call: 'deleteSite',
    req: { project_id: 7, site_id: 3 },
    status: 204,
  },
  {
    method: 'POST',
    url: '/api/project/7/groups/',
    body: { name: 'G', site: 3 },
    call: 'createGroup',
    reply: group,
    req: { name: 'G', site: 3 },
    status: 201,
    wire: { id: 4, name: 'G', site: 3 },
  },
  {
    method: 'PATCH',
    url: '/api/project/7/groups/4/',
    body: { name: 'H' },
    call: 'updateGroup',
    reply: group,
    req: { group_id: 4, name: 'H' },
    status: 200,
  },
  {
    method: 'DELETE',
    url: '/api/project/7/groups/4/',
    call: 'deleteGroup',
    req: { group_id: 4 },
    status: 204,
  },
  {
    method: 'POST',
    url: '/api/project/7/teams/',
    body: { name: 'T', group: 4 },
    call: 'createTeam',
    reply: team,
    req: { name: 'T', group: 4 },
    status: 201,
    wire: { id: 5, name: 'T', group: 4 },
  },
  {
    method: 'PATCH',
    url: '/api/project/7/teams/5/',
    body: { name: 'U' },
    call: 'updateTeam',
    reply: team,
    req: { team_id: 5, name: 'U' },
    status: 200,
  },
  { method: 'DELETE', url: '/api/project/7/teams/5/', call: 'deleteTeam', req: { team_id: 5 }, status: 204 },
  // Project users.
  {
    method: 'GET',
    url: '/api/project/7/users/?page=2&filter=collector',
    call: 'listProjectUsers',
    reply: { results: [user], count: 11 },
    req: { project_id: 7, page: 2, role: 'collector' },
    status: 200,
    wire: { results: [userWire], count: 11 },
  },
  {
    method: 'PUT',
    url: '/api/project/7/users/60/',
    body: { collector: true, read_sites: [3] },
    call: 'updateProjectUser',
    reply: user,
    req: { project_id: 7, user_id: 60, read_sites: [3], read_sites_given: true },
    status: 200,
    wire: userWire,
  },
  {
    method: 'DELETE',
    url: '/api/project/7/users/60/',
    call: 'deleteProjectUser',
    req: { project_id: 7, user_id: 60 },
    status: 204,
  },
  {
    method: 'POST',
    url: '/api/api/v1/project-user/',
    body: { projectId: 7, email: 'a@example.com', collector: true },
    call: 'addProjectUser',
    reply: user,
    req: { project_id: 7, email: 'a@example.com', roles: { collector: true } },
    status: 200,
    wire: userWire,
  },
  {
    method: 'POST',
    url: '/api/project-user/bulk/',
    body: { projectId: 7, parsedList: [{ email: 'a@example.com', role: 'collector', site: 3 }] },
    call: 'bulkAddProjectUsers',
    req: { project_id: 7, rows: [{ email: 'a@example.com', role: 'collector', site: '3' }] },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/project-users/permissions/',
    body: { projectId: 7, userIds: [60], permissions: ['collector'] },
    call: 'setPermissions',
    reply: { results: [user], count: 1 },
    req: {
      project_id: 7,
      user_ids: [60],
      permissions: ['collector'],
      permissions_given: true,
      read_sites_given: false,
    },
    status: 200,
    wire: { results: [userWire], count: 1 },
  },
  {
    method: 'PUT',
    url: '/api/project-users/permissions/',
    body: { project_id: 7, user_ids: [60], read_sites: [] },
    call: 'setPermissions',
    reply: { results: [], count: 0 },
    req: { project_id: 7, user_ids: [60], read_sites: [], read_sites_given: true },
    status: 200,
  },
  // Collection links and references.
  {
    method: 'POST',
    url: '/api/project/7/surveys/',
    body: { expiry_date: '2099-01-01T00:00:00Z' },
    call: 'createSurvey',
    reply: survey,
    req: { project_id: 7, expiry_date: '2099-01-01T00:00:00Z', site: 0 },
    status: 201,
    wire: surveyWire,
  },
  {
    method: 'GET',
    url: '/api/project/7/surveys/',
    call: 'listSurveys',
    reply: { results: [survey] },
    status: 200,
    wire: { results: [surveyWire], count: 1 },
  },
  {
    method: 'GET',
    url: '/api/project/7/surveys/8/',
    call: 'getSurvey',
    reply: survey,
    req: { project_id: 7, survey_id: 8 },
    status: 200,
    wire: surveyWire,
  },
  {
    method: 'POST',
    url: '/api/project/7/surveys/8/revoke/',
    call: 'revokeSurvey',
    reply: survey,
    req: { survey_id: 8 },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/project/7/surveys/8/expire/',
    call: 'expireSurvey',
    reply: survey,
    req: { survey_id: 8 },
    status: 200,
  },
  {
    method: 'GET',
    url: '/api/project/7/references/',
    call: 'listReferences',
    reply: { results: [project] },
    status: 200,
    wire: { results: [projectWire], count: 1 },
  },
  {
    method: 'POST',
    url: '/api/project/7/references/',
    body: { id: 9, action: 'add' },
    call: 'addReference',
    reply: { results: [project] },
    req: { project_id: 7, reference_id: 9, action: 'add' },
    status: 200,
    wire: { results: [projectWire], count: 1 },
  },
];

const send = (row: Row) =>
  t.inject({
    method: row.method,
    url: row.url,
    headers: t.as('owner'),
    ...(row.body ? { payload: row.body } : {}),
  });

describe('projects service routes', () => {
  it.each(ROWS.map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s: its status, one call of the service, the reply on the wire',
    async (_, row) => {
      if (row.reply) t.answer('projects', row.call, row.reply);
      const res = await send(row);
      expect(res.statusCode).toBe(row.status);
      if (row.status === 204) expect(res.body).toBe('');
      if (row.wire) expect(res.json()).toMatchObject(row.wire);
      const calls = t.serviceCalls();
      expect(calls.map((c) => `${c.service}.${c.method}`)).toEqual([`projects.${row.call}`]);
      // As the caller who sent it.
      expect(calls[0]?.req).toMatchObject({ caller: { user_id: USER_IDS.owner } });
      if (row.req) expect(calls[0]?.req).toMatchObject(row.req);
    },
  );

  it.each(ROWS.map((r) => [`${r.method} ${r.url}`, r] as const))('%s: passes on the service’s 404', async (_, row) => {
    t.answer('projects', row.call, () => {
      throw problems.notFound();
    });
    const res = await send(row);
    expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not found.' }]);
  });

  it('PATCH of a site passes its new name and geotag, and answers the service’s "Need Valid Geotag" as a field error', async () => {
    t.answer(
      'projects',
      'updateSite',
      projects.Site.fromPartial({ id: 3, name: 'Ridge', geotag: { latitude: -33.9, longitude: 18.4 } }),
    );
    const ok = await t.inject({
      method: 'PATCH',
      url: '/api/project/7/sites/3/',
      headers: t.as('owner'),
      payload: { name: 'Ridge', geotag: { type: 'Point', coordinates: [18.4, -33.9] } },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: 3, name: 'Ridge', geotag: { type: 'Point', coordinates: [18.4, -33.9] } });
    expect(t.serviceCalls()[0]?.req).toMatchObject({
      site_id: 3,
      name: 'Ridge',
      geotag_given: true,
      geotag: { latitude: -33.9, longitude: 18.4 },
    });

    t.reset();
    t.answer('projects', 'updateSite', () => {
      throw problems.invalidFields({ geotag: ['Need Valid Geotag'] });
    });
    const bad = await t.inject({
      method: 'PATCH',
      url: '/api/project/7/sites/3/',
      headers: t.as('owner'),
      payload: { geotag: { type: 'Point', coordinates: [18.4] } },
    });
    expect([bad.statusCode, bad.json()]).toEqual([400, { geotag: ['Need Valid Geotag'] }]);
    // A geotag that is no point reaches the service as given but unreadable, for it to refuse.
    expect(t.serviceCalls()[0]?.req).toMatchObject({ geotag_given: true });
    expect(t.serviceCalls()[0]?.req.geotag).toBeUndefined();
  });

  it('PATCH is_entity alone sets it and answers the project', async () => {
    t.answer('projects', 'getProject', project);
    const res = await t.inject({
      method: 'PATCH',
      url: '/api/project/7/',
      headers: t.as('owner'),
      payload: { is_entity: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(projectWire);
    expect(t.serviceCalls().map((c) => [c.method, c.req.is_entity])).toEqual([
      ['setEntity', true],
      ['getProject', undefined],
    ]);
  });

  it('PUT of a workspace user not in the project yet adds them', async () => {
    t.answer('projects', 'updateProjectUser', () => {
      throw problems.invalidUserId();
    });
    t.answer('projects', 'addProjectUser', user);
    const res = await t.inject({
      method: 'PUT',
      url: '/api/project/7/users/60/',
      headers: t.as('owner'),
      payload: { researcher: true },
    });
    expect(res.statusCode).toBe(200);
    expect(t.serviceCalls().map((c) => c.method)).toEqual(['updateProjectUser', 'addProjectUser']);
    expect(t.serviceCalls()[1]?.req).toMatchObject({ user_id: 60, roles: { researcher: true } });
  });

  it('user creation and bulk calls without a project: 404 "Invalid Project Id!" before the service', async () => {
    for (const url of ['/api/api/v1/project-user/', '/api/project-user/bulk/', '/api/project-users/permissions/']) {
      const res = await t.inject({ method: 'POST', url, headers: t.as('owner'), payload: { parsedList: [] } });
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { detail: 'Invalid Project Id!' }]);
    }
    expect(t.calls).toEqual([]);
  });

  it('a project file: multipart, 201 with the service’s answer', async () => {
    t.answer('projects', 'uploadFile', { file_id: 'f-1' });
    const form = new FormData();
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'data.csv');
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/upload/',
      headers: t.as('owner'),
      payload: form,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ file_id: 'f-1' });
    expect(t.serviceCalls()[0]?.req).toMatchObject({ project_id: 7, filename: 'data.csv', content_type: 'text/csv' });
  });

  it('a list of users from a file: the report of a finished job, 202 with a running one', async () => {
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob(['email,role\na@example.com,collector\n'], { type: 'text/csv' }), 'users.csv');
      return f;
    };
    const upload = () =>
      t.inject({ method: 'POST', url: '/api/project/7/users/userslist/', headers: t.as('owner'), payload: form() });
    t.answer(
      'exports',
      'createUsersImport',
      exports_.Job.fromPartial({ id: 'j-1', status: 'done', users_report: { added: 1 } }),
    );
    const done = await upload();
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ added: 1, job: { id: 'j-1', status: 'done' } });
    t.answer('exports', 'createUsersImport', exports_.Job.fromPartial({ id: 'j-2', status: 'running' }));
    t.answer('exports', 'getJob', exports_.Job.fromPartial({ id: 'j-2', status: 'running' }));
    const running = await upload();
    expect(running.statusCode).toBe(202);
    expect(running.json()).toMatchObject({ job: { id: 'j-2', status: 'running' } });
  });

  it("a purge refused by the projects service answers the service's refusal: not the owner 403, not deleted 400", async () => {
    t.answer('projects', 'startPurge', () => {
      throw problems.forbidden();
    });
    const denied = await t.inject({ method: 'POST', url: '/api/project/7/purge/', headers: t.as('owner') });
    expect([denied.statusCode, denied.json()]).toEqual([403, { detail: "You don't have access to this item." }]);
    t.answer('projects', 'startPurge', () => {
      throw problems.invalidFields({ project_state: ['Only a deleted project can be purged. Delete it first.'] });
    });
    const live = await t.inject({ method: 'POST', url: '/api/project/7/purge/', headers: t.as('owner') });
    expect([live.statusCode, live.json()]).toEqual([
      400,
      { project_state: ['Only a deleted project can be purged. Delete it first.'] },
    ]);
    const bad = await t.inject({ method: 'POST', url: '/api/project/x/purge/', headers: t.as('owner') });
    expect([bad.statusCode, bad.json()]).toEqual([404, { detail: 'Invalid Project Id!' }]);
  });

  it("answers a purge after its project's row is gone: the projects service decides, not the gateway's access check", async () => {
    // Found by the project-lifecycle journey: the purge removes the project's row before it records itself done, and
    // the owner's dialog, polling, was told "Invalid Project Id!" by the gateway instead of seeing the purge end.
    t.answer('projects', 'getAccess', () => {
      throw problems.invalidProjectId();
    });
    t.answer('projects', 'getPurge', () =>
      projects.PurgeStatus.fromPartial({
        project_id: 7,
        name: 'Census',
        state: 'done',
        requested_at: '2026-11-26T10:00:00.000Z',
        finished_at: '2026-11-26T10:00:05.000Z',
      }),
    );
    const res = await t.inject({ method: 'GET', url: '/api/project/7/purge/', headers: t.as('owner') });
    expect([res.statusCode, res.json()]).toMatchObject([200, { project_id: 7, state: 'done' }]);
    expect(t.calls.find((c) => c.method === 'getPurge')?.req).toMatchObject({ project_id: 7 });
  });

  it('has reached every route of its group', () => {
    const routes = [...routesTagged(['projects', 'sites, groups, teams', 'project users', 'surveys, references'])];
    expect(routes.length).toBeGreaterThan(1);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
