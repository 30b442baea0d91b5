// Accounts, sessions and roles (issue 30 items 2, 3, 4, 7, 9, 12): an account someone else makes is an invitation
// its address confirms by choosing its own password (a password chosen by the creator never signs in); adding an
// address answers the same whether an account exists or not, throttled per caller; a spent refresh token replayed
// gets the successor already issued within a few seconds and ends the whole session otherwise; sign-in throttling
// counts per account and per (account, address), keeps its per-address limit far above a busy NAT and never refuses
// a right password from a device that signed in to the account before; nobody grants more than they hold; purging a
// project needs a person, and the audit names the key that did what a key did.
// The gateway trusts 127.0.0.1 as a proxy here, so X-Forwarded-For plays different clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, latestMail, login, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let db: postgres.Sql;
let owner: Session;
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const GRACE_S = 2;

beforeAll(async () => {
  t = await startTestStack({
    extraEnv: { TRUSTED_PROXIES: '127.0.0.1', REFRESH_REUSE_GRACE_S: String(GRACE_S), LOGIN_SLOWDOWN_MS: '5000' },
  });
  api = client(t);
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => undefined });
  owner = await login(api, t.demo.username, t.demo.password);
}, 180_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const signIn = (username: string, password: string, ip: string, device?: string) =>
  api<Json>('POST', 'api-token-auth/', {
    body: { username, password, ...(device ? { device } : {}) },
    headers: from(ip),
  });

/** A workspace of its own, owned by a fresh account (which confirmed its own invitation). */
async function workspaceOwner(label: string): Promise<Session> {
  const email = `${label}@owners.test`;
  const made = await api('POST', 'api/v1/organization-user/', {
    token: owner.access,
    body: { email, organization: owner.organization.id },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  await acceptInvitation(t, api, email, `${label} own pass 7`);
  const s = await login(api, email, `${label} own pass 7`);
  const org = await api<Json>('POST', 'organization/', { token: s.access, body: { name: `${label}'s workspace` } });
  expect(org.status).toBe(201);
  await api('DELETE', `organization/${owner.organization.id}/organization-users/${s.user.id}/`, {
    token: owner.access,
  });
  return login(api, email, `${label} own pass 7`);
}

describe('accounts made by someone else (item 2)', () => {
  it('are invitations the address confirms: the creator’s password never signs in, the person’s own does', async () => {
    const attacker = await workspaceOwner('mallory');
    const email = 'new.hire@corp.example';
    const made = await api<Json>('POST', 'api/v1/organization-user/', {
      token: attacker.access,
      body: { email, organization: attacker.organization.id, password: 'chosen by mallory 7' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ email, is_active: false, invited: true });
    expect(await signIn(email, 'chosen by mallory 7', '192.0.2.1')).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Unable to log in with provided credentials.'] },
    });
    // The employer adds the address too: an invitation of an account that exists stays an invitation.
    const employer = await workspaceOwner('employer');
    const hired = await api<Json>('POST', 'api/v1/organization-user/', {
      token: employer.access,
      body: { email, organization: employer.organization.id },
    });
    expect(hired.body).toMatchObject({ is_active: false, invited: true });
    // Nobody reads the employer's workspace as the new hire but the person who holds the mailbox.
    expect((await signIn(email, 'chosen by mallory 7', '192.0.2.1')).status).toBe(400);
    const mail = await latestMail(t, email, 'invitation');
    expect(mail).toContain("employer's workspace");
    await acceptInvitation(t, api, email, 'my very own pass 9');
    const me = await login(api, email, 'my very own pass 9');
    expect(me.user.email).toBe(email);
    expect((await signIn(email, 'chosen by mallory 7', '192.0.2.1')).status).toBe(400);
    // The link accepted the employer's invitation; Mallory's waits for an answer.
    const user = await api<Json>('GET', `accounts/user/${me.user.id}/`, { token: me.access });
    expect(user.body.organizations.map((o: Json) => o.id)).toEqual([employer.organization.id]);
    const pending = await api<Json>('GET', 'accounts/invitations/', { token: me.access });
    expect(pending.body.results.map((i: Json) => i.organization.id)).toEqual([attacker.organization.id]);
    // A set-password link is single-use.
    const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail)![1]!;
    expect(
      (await api('POST', `accounts/user/${email}/reset`, { body: { nonce, password: 'second try pass 9' } })).status,
    ).toBe(400);
  });

  it('keeps an account made before (with its password) working, and only invites it elsewhere', async () => {
    const elsewhere = await workspaceOwner('elsewhere');
    const invited = await api<Json>('POST', 'api/v1/organization-user/', {
      token: elsewhere.access,
      body: { email: t.demo.email, organization: elsewhere.organization.id, password: 'not the demo pass 1' },
    });
    expect(invited.body).toMatchObject({ is_active: false, invited: true });
    expect((await signIn(t.demo.username, t.demo.password, '192.0.2.2')).status).toBe(200);
    expect((await signIn(t.demo.username, 'not the demo pass 1', '192.0.2.2')).status).toBe(400);
  });

  it('a project user made by email is an invitation too', async () => {
    const project = await firstProject();
    const email = 'project.hire@corp.example';
    const made = await api<Json>('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email, projectId: project, collector: true, password: 'chosen by the owner 7' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await signIn(email, 'chosen by the owner 7', '192.0.2.3')).status).toBe(400);
    await acceptInvitation(t, api, email, 'project hire pass 8');
    const s = await login(api, email, 'project hire pass 8');
    expect((await api('GET', `project/${project}/`, { token: s.access })).status).toBe(200);
  });
});

async function firstProject(): Promise<number> {
  const r = await api<Json>('GET', `organization/${owner.organization.id}/`, { token: owner.access });
  return r.body.projects[0] as number;
}

describe('adding an address (item 7)', () => {
  it('answers the same for an address with an account and one without, and tells nothing of the account', async () => {
    const adder = await workspaceOwner('adder');
    const add = (email: string) =>
      api<Json>('POST', 'api/v1/organization-user/', {
        token: adder.access,
        body: { email, first_name: 'Given', last_name: 'Name', organization: adder.organization.id },
      });
    const existing = await add(t.demo.email);
    const fresh = await add('nobody.yet@corp.example');
    expect(existing.status).toBe(200);
    expect(fresh.status).toBe(200);
    const shape = (b: Json) => ({ ...b, email: '<email>', username: '<username>' });
    expect(shape(existing.body)).toEqual(shape(fresh.body));
    expect(existing.body).toMatchObject({ id: 0, user: 0, name: 'Given Name', invited: true, is_active: false });
    expect(JSON.stringify(existing.body)).not.toContain('Demo');
  });

  it('is throttled per caller', async () => {
    const adder = await workspaceOwner('bulk.adder');
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push(
        (
          await api('POST', 'api/v1/organization-user/', {
            token: adder.access,
            body: { email: `probe${i}@corp.example`, organization: adder.organization.id },
          })
        ).status,
      );
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses.slice(20)).toContain(429);
    // Another caller is not slowed by it.
    const other = await api('POST', 'api/v1/organization-user/', {
      token: owner.access,
      body: { email: 'not.slowed@corp.example', organization: owner.organization.id },
    });
    expect(other.status).toBe(200);
  });
});

describe('refresh tokens (item 3)', () => {
  const refresh = (token: string) => api<Json>('POST', 'api-token-refresh/', { body: { refresh: token } });

  it('answers a spent token presented again at once (a lost answer) with the successor already issued, not a new pair', async () => {
    const s = await login(api, t.demo.username, t.demo.password);
    const first = await refresh(s.refresh);
    expect(first.status).toBe(200);
    const again = await refresh(s.refresh);
    expect(again.status).toBe(200);
    expect(again.body.refresh).toBe(first.body.refresh);
    expect((await refresh(s.refresh)).body.refresh).toBe(first.body.refresh);
    // The client that lost the answer carries on with it.
    const next = await refresh(again.body.refresh as string);
    expect(next.status).toBe(200);
    expect((await api('GET', 'organization/', { token: next.body.access as string })).status).toBe(200);
  });

  it('ends the whole session when a spent token is replayed after its successor was used or the window passed (theft)', async () => {
    // The thief copied the token and replays it right after the user's refresh: it gets no pair of its own.
    const s = await login(api, t.demo.username, t.demo.password);
    const user1 = await refresh(s.refresh);
    const thief = await refresh(s.refresh);
    expect(thief.body.refresh).toBe(user1.body.refresh);
    // The user's next refresh still works (it used to get 401 here while the thief kept rotating)...
    const user2 = await refresh(user1.body.refresh as string);
    expect(user2.status).toBe(200);
    // ...and the thief's next use of what it holds, once the user has moved on, ends the session for both.
    await new Promise((r) => setTimeout(r, GRACE_S * 1000 + 300));
    expect((await refresh(thief.body.refresh as string)).status).toBe(401);
    expect((await refresh(user2.body.refresh as string)).status).toBe(401);
    await expect
      .poll(async () => (await api('GET', 'organization/', { token: user2.body.access as string })).status, {
        timeout: 10_000,
      })
      .toBe(401);

    // A replay after the window ends the session even when the successor was never used.
    const late = await login(api, t.demo.username, t.demo.password);
    const next = await refresh(late.refresh);
    await new Promise((r) => setTimeout(r, GRACE_S * 1000 + 300));
    expect((await refresh(late.refresh)).status).toBe(401);
    expect((await refresh(next.body.refresh as string)).status).toBe(401);

    // And within the window, once the successor was used: the replay ends the session at once.
    const raced = await login(api, t.demo.username, t.demo.password);
    const r1 = await refresh(raced.refresh);
    const r2 = await refresh(r1.body.refresh as string);
    expect(r2.status).toBe(200);
    expect((await refresh(raced.refresh)).status).toBe(401);
    expect((await refresh(r2.body.refresh as string)).status).toBe(401);
  });
});

describe('sign-in throttling (item 9)', () => {
  const PASS = 'field crew pass 5';
  let hash: string;

  /** `n` accounts of the demo workspace sharing one password (one hash, made once: 200 argon2 hashes are slow). */
  async function crew(prefix: string, n: number): Promise<string[]> {
    if (!hash) {
      const email = `${prefix}.hash@nat.test`;
      await api('POST', 'api/v1/organization-user/', {
        token: owner.access,
        body: { email, organization: owner.organization.id },
      });
      await acceptInvitation(t, api, email, PASS);
      hash = (await db<{ h: string }[]>`select password_hash as h from auth.users where email = ${email}`)[0]!.h;
    }
    const rows = await db<{ id: number; email: string }[]>`
      insert into auth.users (username, email, password_hash)
      select ${prefix} || g || '@nat.test', ${prefix} || g || '@nat.test', ${hash} from generate_series(1, ${n}) g
      returning id, email`;
    await db`
      insert into auth.organization_users (organization_id, user_id)
      select ${owner.organization.id}, unnest(${rows.map((r) => r.id)}::bigint[])`;
    return rows.map((r) => r.email);
  }

  async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
    for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
  }

  it('lets 200 people behind one address sign in (each after a typo) while the attacker among them is slowed', async () => {
    const nat = '100.64.30.9';
    const people = await crew('crew', 200);
    const victim = people[0]!;
    // The victim signed in from this office before: their browser holds the device token it got then.
    const before = await signIn(victim, PASS, nat);
    expect(before.status).toBe(200);
    const device = before.body.device as string;
    expect(device).toMatch(/^\S{20,}$/);
    const attacker: number[] = [];
    const answers = new Map<string, number>();
    await inBatches(people, 8, async (email) => {
      attacker.push((await signIn(victim, `guess ${attacker.length}`, nat)).status);
      const own = email === victim ? device : undefined;
      const typo = await signIn(email, `${PASS}x`, nat, own);
      expect(typo.status, email).toBe(400);
      const right = await signIn(email, PASS, nat, own);
      answers.set(email, right.status);
    });
    expect([...answers.values()].filter((s) => s !== 200)).toEqual([]);
    // The attacker's guesses at the victim from this address: five, then one after each (doubling) delay.
    expect(attacker.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(attacker.filter((s) => s === 429).length).toBeGreaterThanOrEqual(190);
  });

  it('never refuses a known device the right password while the account is under attack from everywhere', async () => {
    const [victim] = await crew('target', 1);
    const home = await signIn(victim!, PASS, '198.51.100.50');
    const device = home.body.device as string;
    // Guesses from 40 addresses: each address gets a few, the account as a whole is slowed.
    for (let i = 0; i < 40; i++) await signIn(victim!, `guess ${i}`, `203.0.113.${i + 1}`);
    expect((await signIn(victim!, 'another guess', '203.0.113.99')).status).toBe(429);
    // A new device with the right password waits like everyone else...
    expect((await signIn(victim!, PASS, '198.51.100.77')).status).toBe(429);
    // ...the known one, from anywhere, signs in every time.
    for (const ip of ['198.51.100.50', '198.51.100.77', '203.0.113.1'])
      expect((await signIn(victim!, PASS, ip, device)).status, ip).toBe(200);
    // A device token is the account's: it opens no other account's throttle, and guesses with it are slowed.
    const [other] = await crew('other', 1);
    for (let i = 0; i < 5; i++) await signIn(other!, `guess ${i}`, '203.0.113.150', device);
    expect((await signIn(other!, 'guess 5', '203.0.113.150', device)).status).toBe(429);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await signIn(victim!, `guess ${i}`, '203.0.113.151', device)).status);
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(400));
    expect(statuses.slice(5)).toContain(429);
  });
});

describe('no role gives more access than it has (item 4)', () => {
  it('keeps a staff admin from reading every site through a collector it makes', async () => {
    const project = await firstProject();
    const north = await api<Json>('POST', `project/${project}/sites/`, {
      token: owner.access,
      body: { name: 'North', geotag: { type: 'Point', coordinates: [36.8, -1.2] } },
    });
    const sites = (await api<Json>('GET', `project/${project}/`, { token: owner.access })).body.sites.map(
      (x: Json) => x.id as number,
    );
    expect(sites).toContain(north.body.id);
    const staffEmail = 'staff.admin@corp.example';
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: staffEmail, projectId: project, staff_admin: true },
    });
    await acceptInvitation(t, api, staffEmail, 'staff admin pass 4');
    const staff = await login(api, staffEmail, 'staff admin pass 4');
    // The staff admin reads no results itself.
    expect((await api('POST', `project/${project}/results/`, { token: staff.access, body: {} })).status).toBe(403);
    // A collector with read access to every site, made with a password the staff admin chose: refused...
    const email = 'puppet.collector@corp.example';
    const made = await api<Json>('POST', 'api/v1/project-user/', {
      token: staff.access,
      body: { email, projectId: project, collector: true, read_sites: sites, password: 'puppet pass 44' },
    });
    expect(made).toMatchObject({
      status: 403,
      body: {
        detail: expect.stringMatching(
          /^You can only give access you have yourself: read access to sites? [\d, ]+, whose results you do not read\.$/,
        ),
      },
    });
    // ...a plain collector is made, but the staff admin's password never signs in as it...
    const plain = await api<Json>('POST', 'api/v1/project-user/', {
      token: staff.access,
      body: { email, projectId: project, collector: true, password: 'puppet pass 44' },
    });
    expect(plain.status).toBe(200);
    expect((await signIn(email, 'puppet pass 44', '192.0.2.40')).status).toBe(400);
    // ...and read_sites given afterwards, by either call, are refused too; the owner may give them.
    await acceptInvitation(t, api, email, 'puppet own pass 45');
    const id = plain.body.user_id as number;
    const put = await api<Json>('PUT', `project/${project}/users/${id}/`, {
      token: staff.access,
      body: { collector: true, read_sites: sites },
    });
    expect(put.status).toBe(403);
    expect(put.body.detail).toMatch(/^You can only give access you have yourself: read access to site/);
    const perms = await api<Json>('POST', 'project-users/permissions/', {
      token: staff.access,
      body: { projectId: project, userIds: [id], read_sites: sites },
    });
    expect(perms.status).toBe(403);
    expect(
      (
        await api('POST', 'project-users/permissions/', {
          token: owner.access,
          body: { projectId: project, userIds: [id], read_sites: sites },
        })
      ).status,
    ).toBe(200);
    // Taking them away again is always allowed.
    expect(
      (
        await api('POST', 'project-users/permissions/', {
          token: staff.access,
          body: { projectId: project, userIds: [id], read_sites: [] },
        })
      ).status,
    ).toBe(200);
    // A role above its own is refused with the same clear message.
    const role = await api<Json>('PUT', `project/${project}/users/${id}/`, {
      token: staff.access,
      body: { collector: true, researcher: true },
    });
    expect(role).toMatchObject({
      status: 403,
      body: { detail: 'You can only give access you have yourself: the role researcher.' },
    });
  });
});

describe('API keys and purges (item 12)', () => {
  it('lets a key delete a project but not purge it, and the audit names the key beside its creator', async () => {
    const made = await api<Json>('POST', `organization/${owner.organization.id}/api_keys/create/`, {
      token: owner.access,
      body: { name: 'nightly sync' },
    });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    const prefix = made.body.prefix as string;
    const p = await api<Json>('POST', 'project/', {
      token: key,
      body: { name: 'Doomed', organization_pk: owner.organization.id, geotag: { type: 'Point', coordinates: [1, 1] } },
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    expect(
      (await api('POST', `project/${p.body.id}/status/`, { token: key, body: { project_state: 'D' } })).status,
    ).toBe(200);
    const deleted = await api<Json>('GET', `organization/${owner.organization.id}/audit/?event=project_deleted`, {
      token: owner.access,
    });
    expect(deleted.body.results[0]).toMatchObject({
      actor_user_id: owner.user.id,
      target: `project ${p.body.id}`,
      details: { api_key: prefix },
    });
    // Purging removes it for good: a person's call, never a key's.
    expect(await api('POST', `project/${p.body.id}/purge/`, { token: key })).toMatchObject({
      status: 403,
      body: { detail: 'API keys cannot be used for this call.' },
    });
    const purge = await api<Json>('POST', `project/${p.body.id}/purge/`, { token: owner.access });
    expect(purge.status).toBe(202);
    const requested = await api<Json>(
      'GET',
      `organization/${owner.organization.id}/audit/?event=project_purge_requested`,
      { token: owner.access },
    );
    expect(requested.body.results[0]).toMatchObject({ actor_user_id: owner.user.id });
    expect(requested.body.results[0].details).not.toHaveProperty('api_key');
  });
});
