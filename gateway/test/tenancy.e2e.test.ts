// Workspaces keep to their own (issue 18 items 3, 11, 13): adding an account that exists is an invitation its owner
// accepts, and a workspace changes only workspace-scoped attributes of an account other workspaces share; API keys
// reach only the data routes of their workspace and mint nothing; a member without user management sees no other
// member's email or roles in the workspace's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;
let bob: Session;
let orgA: number;
let orgB: number;
const PASS = 'tenancy pass 12';

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  orgA = owner.organization.id;
  // Alice's account is workspace A's; Bob owns workspace B only.
  expect(
    (
      await api('POST', 'api/v1/organization-user/', {
        token: owner.access,
        body: { email: 'alice@a.test', first_name: 'Alice', last_name: 'Archer', password: PASS, organization: orgA },
      })
    ).status,
  ).toBe(200);
  await acceptInvitation(t, api, 'alice@a.test', PASS);
  expect(
    (
      await api('POST', 'api/v1/organization-user/', {
        token: owner.access,
        body: { email: 'bob@b.test', password: PASS, organization: orgA },
      })
    ).status,
  ).toBe(200);
  await acceptInvitation(t, api, 'bob@b.test', PASS);
  bob = await login(api, 'bob@b.test', PASS);
  orgB = (await api<Json>('POST', 'organization/', { token: bob.access, body: { name: 'Workspace B' } })).body
    .id as number;
  expect(
    (await api('DELETE', `organization/${orgA}/organization-users/${bob.user.id}/`, { token: owner.access })).status,
  ).toBe(204);
  bob = await login(api, 'bob@b.test', PASS);
});
afterAll(async () => {
  await t?.stop();
});

const nameOf = async (userId: number) => {
  const u = (await api<Json>('GET', `accounts/user/${userId}/`, { token: owner.access })).body;
  return `${u.first_name} ${u.last_name}`;
};

describe('another workspace’s account', () => {
  it('is invited, not added, by email: it joins only when its owner accepts, and until then nobody else renames it', async () => {
    const alice = await login(api, 'alice@a.test', PASS);
    const invited = await api<Json>('POST', 'api/v1/organization-user/', {
      token: bob.access,
      body: { email: 'alice@a.test', first_name: 'Evil', last_name: 'Name', organization: orgB, project_admin: true },
    });
    expect(invited.status).toBe(200);
    // The answer is made of what Bob sent (issue 30 item 7): nothing of Alice's account, not even its id.
    expect(invited.body).toMatchObject({ user: 0, name: 'Evil Name', is_active: false, invited: true });
    // Not a member of B: not listed, not editable, and her name stays hers.
    const members = (await api<Json>('GET', `organization/${orgB}/organization-users/`, { token: bob.access })).body
      .results as Json[];
    expect(members.map((m) => m.email)).not.toContain('alice@a.test');
    const renamed = await api('PATCH', `organization/${orgB}/organization-users/${alice.user.id}/`, {
      token: bob.access,
      body: { first_name: 'Hacked' },
    });
    expect(renamed).toMatchObject({ status: 404, body: { detail: 'Invalid Workspace or User Id!' } });
    // The project-user path reaches the same account: also an invitation, and no rename.
    const project = (
      await api<Json>('POST', 'project/', {
        token: bob.access,
        body: { name: 'B project', organization_pk: orgB, geotag: point(1, 1) },
      })
    ).body;
    const asProjectUser = await api<Json>('POST', 'api/v1/project-user/', {
      token: bob.access,
      body: { email: 'Alice@A.test', first_name: 'Evil', projectId: project.id, collector: true },
    });
    expect(asProjectUser.status).toBe(200);
    const viaProject = await api('PUT', `project/${project.id}/users/${alice.user.id}/`, {
      token: bob.access,
      body: { first_name: 'Hacked', last_name: 'Again' },
    });
    expect(viaProject.status).toBeGreaterThanOrEqual(400);
    expect(viaProject.status).toBeLessThan(500);
    expect(await nameOf(alice.user.id)).toBe('Alice Archer');
    // B cannot open her account, nor does she see B.
    expect((await api('GET', `accounts/user/${alice.user.id}/`, { token: bob.access })).status).toBe(404);
    expect(
      ((await api<Json>('GET', 'organization/', { token: alice.access })).body.results as Json[]).map((o) => o.id),
    ).toEqual([orgA]);

    // She sees the invitation and accepts it: a member of B with the role she was invited with.
    const list = await api<Json>('GET', 'accounts/invitations/', { token: alice.access });
    expect(list.body).toMatchObject({ count: 1, results: [{ organization: { id: orgB, name: 'Workspace B' } }] });
    expect(
      (await api<Json>('POST', `accounts/invitations/${orgB}/accept/`, { token: alice.access })).body,
    ).toMatchObject({ organization: { id: orgB }, accepted: true });
    expect((await api('POST', `accounts/invitations/${orgB}/accept/`, { token: alice.access })).status).toBe(404);
    expect(
      ((await api<Json>('GET', 'organization/', { token: alice.access })).body.results as Json[])
        .map((o) => o.id)
        .sort(),
    ).toEqual([orgA, orgB].sort());
    const joined = (
      (await api<Json>('GET', `organization/${orgB}/organization-users/`, { token: bob.access })).body.results as Json[]
    ).find((m) => m.user === alice.user.id);
    expect(joined).toMatchObject({ is_active: true, project_admin: true, invited: false });
    // B's owner sees her account now, with the workspaces they share only (not A).
    expect(
      (await api<Json>('GET', `accounts/user/${alice.user.id}/`, { token: bob.access })).body.organizations,
    ).toEqual([{ id: orgB, name: 'Workspace B' }]);

    // Shared now: neither workspace renames her (workspace-scoped roles still change); she renames herself.
    for (const [token, org] of [
      [bob.access, orgB],
      [owner.access, orgA],
    ] as const) {
      const r = await api('PATCH', `organization/${org}/organization-users/${alice.user.id}/`, {
        token,
        body: { first_name: 'Hacked' },
      });
      expect(r).toMatchObject({
        status: 403,
        body: { detail: 'This account also belongs to other workspaces: only its owner can change its name.' },
      });
    }
    expect(
      (
        await api('PUT', `project/${project.id}/users/${alice.user.id}/`, {
          token: bob.access,
          body: { first_name: 'Hacked' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api<Json>('PATCH', `organization/${orgB}/organization-users/${alice.user.id}/`, {
          token: bob.access,
          body: { project_admin: false },
        })
      ).body,
    ).toMatchObject({ project_admin: false });
    expect(await nameOf(alice.user.id)).toBe('Alice Archer');
    expect(
      (await api('PATCH', `accounts/user/${alice.user.id}/`, { token: alice.access, body: { first_name: 'Alicia' } }))
        .status,
    ).toBe(200);
    expect(await nameOf(alice.user.id)).toBe('Alicia Archer');
  });

  it('lets the invited person decline: no membership, nothing left to answer', async () => {
    await api('POST', 'api/v1/organization-user/', {
      token: owner.access,
      body: { email: 'carol@c.test', password: PASS, organization: orgA },
    });
    await acceptInvitation(t, api, 'carol@c.test', PASS);
    const carol = await login(api, 'carol@c.test', PASS);
    expect(
      (
        await api('POST', 'api/v1/organization-user/', {
          token: bob.access,
          body: { email: 'carol@c.test', organization: orgB },
        })
      ).status,
    ).toBe(200);
    expect((await api('POST', `accounts/invitations/${orgB}/decline/`, { token: carol.access })).status).toBe(200);
    expect((await api<Json>('GET', 'accounts/invitations/', { token: carol.access })).body).toMatchObject({ count: 0 });
    expect((await api('POST', `accounts/invitations/${orgB}/accept/`, { token: carol.access })).body).toEqual({
      detail: 'No pending invitation to this workspace.',
    });
    expect(
      ((await api<Json>('GET', 'organization/', { token: carol.access })).body.results as Json[]).map((o) => o.id),
    ).toEqual([orgA]);
    // An account a workspace made (its own alone) is still renamed by that workspace.
    expect(
      (
        await api('PATCH', `organization/${orgA}/organization-users/${carol.user.id}/`, {
          token: owner.access,
          body: { first_name: 'Caroline' },
        })
      ).status,
    ).toBe(200);
    expect(await nameOf(carol.user.id)).toMatch(/^Caroline/);
  });
});

describe('the workspace answer', () => {
  it('shows other members’ emails and roles only to those who manage users; a collector or guest sees only itself', async () => {
    const project = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Members', organization_pk: orgA, geotag: point(1, 1) },
      })
    ).body;
    for (const [email, roles] of [
      ['col@a.test', { collector: true }],
      ['guest@a.test', {}],
    ] as const) {
      expect(
        (
          await api('POST', 'api/v1/project-user/', {
            token: owner.access,
            body: { email, password: PASS, projectId: project.id, ...roles },
          })
        ).status,
      ).toBe(200);
      await acceptInvitation(t, api, email, PASS);
      const s = await login(api, email, PASS);
      const got = await api<Json>('GET', `organization/${orgA}/`, { token: s.access });
      expect(got.status).toBe(200);
      expect((got.body.organizationuser_set as Json[]).map((m) => m.email)).toEqual([email]);
      expect(got.body.project_details.map((p: Json) => p.id)).toContain(project.id);
      expect(got.body.permissions).toEqual([]);
      expect((s.organization as Json).organizationuser_set.map((m: Json) => m.email)).toEqual([email]);
      expect((await api('GET', `organization/${orgA}/organization-users/`, { token: s.access })).status).toBe(403);
    }
    const full = await api<Json>('GET', `organization/${orgA}/`, { token: owner.access });
    expect((full.body.organizationuser_set as Json[]).map((m) => m.email)).toEqual(
      expect.arrayContaining(['demo@example.com', 'alice@a.test', 'col@a.test', 'guest@a.test']),
    );
  });
});

describe('API keys', () => {
  it('reach the data routes of their workspace only, mint nothing, and stop with their revocation', async () => {
    const made = await api<Json>('POST', `organization/${orgA}/api_keys/create/`, {
      token: owner.access,
      body: { name: 'BI' },
    });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    const project = (
      await api<Json>('POST', 'project/', {
        token: key,
        body: { name: 'By key', organization_pk: orgA, geotag: point(1, 1) },
      })
    ).body;
    expect(project.id).toBeGreaterThan(0);
    expect((await api('GET', `project/${project.id}/`, { token: key })).status).toBe(200);
    expect((await api('GET', `organization/${orgA}/`, { token: key })).status).toBe(200);
    expect((await api('GET', `organization/${orgA}/folders/`, { token: key })).status).toBe(200);
    const refused: [string, string, unknown?][] = [
      ['POST', `organization/${orgA}/api_keys/create/`, { name: 'child' }],
      ['GET', `organization/${orgA}/api_keys/`],
      ['PUT', `api/v0/organization/${orgA}/api_keys/revoke/`, { prefix: made.body.prefix }],
      ['POST', 'organization/', { name: 'Made by a key' }],
      ['GET', 'organization/'],
      ['PUT', `organization/${orgA}/`, { name: 'Renamed by a key' }],
      ['GET', `organization/${orgA}/organization-users/`],
      ['POST', 'api/v1/organization-user/', { email: 'bykey@a.test', organization: orgA }],
      ['POST', 'api/v1/project-user/', { email: 'bykey@a.test', projectId: project.id, collector: true }],
      ['GET', `organization/${orgA}/integrations/`],
      ['GET', `organization/${orgA}/audit/`],
      ['GET', `accounts/user/${owner.user.id}/`],
      ['PATCH', `accounts/user/${owner.user.id}/`, { first_name: 'Key' }],
      ['PUT', `accounts/user/${owner.user.id}/settings`, { agreed_terms: '1.1' }],
      [
        'POST',
        `accounts/user/${t.demo.email}/reset`,
        { old_password: t.demo.password, new_password: 'a brand new pass 9' },
      ],
      ['GET', 'accounts/invitations/'],
      ['POST', 'accounts/logout/', {}],
    ];
    for (const [method, path, body] of refused) {
      const r = await api(method, path, { token: key, body });
      expect(r, `${method} ${path}`).toMatchObject({
        status: 403,
        body: { detail: 'API keys cannot be used for this call.' },
      });
    }
    const keys = (await api<Json>('GET', `organization/${orgA}/api_keys/`, { token: owner.access })).body
      .results as Json[];
    expect(keys.map((k) => k.name)).toEqual(['BI']);
    expect(
      ((await api<Json>('GET', 'organization/', { token: owner.access })).body.results as Json[]).map((o) => o.name),
    ).not.toContain('Made by a key');
    expect(
      (await api<Json>('GET', `accounts/user/${owner.user.id}/`, { token: owner.access })).body.first_name,
    ).not.toBe('Key');
    // The owner's session is untouched by the key's logout attempt.
    expect((await api('GET', 'organization/', { token: owner.access })).status).toBe(200);
  });
});
