// Spec 000 through the API: workspaces, projects, sites/groups/teams, project users, surveys, references, folders,
// API keys and integrations, on the whole stack, with the spec's messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import postgres from 'postgres';
import { freePort, startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

let t: TestStack;
let api: Api;
let owner: Session;
let org: number;
let db: postgres.Sql;
let crm: Server;
const crmAnswers = new Map<string, [number, unknown]>();

// A 1x1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005000201a5b1f3a80000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  const crmPort = await freePort();
  crm = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const token = (JSON.parse(body || '{}') as { token?: string }).token ?? '';
      const [status, answer] = crmAnswers.get(token) ?? [404, { status: 'Unknown' }];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => crm.listen(crmPort, '127.0.0.1', r));
  t = await startTestStack({
    extraEnv: { INTEGRATION_CRM_VERIFY_URL: `http://127.0.0.1:${crmPort}/verify`, API_KEY_CACHE_S: '0' },
  });
  api = client(t);
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => {} });
  owner = await login(api, t.demo.username, t.demo.password);
  org = owner.organization.id;
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
  crm?.close();
});

const newProject = async (name: string, extra: Record<string, unknown> = {}) => {
  const r = await api<Record<string, any>>('POST', 'project/', {
    token: owner.access,
    body: { name, organization_pk: org, geotag: point(-1.3, 36.8), ...extra },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};

describe('projects', () => {
  it('refuses a project without a valid geotag: "Geotag is required"', async () => {
    for (const geotag of [
      undefined,
      null,
      { type: 'Point', coordinates: [1, 2, 3] },
      { type: 'Point', coordinates: [200, 0] },
      'here',
    ]) {
      const r = await api('POST', 'project/', {
        token: owner.access,
        body: { name: 'No place', organization_pk: org, geotag },
      });
      expect(r, JSON.stringify(geotag)).toMatchObject({
        status: 400,
        body: { non_field_errors: ['Geotag is required'] },
      });
    }
    expect(
      await api('POST', 'project/', {
        token: owner.access,
        body: { name: ' ', organization_pk: org, geotag: point(0, 0) },
      }),
    ).toMatchObject({
      status: 400,
      body: { name: ['This field may not be blank.'] },
    });
    expect(
      await api('POST', 'project/', {
        token: owner.access,
        body: { name: 'X', organization_pk: 99999, geotag: point(0, 0) },
      }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Organization Id!' },
    });
  });

  it('creates with the defaults: colour 5da83d, icon place, Default Site/Group/Team, the creator as owner, a schema', async () => {
    const p = await newProject('Census 2026');
    expect(p).toMatchObject({
      name: 'Census 2026',
      frontend_color: '5da83d',
      frontend_icon: 'place',
      project_state: 'P',
      project_type: 'S',
      geotag: point(-1.3, 36.8),
      primary_organization: org,
      folder_id: null,
    });
    expect(p.sites.map((s: { name: string }) => s.name)).toEqual(['Default Site']);
    expect(p.groups.map((g: { name: string }) => g.name)).toEqual(['Default Group']);
    expect(p.teams.map((g: { name: string }) => g.name)).toEqual(['Default Team']);
    expect(p.projectuser_set).toEqual([
      expect.objectContaining({
        user_id: owner.user.id,
        project_owner: true,
        site: p.sites[0].id,
        team: p.teams[0].id,
      }),
    ]);
    expect(p.sampler_schemas).toHaveLength(1);
    expect(p.project_hierarchy).toEqual([{ level: 0, name: 'Census 2026', schema_id: p.sampler_schemas[0].id }]);
    expect(p.permissions).toEqual(
      expect.arrayContaining(['home', 'canSetLive', 'sites', 'parameters', 'admins', 'form', 'results']),
    );
    const again = await api<Record<string, any>>('GET', `project/${p.id}/`, { token: owner.access });
    expect(again.body.id).toBe(p.id);
    const home = await api('GET', `project/${p.id}/home/`, { token: owner.access });
    expect(home).toMatchObject({
      status: 200,
      body: { sites: 1, active_sites: 1, users: 1, total_responses: 0, questions: 0 },
    });
    const bySite = await api<{ results: unknown[] }>('GET', `project/${p.id}/summary-by-site/`, {
      token: owner.access,
    });
    expect(bySite.body.results).toEqual([expect.objectContaining({ name: 'Default Site', total_responses: 0 })]);
    expect(await api('GET', 'project/999999/', { token: owner.access })).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Project Id!' },
    });
  });

  it('updates, refuses a bad geotag on update, and sets is_entity with PATCH', async () => {
    const p = await newProject('To edit');
    const r = await api('PUT', `project/${p.id}/`, {
      token: owner.access,
      body: { name: 'Edited', description: 'about', frontend_color: '#AA0000', frontend_icon: 'local_pizza' },
    });
    expect(r).toMatchObject({
      status: 200,
      body: { name: 'Edited', description: 'about', frontend_color: 'aa0000', frontend_icon: 'local_pizza' },
    });
    expect(
      await api('PUT', `project/${p.id}/`, { token: owner.access, body: { geotag: { coordinates: [1] } } }),
    ).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Geotag is required'] },
    });
    expect(
      await api('PUT', `project/${p.id}/`, { token: owner.access, body: { frontend_icon: 'rocket' } }),
    ).toMatchObject({ status: 400, body: { frontend_icon: [expect.any(String)] } });
    expect(await api('PATCH', `project/${p.id}/`, { token: owner.access, body: { is_entity: true } })).toMatchObject({
      status: 200,
      body: { is_entity: true },
    });
  });

  it('changes status: going live without a question is "State is invalid"; D removes the project from lists', async () => {
    const p = await newProject('Status');
    expect(
      await api('POST', `project/${p.id}/status/`, { token: owner.access, body: { project_state: 'O' } }),
    ).toMatchObject({
      status: 400,
      body: { status: ['State is invalid'] },
    });
    expect(
      await api('POST', `project/${p.id}/status/`, { token: owner.access, body: { project_state: 'Q' } }),
    ).toMatchObject({
      status: 400,
      body: { project_state: [expect.any(String)] },
    });
    expect(
      await api('POST', `project/${p.id}/status/`, { token: owner.access, body: { project_state: 'F' } }),
    ).toMatchObject({
      status: 200,
      body: { status: 'success', project_state: 'F' },
    });
    await api('POST', `project/${p.id}/status/`, { token: owner.access, body: { project_state: 'D' } });
    const list = await api<{ projects: number[] }>('GET', `organization/${org}/`, { token: owner.access });
    expect(list.body.projects).not.toContain(p.id);
    await api('POST', `project/${p.id}/status/`, { token: owner.access, body: { project_state: 'P' } });
    expect(
      (await api<{ projects: number[] }>('GET', `organization/${org}/`, { token: owner.access })).body.projects,
    ).toContain(p.id);
  });

  it('sets the type (a trend series carries time_particle, trend_question and aggregator), period, timing column, aggregator', async () => {
    const p = await newProject('Trend');
    expect(
      await api('POST', `project/${p.id}/type/`, { token: owner.access, body: { project_type: 'T' } }),
    ).toMatchObject({
      status: 400,
      body: { trend_series_options: [expect.any(String)] },
    });
    const bad = await api('POST', `project/${p.id}/type/`, {
      token: owner.access,
      body: {
        project_type: 'T',
        trend_series_options: { time_particle: 'fortnight', trend_question: '', aggregator: 'median' },
      },
    });
    expect(Object.keys(bad.body).sort()).toEqual(['aggregator', 'time_particle', 'trend_question']);
    const ok = await api<Record<string, any>>('POST', `project/${p.id}/type/`, {
      token: owner.access,
      body: {
        project_type: 'T',
        trend_series_options: { time_particle: 'month', trend_question: 'Q1_1', aggregator: 'avg' },
      },
    });
    expect(ok).toMatchObject({
      status: 200,
      body: {
        project_type: 'T',
        trend_series_options: { time_particle: 'month', trend_question: 'Q1_1', aggregator: 'avg' },
      },
    });
    const schema = ok.body.sampler_schemas[0].id;
    const period = await api('POST', `project/${p.id}/period/`, {
      token: owner.access,
      body: {
        trend_series_options: {
          time_particle: 'week',
          trend_question: 'Q1_2',
          aggregator: 'sum',
          trend_question_schema: schema,
        },
      },
    });
    expect(period).toMatchObject({
      status: 200,
      body: { project_period: 'week', trend_series_options: { trend_question_schema: schema } },
    });
    expect(
      (await api('POST', `project/${p.id}/type/`, { token: owner.access, body: { project_type: 'Z' } })).status,
    ).toBe(400);
    expect(
      await api('POST', `project/${p.id}/type/`, { token: owner.access, body: { project_type: 'L' } }),
    ).toMatchObject({ status: 200, body: { project_type: 'L' } });
    expect(
      await api('POST', `project/${p.id}/timingcolumn/`, {
        token: owner.access,
        body: { timing_column: 'time_updated' },
      }),
    ).toMatchObject({
      status: 200,
      body: { timing_column: 'time_updated' },
    });
    expect(
      (
        await api('POST', `project/${p.id}/timingcolumn/`, {
          token: owner.access,
          body: { timing_column: 'yesterday' },
        })
      ).status,
    ).toBe(400);
    expect(
      await api('POST', `project/${p.id}/aggregator/`, { token: owner.access, body: { project_aggregator: 'stddev' } }),
    ).toMatchObject({
      status: 200,
      body: { aggregator: 'stddev' },
    });
  });

  it('adds and removes hierarchy levels, refusing to delete a level that has responses', async () => {
    const p = await newProject('Households');
    const level0 = p.project_hierarchy[0];
    const two = await api<Record<string, any>>('POST', `project/${p.id}/hierarchy/`, {
      token: owner.access,
      body: { is_hierarchical: true, project_hierarchy: [level0, { level: 1, name: 'Members', schema_id: 0 }] },
    });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(two.body).toMatchObject({
      is_hierarchical: true,
      project_hierarchy: [level0, { level: 1, name: 'Members' }],
    });
    expect(two.body.sampler_schemas).toHaveLength(2);
    const membersSchema = two.body.project_hierarchy[1].schema_id;
    expect(
      await api('POST', `project/${p.id}/hierarchy/`, {
        token: owner.access,
        body: { is_hierarchical: false, project_hierarchy: two.body.project_hierarchy },
      }),
    ).toMatchObject({
      status: 400,
      body: { project_hierarchy: ['Only a hierarchical project can have several levels.'] },
    });
    // A response recorded against the Members schema (the responses issue uploads them; here the row is written directly).
    await db`insert into responses.responses (response_id, project_id, schema_id, user_id) values (${`r-${p.id}`}, ${p.id}, ${membersSchema}, ${owner.user.id})`;
    expect(
      await api('POST', `project/${p.id}/hierarchy/`, {
        token: owner.access,
        body: { is_hierarchical: true, project_hierarchy: [level0] },
      }),
    ).toMatchObject({
      status: 400,
      body: { project_hierarchy: ["You can't delete levels that already have responses."] },
    });
    await db`delete from responses.responses where project_id = ${p.id}`;
    const one = await api<Record<string, any>>('POST', `project/${p.id}/hierarchy/`, {
      token: owner.access,
      body: { is_hierarchical: false, project_hierarchy: [level0] },
    });
    expect(one.status).toBe(200);
    expect(one.body.sampler_schemas).toHaveLength(1);
  });

  it('duplicates into a folder or not, and uploads files and logos to the object store', async () => {
    const p = await newProject('Original', { description: 'first' });
    const folder = await api<{ id: number }>('POST', `organization/${org}/folders/`, {
      token: owner.access,
      body: { name: 'Copies' },
    });
    const copy = await api<Record<string, any>>('POST', `project/${p.id}/duplicate/`, { token: owner.access });
    expect(copy).toMatchObject({
      status: 201,
      body: { name: 'Original (copy)', description: 'first', project_state: 'P' },
    });
    expect(copy.body.sites.map((s: { name: string }) => s.name)).toEqual(['Default Site']);
    const inFolder = await api('POST', `project/${p.id}/duplicate/${folder.body.id}/`, { token: owner.access });
    expect(inFolder).toMatchObject({ status: 201, body: { folder_id: folder.body.id } });

    const form = new FormData();
    form.append('file', new Blob(['name,age\nAna,31\n'], { type: 'text/csv' }), 'people.csv');
    const up = await api<{ file_id: string; url: string }>('POST', `project/${p.id}/upload/`, {
      token: owner.access,
      form,
    });
    expect(up).toMatchObject({
      status: 201,
      body: { file_id: expect.stringMatching(/^[0-9a-f-]{36}$/), filename: 'people.csv', size: 16 },
    });
    expect(await (await fetch(up.body.url)).text()).toBe('name,age\nAna,31\n');
    const exe = new FormData();
    exe.append('file', new Blob(['MZ']), 'tool.exe');
    expect(await api('POST', `project/${p.id}/upload/`, { token: owner.access, form: exe })).toMatchObject({
      status: 400,
      body: { file: [expect.stringContaining('Unsupported file type')] },
    });
    expect(await api('POST', `project/${p.id}/upload/`, { token: owner.access, body: {} })).toMatchObject({
      status: 400,
    });

    const logoForm = new FormData();
    logoForm.append('file', new Blob([PNG], { type: 'image/png' }), '../../logo.png');
    const logo = await api<{ file_id: string }>('POST', `organization/${org}/logo/`, {
      token: owner.access,
      form: logoForm,
    });
    expect(logo).toMatchObject({
      status: 201,
      body: { file_id: expect.stringMatching(/^project-logos\/[0-9a-f]{16}-logo\.png$/) },
    });
    const withLogo = await newProject('Logo', { logo: logo.body.file_id });
    const image = await fetch(withLogo.logo);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    // Change the first hex digit of the signature (to another digit: a 0 stays a 0 otherwise).
    const tampered = withLogo.logo.replace(/sig=([0-9a-f])/, (_m: string, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);
    const fake = new FormData();
    fake.append('file', new Blob(['<svg/>']), 'x.png');
    expect(await api('POST', `organization/${org}/logo/`, { token: owner.access, form: fake })).toMatchObject({
      status: 400,
      body: { file: ['The file is not the image its name says.'] },
    });
  });
});

describe('sites, groups and teams', () => {
  it('validates sites ("Need Valid Geotag"), keeps dates and duration, the active flag, and the spec ids messages', async () => {
    const p = await newProject('Sites');
    expect(
      await api('POST', `project/${p.id}/sites/`, { token: owner.access, body: { name: 'Nowhere' } }),
    ).toMatchObject({
      status: 400,
      body: { geotag: ['Need Valid Geotag'] },
    });
    const site = await api<Record<string, any>>('POST', `project/${p.id}/sites/`, {
      token: owner.access,
      body: { name: 'Kisumu', geotag: point(-0.09, 34.77), date_start: '2026-03-01', date_end: '2026-03-31' },
    });
    expect(site).toMatchObject({
      status: 201,
      body: { name: 'Kisumu', date_start: '2026-03-01', date_end: '2026-03-31', duration_days: 30, active_flag: true },
    });
    expect(
      await api('PUT', `project/${p.id}/sites/${site.body.id}/`, {
        token: owner.access,
        body: { name: 'Kisumu East', date_end: '2026-02-01' },
      }),
    ).toMatchObject({
      status: 400,
      body: { date_end: ['The end date must not be before the start date.'] },
    });
    expect(
      await api('PATCH', `project/${p.id}/sites/${site.body.id}/`, {
        token: owner.access,
        body: { active_flag: false },
      }),
    ).toMatchObject({
      status: 200,
      body: { active_flag: false },
    });
    expect(
      await api('PUT', `project/${p.id}/sites/999999/`, { token: owner.access, body: { name: 'x' } }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Project or Site Id!' },
    });
    expect(
      await api('POST', `project/${p.id}/groups/`, { token: owner.access, body: { name: 'G', site: 999999 } }),
    ).toMatchObject({
      status: 400,
      body: { site: ['Invalid Project or Site Id!'] },
    });
    const group = await api<{ id: number }>('POST', `project/${p.id}/groups/`, {
      token: owner.access,
      body: { name: 'North', site: site.body.id },
    });
    expect(group).toMatchObject({ status: 201, body: { name: 'North', site: site.body.id } });
    expect(
      await api('PATCH', `project/${p.id}/groups/999999/`, { token: owner.access, body: { name: 'x' } }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Project or Group Id!' },
    });
    const team = await api<{ id: number }>('POST', `project/${p.id}/teams/`, {
      token: owner.access,
      body: { name: 'Team A', group: group.body.id },
    });
    expect(team).toMatchObject({ status: 201, body: { name: 'Team A', group: group.body.id } });
    expect(await api('DELETE', `project/${p.id}/teams/999999/`, { token: owner.access })).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Project or Team Id!' },
    });
    expect(
      await api('PATCH', `project/${p.id}/teams/${team.body.id}/`, {
        token: owner.access,
        body: { name: 'Team Alpha' },
      }),
    ).toMatchObject({
      status: 200,
      body: { name: 'Team Alpha' },
    });

    // Deleting a site clears site, group and team from its project users.
    const collector = await api<Record<string, any>>('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: {
        email: 'site.collector@example.org',
        first_name: 'Site',
        last_name: 'Collector',
        projectId: p.id,
        collector: true,
        team: team.body.id,
      },
    });
    expect(collector.body).toMatchObject({
      site: site.body.id,
      group: group.body.id,
      team: team.body.id,
      collector: true,
    });
    await acceptInvitation(t, api, 'site.collector@example.org', 'site collector 1');
    expect((await api('DELETE', `project/${p.id}/sites/${site.body.id}/`, { token: owner.access })).status).toBe(204);
    const after = await api<Record<string, any>>('GET', `project/${p.id}/`, { token: owner.access });
    const u = after.body.projectuser_set.find((x: { user_id: number }) => x.user_id === collector.body.user_id);
    expect(u).toMatchObject({ site: null, group: null, team: null });
    expect(after.body.groups.map((g: { name: string }) => g.name)).toEqual(['Default Group']);
  });
});

describe('project users', () => {
  let p: Record<string, any>;
  let collectorId: number;
  beforeAll(async () => {
    p = await newProject('People');
  });

  it('creates a user by email with a role and place; the username is the lower-cased email and they can log in', async () => {
    const r = await api<Record<string, any>>('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: {
        email: 'Field.One@Example.org',
        first_name: 'Field',
        last_name: 'One',
        password: 'collector pass 1',
        projectId: p.id,
        collector: true,
        team: p.teams[0].id,
      },
    });
    expect(r).toMatchObject({
      status: 200,
      body: { username: 'field.one@example.org', display_name: 'Field One', collector: true, site: p.sites[0].id },
    });
    collectorId = r.body.user_id;
    await acceptInvitation(t, api, 'Field.One@Example.org', 'collector pass 1');
    const s = await login(api, 'field.one@example.org', 'collector pass 1');
    expect(s.organization.id).toBe(org);
    expect(
      await api('POST', 'api/v1/project-user/', { token: owner.access, body: { email: 'bad', projectId: p.id } }),
    ).toMatchObject({
      status: 400,
      body: { email: ['Enter a valid email address.'] },
    });
    expect(
      await api('POST', 'api/v1/project-user/', {
        token: owner.access,
        body: { email: 'x@example.org', projectId: p.id, team: 999999 },
      }),
    ).toMatchObject({
      status: 400,
      body: { team: ['Invalid Project or Team Id!'] },
    });
  });

  it('lists with paging, role filter and search', async () => {
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: {
        email: 'researcher.one@example.org',
        first_name: 'Rita',
        last_name: 'Search',
        projectId: p.id,
        researcher: true,
      },
    });
    // Listed once Rita has accepted the invitation mailed to her (issue 30 item 2).
    await acceptInvitation(t, api, 'researcher.one@example.org', 'rita own pass 1');
    const all = await api<{ results: { email: string }[]; count: number }>(
      'GET',
      `project/${p.id}/users/?page=1&page_size=2`,
      { token: owner.access },
    );
    expect(all.body.count).toBe(3);
    expect(all.body.results).toHaveLength(2);
    const page2 = await api<{ results: unknown[] }>('GET', `project/${p.id}/users/?page=2&page_size=2`, {
      token: owner.access,
    });
    expect(page2.body.results).toHaveLength(1);
    const collectors = await api<{ results: { email: string }[] }>('GET', `project/${p.id}/users/?role=collector`, {
      token: owner.access,
    });
    expect(collectors.body.results.map((u) => u.email)).toEqual(['Field.One@Example.org']);
    const found = await api<{ results: { email: string }[] }>('GET', `project/${p.id}/users/?search=rita`, {
      token: owner.access,
    });
    expect(found.body.results.map((u) => u.email)).toEqual(['researcher.one@example.org']);
    expect((await api('GET', `project/${p.id}/users/?role=boss`, { token: owner.access })).status).toBe(400);
  });

  it('updates roles, moves between teams, sets read_sites, and refuses acting on oneself', async () => {
    const team = await api<{ id: number }>('POST', `project/${p.id}/teams/`, {
      token: owner.access,
      body: { name: 'Second', group: p.groups[0].id },
    });
    const moved = await api('PUT', `project/${p.id}/users/${collectorId}/`, {
      token: owner.access,
      body: { team: team.body.id, researcher: true, collector: true, read_sites: [p.sites[0].id] },
    });
    expect(moved).toMatchObject({
      status: 200,
      body: { team: team.body.id, researcher: true, read_sites: [p.sites[0].id] },
    });
    expect(
      await api('PUT', `project/${p.id}/users/${collectorId}/`, {
        token: owner.access,
        body: { read_sites: [999999] },
      }),
    ).toMatchObject({
      status: 400,
      body: { read_sites: ['Invalid Project or Site Id!'] },
    });
    expect((await api('DELETE', `project/${p.id}/users/${owner.user.id}/`, { token: owner.access })).status).toBe(403);
    expect(await api('DELETE', `project/${p.id}/users/999999/`, { token: owner.access })).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Project or User Id!' },
    });
  });

  it('sets the roles and read_sites of several users with project-users/permissions/', async () => {
    const list = await api<{ results: { user_id: number }[] }>('GET', `project/${p.id}/users/?role=researcher`, {
      token: owner.access,
    });
    const ids = list.body.results.map((u) => u.user_id);
    const r = await api<{ results: Record<string, unknown>[] }>('POST', 'project-users/permissions/', {
      token: owner.access,
      body: { projectId: p.id, userIds: ids, permissions: ['data_manager'], read_sites: [] },
    });
    expect(r.status).toBe(200);
    for (const u of r.body.results)
      expect(u).toMatchObject({ data_manager: true, researcher: false, collector: false, read_sites: [] });
    expect(
      await api('PUT', 'project-users/permissions/', {
        token: owner.access,
        body: { projectId: p.id, userIds: ids, permissions: ['boss'] },
      }),
    ).toMatchObject({
      status: 400,
      body: { permissions: ['Unknown permissions: boss.'] },
    });
  });

  it('adds an existing workspace user by id, and removes a user', async () => {
    const other = await newProject('Other');
    const added = await api('PUT', `project/${other.id}/users/${collectorId}/`, {
      token: owner.access,
      body: { collector: true },
    });
    expect(added).toMatchObject({
      status: 200,
      body: { user_id: collectorId, collector: true, site: other.sites[0].id },
    });
    expect((await api('DELETE', `project/${other.id}/users/${collectorId}/`, { token: owner.access })).status).toBe(
      204,
    );
    expect(
      await api('PUT', `project/${other.id}/users/999999/`, { token: owner.access, body: { collector: true } }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Project or User Id!' },
    });
  });

  it('adds users in bulk from a list and from a CSV, reporting each bad row and why', async () => {
    const list = await api<Record<string, any>>('POST', 'project-user/bulk/', {
      token: owner.access,
      body: {
        projectId: p.id,
        parsedList: [
          {
            email: 'bulk.one@example.org',
            first_name: 'Bulk',
            last_name: 'One',
            role: 'collector',
            site: 'Default Site',
          },
          { email: 'not-an-email', role: 'collector' },
          { email: 'bulk.two@example.org', role: 'boss' },
          { email: 'bulk.three@example.org', role: 'researcher;collector', team: 'Default Team' },
        ],
      },
    });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ added: 2, failed: 2 });
    expect(list.body.rows[1]).toMatchObject({
      row: 2,
      status: 'failed',
      errors: ['"not-an-email": Enter a valid email address.'],
    });
    expect(list.body.rows[2]).toMatchObject({ row: 3, status: 'failed', errors: ['Unknown role: boss.'] });

    const csv =
      'email,first_name,last_name,role,site,group,team\ncsv.one@example.org,Csv,One,collector,,,\ncsv.two@example.org,Csv,Two,collector,Atlantis,,\n';
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'bulk_user_template.csv');
    const up = await api<Record<string, any>>('POST', `project/${p.id}/users/userslist/`, {
      token: owner.access,
      form,
    });
    expect(up.body).toMatchObject({
      added: 1,
      failed: 1,
      rows: [
        { row: 1, status: 'added' },
        { row: 2, status: 'failed', errors: ['No site "Atlantis" in this project.'] },
      ],
    });
    // It ran as a job of the exports service, readable afterwards by those who manage the project's users.
    expect(up.body.job).toMatchObject({ kind: 'import_users', status: 'done', rows_failed: 1 });
    expect(
      (await api<Record<string, any>>('GET', `exports/jobs/${up.body.job.id}/`, { token: owner.access })).body,
    ).toMatchObject({ status: 'done', result: { added: 1 } });
    const noEmail = new FormData();
    noEmail.append('file', new Blob(['name\nx\n'], { type: 'text/csv' }), 'x.csv');
    expect(await api('POST', `project/${p.id}/users/userslist/`, { token: owner.access, form: noEmail })).toMatchObject(
      {
        status: 400,
        body: { non_field_errors: [expect.stringContaining('needs an email column')] },
      },
    );
  });
});

describe('surveys and references', () => {
  it('creates collection links with an expiry date and references another project', async () => {
    const p = await newProject('Links');
    expect(
      await api('POST', `project/${p.id}/surveys/`, {
        token: owner.access,
        body: { expiry_date: '2020-01-01T00:00:00Z' },
      }),
    ).toMatchObject({
      status: 400,
      body: { expiry_date: ['The expiry date must be in the future.'] },
    });
    const s = await api<{ id: number; token: string }>('POST', `project/${p.id}/surveys/`, {
      token: owner.access,
      body: { expiry_date: '2099-01-01T00:00:00Z' },
    });
    expect(s).toMatchObject({
      status: 201,
      body: { token: expect.stringMatching(/^[\w-]{24}$/), expiry_date: '2099-01-01T00:00:00.000Z' },
    });
    expect(await api('GET', `project/${p.id}/surveys/${s.body.id}/`, { token: owner.access })).toMatchObject({
      status: 200,
      body: { id: s.body.id },
    });
    expect(
      (await api<Record<string, any>>('GET', `project/${p.id}/`, { token: owner.access })).body.current_survey,
    ).toMatchObject({ id: s.body.id });

    const target = await newProject('Registry');
    await api('PATCH', `project/${target.id}/`, { token: owner.access, body: { is_entity: true } });
    const refs = await api<{ results: { id: number }[] }>('POST', `project/${p.id}/references/`, {
      token: owner.access,
      body: { id: target.id, action: 'add' },
    });
    expect(refs.body.results.map((r) => r.id)).toEqual([target.id]);
    expect(
      (await api<{ results: unknown[] }>('GET', `project/${p.id}/references/`, { token: owner.access })).body.results,
    ).toHaveLength(1);
    expect(
      await api('POST', `project/${p.id}/references/`, { token: owner.access, body: { id: p.id, action: 'add' } }),
    ).toMatchObject({
      status: 400,
      body: { id: ['A project cannot reference itself.'] },
    });
    expect(
      (
        await api('POST', `project/${p.id}/references/`, {
          token: owner.access,
          body: { id: target.id, action: 'zap' },
        })
      ).status,
    ).toBe(400);
    const candidates = await api<{ results: { id: number }[] }>('GET', `organization/${org}/reference-projects/`, {
      token: owner.access,
    });
    expect(candidates.body.results.map((r) => r.id)).toContain(target.id);
    const advanced = await api<{ results: { id: number; total_responses: number }[] }>(
      'GET',
      `organization/${org}/advanced_projects/`,
      { token: owner.access },
    );
    expect(advanced.body.results.find((r) => r.id === p.id)).toMatchObject({ total_responses: 0 });
  });
});

describe('folders', () => {
  it('creates nested folders ("Please provide a folder name"), moves projects in, renames, deletes', async () => {
    expect(
      await api('POST', `organization/${org}/folders/`, { token: owner.access, body: { name: '  ' } }),
    ).toMatchObject({
      status: 400,
      body: { name: ['Please provide a folder name'] },
    });
    const top = await api<{ id: number }>('POST', `organization/${org}/folders/`, {
      token: owner.access,
      body: { name: 'Regions' },
    });
    const sub = await api<{ id: number; folder: number }>('POST', `organization/${org}/folders/`, {
      token: owner.access,
      body: { name: 'West', folder: top.body.id },
    });
    expect(sub.body.folder).toBe(top.body.id);
    const p = await newProject('Foldered');
    const wrapped = await api('POST', `organization/${org}/folders/`, {
      token: owner.access,
      body: { project: p.id, folder: sub.body.id },
    });
    expect(wrapped).toMatchObject({ status: 201, body: { type: 'project', project: p.id, folder: sub.body.id } });
    expect(
      await api('PUT', `organization/${org}/folders/${top.body.id}/`, {
        token: owner.access,
        body: { folder: sub.body.id },
      }),
    ).toMatchObject({
      status: 400,
      body: { folder: [expect.stringContaining('into itself')] },
    });
    expect(
      await api('PUT', `organization/${org}/folders/${sub.body.id}/`, {
        token: owner.access,
        body: { name: 'West Region' },
      }),
    ).toMatchObject({
      status: 200,
      body: { name: 'West Region' },
    });
    expect((await api('DELETE', `organization/${org}/folders/${sub.body.id}/`, { token: owner.access })).status).toBe(
      204,
    );
    expect((await api<Record<string, any>>('GET', `project/${p.id}/`, { token: owner.access })).body.folder_id).toBe(
      top.body.id,
    );
    const list = await api<{ results: { name: string }[] }>('GET', `organization/${org}/folders/`, {
      token: owner.access,
    });
    expect(list.body.results.map((f) => f.name)).toContain('Regions');
  });
});

describe('workspace users, API keys, integrations', () => {
  it('lists, renames and removes workspace users: non-owner targets only, never oneself', async () => {
    const member = await api<{ user: number }>('POST', 'api/v1/organization-user/', {
      token: owner.access,
      body: {
        email: 'member.one@example.org',
        first_name: 'Mem',
        last_name: 'Ber',
        password: 'member pass 11',
        organization: org,
      },
    });
    expect(member.body).toMatchObject({ invited: true, is_active: false });
    await acceptInvitation(t, api, 'member.one@example.org', 'member pass 11');
    const memberId = (await login(api, 'member.one@example.org', 'member pass 11')).user.id;
    const list = await api<{ results: { user: number; owner: boolean }[] }>(
      'GET',
      `organization/${org}/organization-users/`,
      { token: owner.access },
    );
    expect(list.body.results.some((u) => u.user === memberId)).toBe(true);
    expect(
      await api('PATCH', `organization/${org}/organization-users/${memberId}/`, {
        token: owner.access,
        body: { first_name: 'Member' },
      }),
    ).toMatchObject({
      status: 200,
      body: { first_name: 'Member', name: 'Member Ber' },
    });
    expect(
      (
        await api('PATCH', `organization/${org}/organization-users/${owner.user.id}/`, {
          token: owner.access,
          body: { first_name: 'Me' },
        })
      ).status,
    ).toBe(403);
    expect(
      await api('DELETE', `organization/${org}/organization-users/999999/`, { token: owner.access }),
    ).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Workspace or User Id!' },
    });
    expect(
      (await api('DELETE', `organization/${org}/organization-users/${memberId}/`, { token: owner.access })).status,
    ).toBe(204);
    expect(
      await api('POST', 'api-token-auth/', {
        body: { username: 'member.one@example.org', password: 'member pass 11' },
      }),
    ).toMatchObject({
      status: 400,
      body: { non_field_errors: ['User is not a member of any workspace, cannot continue.'] },
    });
  });

  it('creates an API key shown once, authenticates requests with it in its workspace only, and revokes it', async () => {
    const created = await api<{ key: string; prefix: string; name: string }>(
      'POST',
      `organization/${org}/api_keys/create/`,
      { token: owner.access, body: { name: 'BI export' } },
    );
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'BI export', key: expect.stringMatching(/^fwk_[0-9a-f]{8}_[\w-]{43}$/) },
    });
    const listed = await api<{ results: Record<string, unknown>[] }>('GET', `organization/${org}/api_keys/`, {
      token: owner.access,
    });
    expect(listed.body.results.find((k) => k.prefix === created.body.prefix)).not.toHaveProperty('key');
    const [row] = await db`select key_hash from auth.api_keys where prefix = ${created.body.prefix}`;
    expect(Buffer.from(row!.key_hash as Buffer).toString('hex')).not.toContain(created.body.key);
    expect(await api('GET', `organization/${org}/`, { token: created.body.key })).toMatchObject({
      status: 200,
      body: { id: org },
    });
    const elsewhere = await api<{ id: number }>('POST', 'organization/', {
      token: owner.access,
      body: { name: 'Elsewhere' },
    });
    expect(await api('GET', `organization/${elsewhere.body.id}/`, { token: created.body.key })).toMatchObject({
      status: 404,
    });
    expect(
      await api('PUT', `api/v0/organization/${org}/api_keys/revoke/`, {
        token: owner.access,
        body: { prefix: created.body.prefix },
      }),
    ).toMatchObject({
      status: 200,
      body: { revoked: expect.stringMatching(/^20/) },
    });
    expect(await api('GET', `organization/${org}/`, { token: created.body.key })).toMatchObject({
      status: 401,
      body: { detail: 'Token is invalid or expired' },
    });
    expect((await api('GET', `organization/${org}/`, { token: 'fwk_00000000_' + 'a'.repeat(43) })).status).toBe(401);
  });

  it('creates CRM integrations, attaches projects, and verifies only on 200 with status "Success"', async () => {
    expect(
      await api('POST', `organization/${org}/integrations/create/`, {
        token: owner.access,
        body: { integration_type: 'erp' },
      }),
    ).toMatchObject({
      status: 400,
      body: { integration_type: [expect.any(String)] },
    });
    const good = await api<{ token: string }>('POST', `organization/${org}/integrations/create/`, {
      token: owner.access,
      body: { integration_type: 'crm' },
    });
    const bad = await api<{ token: string }>('POST', `organization/${org}/integrations/create/`, {
      token: owner.access,
      body: { integration_type: 'crm' },
    });
    const down = await api<{ token: string }>('POST', `organization/${org}/integrations/create/`, {
      token: owner.access,
      body: { integration_type: 'crm' },
    });
    expect(good).toMatchObject({ status: 201, body: { integration_type: 'crm', verified: false } });
    crmAnswers.set(good.body.token, [200, { status: 'Success' }]);
    crmAnswers.set(bad.body.token, [200, { status: 'Failure' }]);
    crmAnswers.set(down.body.token, [500, { status: 'Success' }]);
    expect(
      await api('POST', `organization/${org}/integrations/verify/`, {
        token: owner.access,
        body: { token: good.body.token },
      }),
    ).toMatchObject({ body: { verified: true } });
    expect(
      await api('POST', `organization/${org}/integrations/verify/`, {
        token: owner.access,
        body: { token: bad.body.token },
      }),
    ).toMatchObject({ body: { verified: false } });
    expect(
      await api('POST', `organization/${org}/integrations/verify/`, {
        token: owner.access,
        body: { token: down.body.token },
      }),
    ).toMatchObject({ body: { verified: false } });
    const p = await newProject('Integrated');
    expect(
      await api('PUT', `organization/${org}/integrations/projects/`, {
        token: owner.access,
        body: { token: good.body.token, projects: [p.id] },
      }),
    ).toMatchObject({
      status: 200,
      body: { projects: [p.id] },
    });
    expect(
      await api('PUT', `organization/${org}/integrations/projects/`, {
        token: owner.access,
        body: { token: good.body.token, projects: [999999] },
      }),
    ).toMatchObject({
      status: 400,
      body: { projects: ['Not projects of this workspace: 999999.'] },
    });
    expect(
      await api('PUT', `organization/${org}/integrations/projects/`, {
        token: owner.access,
        body: { token: good.body.token, projects: [] },
      }),
    ).toMatchObject({
      body: { projects: [] },
    });
    const listed = await api<{ results: { token: string; verified: boolean }[] }>(
      'GET',
      `organization/${org}/integrations/`,
      { token: owner.access },
    );
    expect(listed.body.results.filter((i) => i.verified).map((i) => i.token)).toEqual([good.body.token]);
  });
});
