// People and roles over HTTP (issue 19): a project user's permissions as GET lists them are written back unchanged by
// POST project-users/permissions/, the staff admin role, refused grants (audited), paged listings that say when a page
// size was capped, and workspace feature flags set only by staff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { auth } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;
let org: number;
let project: Json;
let n = 0;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  org = owner.organization.id;
  const r = await api<Json>('POST', 'project/', {
    token: owner.access,
    body: { name: 'People', organization_pk: org, geotag: point(-1.3, 36.8) },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  project = r.body;
}, 180_000);
afterAll(async () => {
  await t?.stop();
});

async function newProjectUser(roles: Json, by = owner): Promise<{ id: number; email: string; answer: Json }> {
  n++;
  const email = `people.${n}.${Date.now()}@example.org`;
  const r = await api<Json>('POST', 'api/v1/project-user/', {
    token: by.access,
    body: {
      projectId: project.id,
      email,
      first_name: 'Pat',
      last_name: `People${n}`,
      password: 'correct horse 42',
      ...roles,
    },
  });
  // The person confirms the invitation (issue 30 item 2): only then is the account theirs and a member.
  if (r.status === 200) await acceptInvitation(t, api, email, 'correct horse 42');
  return { id: r.body.user_id as number, email, answer: r };
}

const users = async () =>
  (await api<{ results: Json[] }>('GET', `project/${project.id}/users/?page_size=200`, { token: owner.access })).body
    .results;

describe('project users’ permissions (spec 000 §6 names)', () => {
  it('GET then POST of the same body changes nothing', async () => {
    const south = await api<Json>('POST', `project/${project.id}/sites/`, {
      token: owner.access,
      body: { name: 'South', geotag: point(-1.1, 36.9) },
    });
    await newProjectUser({ researcher: true, collector: true });
    await newProjectUser({ staff_admin: true });
    await newProjectUser({ data_manager: true, read_sites: [south.body.id] });
    await newProjectUser({ project_admin: true });
    const before = await users();
    for (const u of before.filter((x) => x.user_id !== owner.user.id)) {
      const r = await api('POST', 'project-users/permissions/', {
        token: owner.access,
        body: { projectId: project.id, userIds: [u.user_id], permissions: u.permissions, read_sites: u.read_sites },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect(await users()).toEqual(before);
    // The names listed are spec 000 §6's screens, not role names.
    expect(before.map((u) => [...u.permissions].sort())).toEqual(
      expect.arrayContaining([
        ['collector', 'home', 'results'],
        ['home', 'staff'],
        ['dataManager', 'home'],
      ]),
    );
  });
});

describe('the staff admin', () => {
  it('opens home and staff, lists users, adds collectors; granting another role is refused and audited', async () => {
    const staff = await newProjectUser({ staff_admin: true });
    const session = await login(api, staff.email, 'correct horse 42');
    const seen = await api<Json>('GET', `project/${project.id}/`, { token: session.access });
    expect([...seen.body.permissions].sort()).toEqual(['home', 'staff']);
    expect((await api('GET', `project/${project.id}/users/`, { token: session.access })).status).toBe(200);
    const collector = await newProjectUser({ collector: true }, session);
    expect(collector.answer).toMatchObject({ status: 200, body: { collector: true } });
    const refused = await api('PUT', `project/${project.id}/users/${collector.id}/`, {
      token: session.access,
      body: { collector: true, researcher: true },
    });
    expect(refused).toMatchObject({
      status: 403,
      body: { detail: 'You can only give access you have yourself: the role researcher.' },
    });
    const log = await api<{ results: Json[] }>('GET', `organization/${org}/audit/?event=role_grant_refused`, {
      token: owner.access,
    });
    expect(log.body.results[0]).toMatchObject({ event: 'role_grant_refused', actor_user_id: staff.id });
  });
});

describe('paged listings', () => {
  it('pages and searches members, says when a page size was capped; GET project counts its users', async () => {
    const capped = await api<Json>('GET', `organization/${org}/organization-users/?page_size=100000`, {
      token: owner.access,
    });
    expect(capped.status).toBe(200);
    expect(capped.body).toMatchObject({ page: 1, page_size: 500, page_size_capped: true });
    expect(capped.body.detail).toBe('page_size is at most 500: pages of 500 are answered.');
    const one = await newProjectUser({ collector: true });
    const found = await api<Json>(
      'GET',
      `organization/${org}/organization-users/?search=${encodeURIComponent(one.email)}`,
      { token: owner.access },
    );
    expect(found.body).toMatchObject({ count: 1, page_size: 50, page_size_capped: false });
    expect(found.body.results[0].email).toBe(one.email);
    const byUsers = await api<Json>('GET', `project/${project.id}/users/?search=${encodeURIComponent(one.email)}`, {
      token: owner.access,
    });
    expect(byUsers.body).toMatchObject({ count: 1, page: 1, page_size_capped: false });
    expect(
      (await api<Json>('GET', `organization/${org}/organization-users/?page_size=ten`, { token: owner.access })).body,
    ).toEqual({ page_size: ['A valid integer is required.'] });
    const full = await api<Json>('GET', `project/${project.id}/`, { token: owner.access });
    expect(full.body.projectuser_count).toBe((await users()).length);
  });
});

describe('workspace feature flags', () => {
  it('are set by staff only, known features only, and audited', async () => {
    const name = (await api<Json>('GET', `organization/${org}/`, { token: owner.access })).body.name as string;
    const features = (await api<Json>('GET', `organization/${org}/`, { token: owner.access })).body
      .flagged_features as string[];
    const wanted = features.includes('ingestion') ? [] : ['ingestion'];
    // The owner may save the workspace with the flags it read, not change them.
    expect(
      (await api('PUT', `organization/${org}/`, { token: owner.access, body: { name, flagged_features: features } }))
        .status,
    ).toBe(200);
    expect(
      await api('PUT', `organization/${org}/`, { token: owner.access, body: { name, flagged_features: wanted } }),
    ).toMatchObject({ status: 403, body: { detail: "You don't have access to this item." } });

    const admin = createClient(auth.AuthServiceClient, `127.0.0.1:${t.ports.auth}`, { secret: t.contextSecret });
    const username = `staff${Date.now()}`;
    try {
      await admin.adminCreateUser({
        email: `${username}@example.org`,
        password: 'correct horse 42',
        username,
        first_name: 'Stef',
        last_name: 'Staff',
        is_staff: true,
        is_superuser: false,
        if_not_exists: false,
      });
      // Signing in needs a workspace: staff get their own; they act in every other one all the same.
      await admin.adminCreateOrganization({
        name: `Staff ${username}`,
        description: '',
        owner_username: username,
        if_not_exists: false,
      });
    } finally {
      admin.close();
    }
    const staff = await login(api, username, 'correct horse 42');
    expect(
      await api('PUT', `organization/${org}/`, { token: staff.access, body: { name, flagged_features: ['teleport'] } }),
    ).toMatchObject({ status: 400, body: { flagged_features: ['Unknown features: teleport. Known: ingestion.'] } });
    const changed = await api<Json>('PUT', `organization/${org}/`, {
      token: staff.access,
      body: { name, flagged_features: wanted },
    });
    expect(changed).toMatchObject({ status: 200, body: { flagged_features: wanted } });
    const log = await api<{ results: Json[] }>('GET', `organization/${org}/audit/?event=workspace_features_changed`, {
      token: owner.access,
    });
    expect(log.body.results[0]).toMatchObject({ event: 'workspace_features_changed' });
    // Put back what the demo workspace had.
    await api('PUT', `organization/${org}/`, { token: staff.access, body: { name, flagged_features: features } });
  });
});
