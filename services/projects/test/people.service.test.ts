// People and roles (issue 19): project users' permissions read and written back with the same names (spec 000 §6),
// the staff admin role, refused grants of roles the caller does not hold, and member and project-user listings paged
// on the server past 10,000 users. On a real PostgreSQL with the real auth service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common, forms, projects, responses, results } from '@fieldwork/proto';
import { createClient, createLogger, createObjectStore, type Sql } from '@fieldwork/service-kit';
import { loadProjectsConfig } from '../src/config.js';
import { AccessResolver } from '../src/service/access.js';
import type { ProjectsDeps } from '../src/service/deps.js';
import { ProjectService } from '../src/service/project.service.js';
import { ProjectUserService } from '../src/service/project-user.service.js';
import { migratedPool, newOwner, newProject, startPeers, type Peers } from './support/peers.js';

let peers: Peers;
let deps: ProjectsDeps;
let authSql: Sql;
let service: ProjectService;
let users: ProjectUserService;
const ctx = { requestId: 'people-service-test' };
let n = 0;

beforeAll(async () => {
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadProjectsConfig(peers.env('projects'));
  deps = {
    sql: await migratedPool(peers, 'projects'),
    log: createLogger('people-service-test', 'silent'),
    auth: createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret }),
    forms: createClient(forms.FormsServiceClient, peers.address('forms'), { secret: peers.contextSecret }),
    responses: createClient(responses.ResponsesServiceClient, peers.address('responses'), {
      secret: peers.contextSecret,
    }),
    results: createClient(results.ResultsServiceClient, peers.address('results'), { secret: peers.contextSecret }),
    files: createObjectStore(config),
  };
  authSql = await migratedPool(peers, 'auth');
  const access = new AccessResolver(deps.sql, deps.auth);
  service = new ProjectService(deps, access);
  users = new ProjectUserService(deps, access);
}, 120_000);

afterAll(async () => {
  deps?.auth.close();
  deps?.forms.close();
  deps?.responses.close();
  deps?.results.close();
  await peers?.stop();
});

/** Adds a new person by email, who then confirms the invitation mailed to them (issue 30 item 2). */
async function addUser(caller: common.Caller, projectId: number, roles: Partial<projects.ProjectRoles>, read = []) {
  n++;
  const email = `people${n}.${peers.infra.runId}@example.org`;
  const added = await users.add(
    projects.AddProjectUserRequest.fromPartial({
      caller,
      project_id: projectId,
      email,
      first_name: 'Pat',
      last_name: `People${n}`,
      roles,
      read_sites: read,
    }),
    ctx,
  );
  const [mail] = await authSql<{ body: string }[]>`
    select body from mail_outbox where to_address = ${email} and subject like '%invitation%' order by id desc limit 1`;
  const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail!.body)![1]!;
  await deps.auth.resetPassword({ email, nonce, password: 'correct horse 42' }, ctx);
  return added;
}

const as = (u: { user_id: number }, owner: common.Caller) =>
  common.Caller.fromPartial({ user_id: u.user_id, organization_id: owner.organization_id });

const listAll = async (caller: common.Caller, projectId: number) =>
  (
    await users.list(
      projects.ListProjectUsersRequest.fromPartial({ caller, project_id: projectId, page_size: 200 }),
      ctx,
    )
  ).results;

describe('permissions read are written back with the same names (spec 000 §6)', () => {
  it('GET then POST of the same permissions and read_sites changes nothing, role mix by role mix', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const site = p.sites[0]!.id;
    await addUser(caller, p.id, { researcher: true, collector: true });
    await addUser(caller, p.id, { staff_admin: true });
    await addUser(caller, p.id, { project_admin: true });
    await addUser(caller, p.id, { data_manager: true }, [site] as never);
    await addUser(caller, p.id, {}); // a guest
    const before = await listAll(caller, p.id);
    expect(before).toHaveLength(6);
    // The names read are the screens of spec 000 §6, written out here by hand.
    const byName = Object.fromEntries(before.map((u) => [u.display_name, [...u.permissions].sort()]));
    expect(Object.values(byName)).toEqual(
      expect.arrayContaining([
        ['collector', 'home', 'results'],
        ['home', 'staff'],
        ['form', 'home', 'parameters'],
        ['dataManager', 'home'],
        [],
      ]),
    );
    for (const u of before.filter((x) => x.user_id !== caller.user_id)) {
      await users.setPermissions(
        projects.SetPermissionsRequest.fromPartial({
          caller,
          project_id: p.id,
          user_ids: [u.user_id],
          permissions: u.permissions,
          permissions_given: true,
          read_sites: u.read_sites,
          read_sites_given: true,
        }),
        ctx,
      );
    }
    expect(await listAll(caller, p.id)).toEqual(before);
  });

  it('gives screens through the roles that give exactly them; refuses what no roles give, by name', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const u = await addUser(caller, p.id, { collector: true });
    const set = (permissions: string[]) =>
      users.setPermissions(
        projects.SetPermissionsRequest.fromPartial({
          caller,
          project_id: p.id,
          user_ids: [u.user_id],
          permissions,
          permissions_given: true,
        }),
        ctx,
      );
    const r = await set(['home', 'results', 'staff']);
    expect(r.results[0]).toMatchObject({ researcher: true, staff_admin: true, collector: false });
    expect([...r.results[0]!.permissions].sort()).toEqual(['home', 'results', 'staff']);
    // Role names still stand for their screens.
    expect((await set(['data_manager'])).results[0]).toMatchObject({ data_manager: true, researcher: false });
    await expect(set(['home', 'canSetLive'])).rejects.toMatchObject({
      code: '400.1',
      fields: {
        permissions: ['No roles give exactly these permissions: home, canSetLive.'],
      },
    });
    await expect(set(['boss'])).rejects.toMatchObject({
      code: '400.1',
      fields: { permissions: ['Unknown permissions: boss.'] },
    });
  });
});

describe('the staff admin (spec 000 §6: screens home and staff)', () => {
  it('opens home and staff, manages collectors, and may not grant a role it does not hold (audited)', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const staffAdmin = as(await addUser(caller, p.id, { staff_admin: true }), caller);
    const access = await service.getAccess({ caller: staffAdmin, project_id: p.id }, ctx);
    expect([...access.screens].sort()).toEqual(['home', 'staff']);
    expect(access.actions).toEqual([]);
    expect(access.roles).toMatchObject({ staff_admin: true });

    // The staff screen: the project's users, and adding a collector.
    const collector = await addUser(staffAdmin, p.id, { collector: true });
    expect((await listAll(staffAdmin, p.id)).map((u) => u.user_id)).toContain(collector.user_id);

    // A role it does not hold: refused, saying what (issue 30 item 4), and the refusal is in the workspace's audit log.
    await expect(
      users.update(
        projects.UpdateProjectUserRequest.fromPartial({
          caller: staffAdmin,
          project_id: p.id,
          user_id: collector.user_id,
          roles: { collector: true, researcher: true },
        }),
        ctx,
      ),
    ).rejects.toMatchObject({
      code: '403.20',
      message: 'You can only give access you have yourself: the role researcher.',
    });
    await expect(addUser(staffAdmin, p.id, { project_admin: true })).rejects.toMatchObject({ code: '403.20' });
    const log = await deps.auth.listAudit(
      { caller, organization_id: caller.organization_id, event: 'role_grant_refused', page: 1, page_size: 10 },
      ctx,
    );
    expect(log.results.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(log.results.at(-1)!.details_json)).toEqual({ roles: ['researcher'] });
    expect(log.results.at(-1)!.actor_user_id).toBe(staffAdmin.user_id);
  });

  it('lets a project admin give project admin but not researcher', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    // A project admin has no admins screen: it edits collectors only, and grants only roles it holds.
    const admin = as(await addUser(caller, p.id, { project_admin: true, staff_admin: true }), caller);
    const target = await addUser(caller, p.id, { collector: true });
    await expect(
      users.setPermissions(
        projects.SetPermissionsRequest.fromPartial({
          caller: admin,
          project_id: p.id,
          user_ids: [target.user_id],
          permissions: ['home', 'collector', 'results'],
          permissions_given: true,
        }),
        ctx,
      ),
    ).rejects.toMatchObject({ code: '403.20' });
  });
});

describe('listings paged on the server past 10,000 users (issue 19 item 8)', () => {
  it('pages, counts and searches 10,050 members and project users; GET project embeds only the first', async () => {
    const { caller } = await newOwner(peers);
    const p = await newProject(peers, caller);
    const tag = `bulk${peers.infra.runId}`.toLowerCase();
    // Setup in SQL: 10,050 accounts, members of the workspace and users of the project (collectors).
    const ids = await authSql<{ id: number }[]>`
      insert into users (username, email, first_name, last_name)
      select ${tag} || '_' || i, ${tag} || '_' || i || '@example.org', 'Member', 'Number' || i
      from generate_series(1, 10050) as i
      returning id`;
    await authSql`
      insert into organization_users (organization_id, user_id)
      select ${caller.organization_id}, unnest(${ids.map((r) => r.id)}::bigint[])`;
    await deps.sql`
      insert into project_users (project_id, user_id, collector)
      select ${p.id}, unnest(${ids.map((r) => r.id)}::bigint[]), true`;

    // Workspace members: 10,051 (the owner too), every page there, the last one short.
    const members = (page: number, page_size: number, search = '') =>
      deps.auth.listOrganizationUsers(
        { caller, organization_id: caller.organization_id, page, page_size, search },
        ctx,
      );
    const last = await members(101, 100);
    expect(last.count).toBe(10_051);
    expect(last.results).toHaveLength(51);
    expect(last.results.at(-1)!.email).toBe(`${tag}_10050@example.org`);
    const found = await members(1, 50, `${tag}_10049@`);
    expect(found.count).toBe(1);
    expect(found.results[0]!.name).toBe('Member Number10049');
    const capped = await members(1, 5000);
    expect({ size: capped.page_size, capped: capped.page_size_capped, rows: capped.results.length }).toEqual({
      size: 500,
      capped: true,
      rows: 500,
    });

    // Project users: the same, with the role filter and the search on the server.
    const list = (req: Partial<projects.ListProjectUsersRequest>) =>
      users.list(projects.ListProjectUsersRequest.fromPartial({ caller, project_id: p.id, ...req }), ctx);
    const lastUsers = await list({ page: 51, page_size: 200 });
    expect(lastUsers.count).toBe(10_051);
    expect(lastUsers.results).toHaveLength(51);
    expect(lastUsers.results.at(-1)!.email).toBe(`${tag}_10050@example.org`);
    expect((await list({ role: 'collector', page_size: 10 })).count).toBe(10_050);
    expect((await list({ role: 'project_owner' })).count).toBe(1);
    const searched = await list({ search: `Number1004` });
    // Number1004 and Number10040..10049.
    expect(searched.count).toBe(11);
    expect(searched.results.map((u) => u.display_name)).toContain('Member Number10045');
    const cappedUsers = await list({ page_size: 1000 });
    expect([cappedUsers.page_size, cappedUsers.page_size_capped, cappedUsers.results.length]).toEqual([200, true, 200]);

    // GET project: the first 100 users and how many there are, not all of them.
    const full = await service.get({ caller, project_id: p.id }, ctx);
    expect(full.projectuser_set).toHaveLength(100);
    expect(full.projectuser_count).toBe(10_051);
  }, 120_000);
});
