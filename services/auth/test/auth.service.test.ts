// The auth service's use cases (SessionService, AccountService, OrganizationService, AdminService, as the gRPC
// handlers call them) on a real PostgreSQL: logging in and its refusals and slow-down, refresh token rotation and
// reuse, logout, password change, and who may see a workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common } from '@fieldwork/proto';
import { createLogger, type Sql } from '@fieldwork/service-kit';
import { migratedPool, startPeers, type Peers } from '../../projects/test/support/peers.js';
import { AccountService } from '../src/service/account.service.js';
import { AdminService } from '../src/service/admin.service.js';
import { AuditLog } from '../src/service/audit.service.js';
import { argon2Hasher, TokenIssuer } from '../src/service/crypto.js';
import type { AuthDeps } from '../src/service/deps.js';
import { MemberService } from '../src/service/member.service.js';
import { OrganizationService } from '../src/service/organization.service.js';
import { SessionService } from '../src/service/session.service.js';

let peers: Peers;
let sql: Sql;
let sessions: SessionService;
/** The same service with a grace of 30 s for a refresh token presented again (an answer lost on the way). */
let graceful: SessionService;
let accounts: AccountService;
let organizations: OrganizationService;
let admin: AdminService;
let members: MemberService;
const PASSWORD = 'correct horse 42';

beforeAll(async () => {
  // No other service is called by these use cases: only the run's database.
  peers = await startPeers([]);
  sql = await migratedPool(peers, 'auth');
  const log = createLogger('auth-service-test', 'silent');
  const deps: AuthDeps = {
    sql,
    log,
    hasher: argon2Hasher({ memoryKiB: 8192, timeCost: 1 }),
    tokens: new TokenIssuer('s'.repeat(40), 300),
    settings: {
      refreshTtlSeconds: 3600,
      refreshReuseGraceMs: 0,
      resetNonceTtlSeconds: 3600,
      setPasswordTtlSeconds: 3600,
      publicUrl: 'http://fieldwork.test',
      inviteNotifyEmail: '',
      throttle: {
        freeAttempts: 2,
        accountFreeAttempts: 2,
        addressFreeAttempts: 50,
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        windowMs: 600_000,
      },
    },
    audit: new AuditLog(sql, log),
  };
  sessions = new SessionService(deps);
  graceful = new SessionService({ ...deps, settings: { ...deps.settings, refreshReuseGraceMs: 30_000 } });
  accounts = new AccountService(deps);
  organizations = new OrganizationService(deps, accounts);
  admin = new AdminService(deps);
  members = new MemberService(deps, accounts);
});

afterAll(async () => {
  await peers?.stop();
});

let n = 0;
/** A user (and by default a workspace they own) made as the operator CLI makes them. */
async function newUser(options: { workspace?: boolean } = {}) {
  n++;
  const email = `ana${n}@example.org`;
  const user = await admin.createUser({
    email,
    password: PASSWORD,
    username: '',
    first_name: 'Ana',
    last_name: `Lopez${n}`,
    is_staff: false,
    is_superuser: false,
    if_not_exists: false,
  });
  const org =
    options.workspace === false
      ? undefined
      : await admin.createOrganization({
          name: `Workspace ${n}`,
          description: '',
          owner_username: user.username,
          if_not_exists: false,
        });
  return { user, org, email, caller: common.Caller.fromPartial({ user_id: user.id }) };
}

/** What the person does with the invitation mailed to `email`: chooses `password` with its link. */
async function confirm(email: string, password: string): Promise<void> {
  const [mail] = await sql<{ body: string }[]>`
    select body from mail_outbox where to_address = ${email} and subject like '%invitation%' order by id desc limit 1`;
  const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail!.body)![1]!;
  await accounts.resetPassword({ email, nonce, password });
}

describe(SessionService.name, () => {
  describe('login', () => {
    it('logs a workspace member in with tokens, the user and the current workspace', async () => {
      const { user, org, email } = await newUser();
      const reply = await sessions.login({
        username: email.toUpperCase(),
        password: PASSWORD,
        client_ip: '10.0.0.1',
        device: '',
      });
      expect(reply.access).not.toBe('');
      expect(reply.refresh).not.toBe('');
      expect(reply.user).toMatchObject({ id: user.id, email });
      expect(reply.organization).toMatchObject({ id: org!.id, name: org!.name });
    });

    it('refuses blank fields by name and a wrong password: "Unable to log in with provided credentials."', async () => {
      const { email } = await newUser();
      await expect(sessions.login({ username: '', password: '', client_ip: '', device: '' })).rejects.toMatchObject({
        code: '400.1',
        fields: { username: [expect.any(String)], password: [expect.any(String)] },
      });
      await expect(
        sessions.login({ username: email, password: 'wrong horse', client_ip: '10.0.0.2', device: '' }),
      ).rejects.toMatchObject({
        code: '400.3',
        message: 'Unable to log in with provided credentials.',
      });
    });

    it('refuses a user of no workspace: "User is not a member of any workspace, cannot continue."', async () => {
      const { email } = await newUser({ workspace: false });
      await expect(
        sessions.login({ username: email, password: PASSWORD, client_ip: '10.0.0.3', device: '' }),
      ).rejects.toMatchObject({
        code: '400.4',
        message: 'User is not a member of any workspace, cannot continue.',
      });
    });

    it('slows an account down after its free attempts, even for the right password', async () => {
      const { email } = await newUser();
      for (let i = 0; i < 2; i++)
        await expect(
          sessions.login({ username: email, password: 'wrong horse', client_ip: '10.0.0.4', device: '' }),
        ).rejects.toMatchObject({
          code: '400.3',
        });
      await expect(
        sessions.login({ username: email, password: PASSWORD, client_ip: '10.0.0.4', device: '' }),
      ).rejects.toMatchObject({
        code: '429.1',
      });
    });
  });

  describe('refresh and logout', () => {
    it('rotates the refresh token, refuses the used one, and refuses every token of a logged-out session', async () => {
      const { email, user } = await newUser();
      const login = await sessions.login({ username: email, password: PASSWORD, client_ip: '10.0.0.5', device: '' });
      const pair = await sessions.refresh({ refresh: login.refresh });
      expect(pair.refresh).not.toBe(login.refresh);
      await expect(sessions.refresh({ refresh: login.refresh })).rejects.toMatchObject({
        code: '401.2',
        message: 'Token is invalid or expired',
      });
      await sessions.logout({ caller: common.Caller.fromPartial({ user_id: user.id }), refresh: pair.refresh });
      await expect(sessions.refresh({ refresh: pair.refresh })).rejects.toMatchObject({ code: '401.2' });
    });

    it('answers a token presented again before its successor was used (the answer was lost) with that successor', async () => {
      const { email } = await newUser();
      const login = await graceful.login({ username: email, password: PASSWORD, client_ip: '10.0.0.6', device: '' });
      // The phone's network drops after the server rotated the token: the pair never arrives.
      const lost = await graceful.refresh({ refresh: login.refresh });
      // The phone tries again with the token it still holds, and gets the same successor: no second branch exists.
      const again = await graceful.refresh({ refresh: login.refresh });
      expect(again.refresh).toBe(lost.refresh);
      const next = await graceful.refresh({ refresh: again.refresh });
      expect(next.access).not.toBe('');
      // Once the chain has moved on, the old token is a copy: the whole session ends (issue 30 item 3).
      await expect(graceful.refresh({ refresh: login.refresh })).rejects.toMatchObject({ code: '401.2' });
      await expect(graceful.refresh({ refresh: next.refresh })).rejects.toMatchObject({ code: '401.2' });
    });

    it('answers two tries of the same lost answer, at once or one after the other, with the one successor', async () => {
      for (const atOnce of [true, false]) {
        const { email } = await newUser();
        const login = await graceful.login({ username: email, password: PASSWORD, client_ip: '10.0.0.7', device: '' });
        const first = await graceful.refresh({ refresh: login.refresh });
        const again = () => graceful.refresh({ refresh: login.refresh });
        const tries = atOnce ? await Promise.all([again(), again()]) : [await again(), await again()];
        expect(tries.map((p) => p.refresh)).toEqual([first.refresh, first.refresh]);
        expect((await graceful.refresh({ refresh: first.refresh })).refresh).not.toBe('');
      }
    });

    it('revokes the session when a used token comes back after the grace (copied), whatever its successor', async () => {
      const { email } = await newUser();
      const login = await sessions.login({ username: email, password: PASSWORD, client_ip: '10.0.0.8', device: '' });
      const pair = await sessions.refresh({ refresh: login.refresh });
      await new Promise((r) => setTimeout(r, 5));
      await expect(sessions.refresh({ refresh: login.refresh })).rejects.toMatchObject({ code: '401.2' });
      await expect(sessions.refresh({ refresh: pair.refresh })).rejects.toMatchObject({ code: '401.2' });
    });

    it('refuses a logout without a caller: "Authentication credentials were not provided."', async () => {
      await expect(sessions.logout({ caller: undefined, refresh: '' })).rejects.toMatchObject({ code: '401.1' });
    });
  });
});

describe(AccountService.name, () => {
  it('changes a password only with the old one, and the new one logs in', async () => {
    const { email, caller } = await newUser();
    await expect(
      accounts.changePassword({
        caller,
        email,
        old_password: 'not it at all',
        new_password: 'battery staple 99',
        firebase_id: '',
      }),
    ).rejects.toMatchObject({ code: '400.1', fields: { old_password: ['Wrong password.'] } });
    await accounts.changePassword({
      caller,
      email,
      old_password: PASSWORD,
      new_password: 'battery staple 99',
      firebase_id: '',
    });
    await expect(
      sessions.login({ username: email, password: PASSWORD, client_ip: '10.0.0.6', device: '' }),
    ).rejects.toMatchObject({
      code: '400.3',
    });
    expect(
      (await sessions.login({ username: email, password: 'battery staple 99', client_ip: '10.0.0.6', device: '' })).user
        ?.email,
    ).toBe(email);
  });

  it("refuses to change another user's password", async () => {
    const { caller } = await newUser();
    const other = await newUser();
    await expect(
      accounts.changePassword({
        caller,
        email: other.email,
        old_password: PASSWORD,
        new_password: 'battery staple 99',
        firebase_id: '',
      }),
    ).rejects.toMatchObject({ code: '400.1', fields: { username: ['You can only change your own password.'] } });
  });
});

describe(OrganizationService.name, () => {
  it('makes the creator owner of a new workspace and hides it from others: "Invalid Organization Id!"', async () => {
    const { caller } = await newUser({ workspace: false });
    const org = await organizations.create({ caller, name: 'Field Office', description: '', address: '' });
    expect(org.name).toBe('Field Office');
    expect((await organizations.list({ caller })).results.map((o) => o.id)).toEqual([org.id]);
    const outsider = await newUser();
    await expect(organizations.get({ caller: outsider.caller, id: org.id })).rejects.toMatchObject({
      code: '404.2',
      message: 'Invalid Organization Id!',
    });
  });
});

describe(MemberService.name, () => {
  it('invites a new email (its creator’s password never logs in; its own, set with the link, does) and an existing account, and lists members', async () => {
    const { org, caller } = await newUser();
    const made = await members.ensureMember({
      organization_id: org!.id,
      email: 'new.member@example.org',
      first_name: 'Nia',
      last_name: 'New',
      password: 'fresh member 77',
      invited_by: caller.user_id,
      project_name: 'Household Survey',
    });
    expect(made).toMatchObject({ created: true, invited: true, user: { email: 'new.member@example.org' } });
    await expect(
      sessions.login({
        username: 'new.member@example.org',
        password: 'fresh member 77',
        client_ip: '10.0.1.1',
        device: '',
      }),
    ).rejects.toMatchObject({ code: '400.3' });
    await confirm('new.member@example.org', 'my own member 78');
    expect(
      (
        await sessions.login({
          username: 'new.member@example.org',
          password: 'my own member 78',
          client_ip: '10.0.1.1',
          device: '',
        })
      ).organization?.id,
    ).toBe(org!.id);
    // Someone with an account of their own is asked first: invited, not yet a member.
    const existing = await newUser();
    const invited = await members.ensureMember({
      organization_id: org!.id,
      email: existing.email,
      first_name: '',
      last_name: '',
      password: '',
      invited_by: caller.user_id,
      project_name: '',
    });
    expect(invited).toMatchObject({ created: false, invited: true });
    const listed = await members.list(
      auth.ListOrganizationUsersRequest.fromPartial({ caller, organization_id: org!.id }),
    );
    expect(listed.results.map((m) => m.user).sort()).toEqual([caller.user_id, made.user!.id].sort());
  });

  it('refuses a malformed email by field, and an unknown workspace: "Invalid Organization Id!"', async () => {
    const { org, caller } = await newUser();
    await expect(
      members.ensureMember({
        organization_id: org!.id,
        email: 'not an email',
        first_name: '',
        last_name: '',
        password: '',
        invited_by: caller.user_id,
        project_name: '',
      }),
    ).rejects.toMatchObject({ code: '400.1', fields: { email: [expect.any(String)] } });
    await expect(
      members.ensureMember({
        organization_id: 987_654,
        email: 'someone@example.org',
        first_name: '',
        last_name: '',
        password: '',
        invited_by: caller.user_id,
        project_name: '',
      }),
    ).rejects.toMatchObject({ code: '404.2', message: 'Invalid Organization Id!' });
  });

  it("refuses the member list to a plain member, and a removed member's login names no workspace", async () => {
    const { org, caller } = await newUser();
    const made = await members.ensureMember({
      organization_id: org!.id,
      email: `plain.${org!.id}@example.org`,
      first_name: 'Pat',
      last_name: 'Plain',
      password: 'plain member 55',
      invited_by: caller.user_id,
      project_name: '',
    });
    await confirm(`plain.${org!.id}@example.org`, 'plain member 55');
    const plain = common.Caller.fromPartial({ user_id: made.user!.id });
    await expect(
      members.list(auth.ListOrganizationUsersRequest.fromPartial({ caller: plain, organization_id: org!.id })),
    ).rejects.toMatchObject({ code: '403.1' });
    await members.remove({ caller, organization_id: org!.id, user_id: made.user!.id });
    await expect(
      sessions.login({
        username: `plain.${org!.id}@example.org`,
        password: 'plain member 55',
        client_ip: '10.0.1.2',
        device: '',
      }),
    ).rejects.toMatchObject({ code: '400.4' });
  });
});
