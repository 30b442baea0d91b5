import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, testInfra, type TestInfra } from '@fieldwork/launcher';
import { auth, common } from '@fieldwork/proto';
import {
  createClient,
  createPool,
  startService,
  type PromiseClient,
  type Sql,
  type StartedService,
} from '@fieldwork/service-kit';
import { buildAuth } from '../../src/app.js';
import { loadAuthConfig } from '../../src/config.js';

type Client = PromiseClient<typeof auth.AuthServiceService, auth.AuthServiceClient>;
let infra: TestInfra;
let service: StartedService;
let client: Client;
let sql: Sql;

const PASSWORD = 'correct horse 42';

beforeAll(async () => {
  infra = await testInfra();
  const port = await freePort();
  const config = loadAuthConfig({
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: infra.natsPrefix,
    JWT_SECRET: 'x'.repeat(40),
    AUTH_GRPC_PORT: String(port),
    LOG_LEVEL: 'silent',
    LOGIN_SLOWDOWN_AFTER: '2',
    LOGIN_ACCOUNT_SLOWDOWN_AFTER: '2',
    LOGIN_SLOWDOWN_MS: '1500',
    LOGIN_MAX_DELAY_S: '3',
    PUBLIC_URL: 'http://fieldwork.test',
  });
  service = await startService({
    name: 'auth',
    config,
    grpcPort: port,
    migrations: new URL('../../migrations', import.meta.url),
    nats: true,
    build: (deps) => buildAuth(config, deps),
  });
  client = createClient(auth.AuthServiceClient, `127.0.0.1:${port}`);
  sql = createPool(infra.databaseUrl, { schema: 'auth', appName: 'auth-test' });
});

afterAll(async () => {
  client?.close();
  await service?.stop();
  await sql?.end();
  await infra?.dispose();
});

let counter = 0;
async function newUser(options: { workspace?: boolean } = {}) {
  counter++;
  const email = `User${counter}.Test@Example.org`;
  const user = await client.adminCreateUser({
    email,
    password: PASSWORD,
    username: '',
    first_name: 'Ana',
    last_name: `Lopez${counter}`,
    is_staff: false,
    is_superuser: false,
    if_not_exists: false,
  });
  let org: auth.Organization | undefined;
  if (options.workspace !== false) {
    org = await client.adminCreateOrganization({
      name: `Workspace ${counter}`,
      description: '',
      owner_username: user.username,
      if_not_exists: false,
    });
  }
  return { user, org, email };
}

const callerOf = (u: auth.User, sid = ''): common.Caller =>
  common.Caller.fromPartial({ user_id: u.id, is_staff: u.is_staff, is_superuser: u.is_superuser, session_id: sid });

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

async function latestMail(to: string): Promise<{ subject: string; body: string }> {
  const [row] = await sql<{ subject: string; body: string }[]>`
    select subject, body from mail_outbox where lower(to_address) = ${to.toLowerCase()} order by id desc limit 1`;
  return row!;
}

describe('migrations', () => {
  it('recorded the auth schema migrations in order', async () => {
    const rows = await sql`select name from auth.schema_migrations`;
    expect(rows.map((r) => r.name)).toEqual([
      '0001-init.sql',
      '0002-api-keys-integrations.sql',
      '0003-audit.sql',
      '0004-invitations.sql',
      '0005-revocations.sql',
      '0006-login-throttle.sql',
      '0007-identity-providers.sql',
      '0008-refresh-successor.sql',
      '0009-invitation-links.sql',
      '0010-known-devices.sql',
    ]);
  });
});

describe('login', () => {
  it('makes usernames from lower-cased emails, lower-cases and trims the username and trims the password', async () => {
    const { user, email, org } = await newUser();
    expect(user.username).toBe(email.toLowerCase());
    const reply = await client.login({
      username: `  ${email.toUpperCase()} `,
      password: ` ${PASSWORD}  `,
      client_ip: '127.0.0.1',
      device: '',
    });
    expect(reply.user).toMatchObject({ id: user.id, name: `Ana Lopez${counter}`, current_organization: org!.id });
    expect(reply.user!.last_login).not.toBe('');
    expect(reply.organization).toMatchObject({ id: org!.id, name: org!.name });
    expect(reply.organization!.organizationuser_set[0]).toMatchObject({ user: user.id, owner: true });
    const c = claims(reply.access);
    expect(c).toMatchObject({ user_id: user.id, token_type: 'access', is_staff: false });
    expect(Number(c.exp) - Number(c.iat)).toBe(3600);
    expect(reply.refresh).toMatch(/^[\w-]{43}$/);
  });

  it('refuses a wrong password and blank fields with the spec bodies', async () => {
    const { email } = await newUser();
    await expect(
      client.login({ username: email, password: 'nope-nope', client_ip: '', device: '' }),
    ).rejects.toMatchObject({
      code: '400.3',
      message: 'Unable to log in with provided credentials.',
    });
    await expect(
      client.login({ username: 'nobody@example.org', password: 'x', client_ip: '', device: '' }),
    ).rejects.toMatchObject({
      code: '400.3',
    });
    await expect(client.login({ username: '  ', password: '', client_ip: '', device: '' })).rejects.toMatchObject({
      code: '400.1',
      fields: { username: ['This field may not be blank.'], password: ['This field may not be blank.'] },
    });
  });

  it('refuses a user without a workspace: "User is not a member of any workspace, cannot continue."', async () => {
    const { email } = await newUser({ workspace: false });
    await expect(
      client.login({ username: email, password: PASSWORD, client_ip: '', device: '' }),
    ).rejects.toMatchObject({
      message: 'User is not a member of any workspace, cannot continue.',
    });
  });

  it('counts attempts per account before the password check, across its login names, and slows them without locking out', async () => {
    const email = 'Throttled.Person@Example.org';
    const username = 'throttled-person';
    const made = await client.adminCreateUser({
      email,
      password: PASSWORD,
      username,
      first_name: 'T',
      last_name: 'P',
      is_staff: false,
      is_superuser: false,
      if_not_exists: false,
    });
    await client.adminCreateOrganization({
      name: 'Throttled',
      description: '',
      owner_username: made.username,
      if_not_exists: false,
    });
    // Parallel wrong guesses by username and by email: only the free allowance reaches the password check.
    const answers = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        client.login({ username: i % 2 === 0 ? email : username, password: 'wrong-one', client_ip: '', device: '' }),
      ),
    );
    const codes = answers.map((a) => (a.status === 'rejected' ? (a.reason as { code: string }).code : 'ok'));
    expect(codes.filter((c) => c === '400.3')).toHaveLength(2);
    expect(codes.filter((c) => c === '429.1')).toHaveLength(18);
    // Slowed, not locked: the right password waits out the delay, then works.
    await expect(
      client.login({ username: email, password: PASSWORD, client_ip: '', device: '' }),
    ).rejects.toMatchObject({
      code: '429.1',
      message: expect.stringMatching(/^Too many failed login attempts\. Please try again in [12] seconds\.$/),
    });
    await new Promise((r) => setTimeout(r, 1600));
    await expect(client.login({ username, password: PASSWORD, client_ip: '', device: '' })).resolves.toMatchObject({
      user: { email },
    });
    const [user] = await sql`select id from users where email = ${email}`;
    // Only failures count against the account: the right password gave its attempt back.
    expect(await sql`select attempts from login_attempts where key = ${`a:${user!.id}`}`).toEqual([{ attempts: 2 }]);
  });
});

describe('refresh and logout', () => {
  it('rotates refresh tokens: the new one works; the used one, once its successor was used, ends the session', async () => {
    const { email } = await newUser();
    const login = await client.login({ username: email, password: PASSWORD, client_ip: '', device: '' });
    const next = await client.refreshToken({ refresh: login.refresh });
    expect(next.refresh).not.toBe(login.refresh);
    expect(claims(next.access).sid).toBe(claims(login.access).sid);
    const after = await client.refreshToken({ refresh: next.refresh });
    await expect(client.refreshToken({ refresh: login.refresh })).rejects.toMatchObject({
      code: '401.2',
      message: 'Token is invalid or expired',
    });
    await expect(client.refreshToken({ refresh: after.refresh })).rejects.toMatchObject({ code: '401.2' });
    await expect(client.refreshToken({ refresh: 'made-up' })).rejects.toMatchObject({ code: '401.2' });
  });

  it('ends the whole session when a rotated token is replayed later (theft)', async () => {
    const { email } = await newUser();
    const login = await client.login({ username: email, password: PASSWORD, client_ip: '', device: '' });
    const next = await client.refreshToken({ refresh: login.refresh });
    await sql`update refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null and session_id = ${String(claims(login.access).sid)}`;
    await expect(client.refreshToken({ refresh: login.refresh })).rejects.toMatchObject({ code: '401.2' });
    await expect(client.refreshToken({ refresh: next.refresh })).rejects.toMatchObject({ code: '401.2' });
  });

  it('logout revokes the session: its refresh token no longer works', async () => {
    const { email, user } = await newUser();
    const login = await client.login({ username: email, password: PASSWORD, client_ip: '', device: '' });
    await client.logout({ caller: callerOf(user, String(claims(login.access).sid)), refresh: login.refresh });
    await expect(client.refreshToken({ refresh: login.refresh })).rejects.toMatchObject({ code: '401.2' });
  });
});

describe('users and settings', () => {
  it('reads and renames oneself, and nobody else', async () => {
    const a = await newUser();
    const b = await newUser();
    expect(await client.getUser({ caller: callerOf(a.user), id: a.user.id })).toMatchObject({
      id: a.user.id,
      settings: { agreed_terms: '' },
    });
    await expect(client.getUser({ caller: callerOf(a.user), id: b.user.id })).rejects.toMatchObject({ code: '404.1' });
    const renamed = await client.updateUser({
      caller: callerOf(a.user),
      id: a.user.id,
      first_name: ' Maria ',
      last_name: 'Perez',
    });
    expect(renamed).toMatchObject({ first_name: 'Maria', last_name: 'Perez', name: 'Maria Perez' });
    await expect(client.updateUser({ caller: callerOf(a.user), id: b.user.id, first_name: 'X' })).rejects.toMatchObject(
      { code: '403.1' },
    );
  });

  it('records the accepted terms 1.1 and privacy 1.0 and refuses other versions', async () => {
    const { user } = await newUser();
    const t = await client.updateSettings({ caller: callerOf(user), id: user.id, agreed_terms: '1.1' });
    expect(t.settings).toMatchObject({ agreed_terms: '1.1', agreed_privacy: '' });
    const p = await client.updateSettings({ caller: callerOf(user), id: user.id, agreed_privacy: '1.0' });
    expect(p.settings).toMatchObject({ agreed_terms: '1.1', agreed_privacy: '1.0' });
    await expect(
      client.updateSettings({ caller: callerOf(user), id: user.id, agreed_terms: '0.9' }),
    ).rejects.toMatchObject({
      code: '400.1',
      fields: { agreed_terms: ['Unknown version. The current version is 1.1.'] },
    });
  });
});

describe('password reset and change', () => {
  it('mails a single-use expiring link whose nonce sets the password and ends every session', async () => {
    const { email, user } = await newUser();
    const login = await client.login({ username: email, password: PASSWORD, client_ip: '', device: '' });
    await client.requestPasswordReset({ email: email.toUpperCase() });
    const mail = await latestMail(email);
    expect(mail.subject).toBe('Fieldwork: reset your password');
    const link = /http:\/\/fieldwork\.test\/reset-password\/([^/\s]+)\/([\w-]+)/.exec(mail.body)!;
    expect(decodeURIComponent(link[1]!)).toBe(email);
    const nonce = link[2]!;

    await expect(client.resetPassword({ email, nonce, password: '123' })).rejects.toMatchObject({
      fields: {
        password: [
          'This password is too short. It must contain at least 8 characters.',
          'This password is entirely numeric.',
        ],
      },
    });
    await client.resetPassword({ email, nonce, password: 'a brand new secret' });
    await expect(client.resetPassword({ email, nonce, password: 'another new secret' })).rejects.toMatchObject({
      message: 'This password reset link is invalid or has expired.',
    });
    await expect(
      client.login({ username: email, password: PASSWORD, client_ip: '', device: '' }),
    ).rejects.toMatchObject({
      code: '400.3',
    });
    await expect(
      client.login({ username: email, password: 'a brand new secret', client_ip: '', device: '' }),
    ).resolves.toMatchObject({ user: { id: user.id } });
    await expect(client.refreshToken({ refresh: login.refresh })).rejects.toMatchObject({ code: '401.2' });
  });

  it('refuses an expired nonce, and answers an unknown address without telling', async () => {
    const { email } = await newUser();
    await client.requestPasswordReset({ email });
    const nonce = /reset-password\/[^/]+\/([\w-]+)/.exec((await latestMail(email)).body)![1]!;
    await sql`update password_nonces set expires_at = now() - interval '1 second'`;
    await expect(client.resetPassword({ email, nonce, password: 'fine password 1' })).rejects.toMatchObject({
      code: '400.6',
    });
    await expect(client.requestPasswordReset({ email: 'nobody.here@example.org' })).resolves.toEqual({});
    await expect(client.requestPasswordReset({ email: 'not-an-email' })).rejects.toMatchObject({
      fields: { email: ['Enter a valid email address.'] },
    });
  });

  it('changes a password with the old one; without credentials answers the spec message', async () => {
    const { email, user } = await newUser();
    await expect(
      client.changePassword({
        caller: callerOf(user),
        email,
        new_password: 'new secret 99',
        old_password: '',
        firebase_id: '',
      }),
    ).rejects.toMatchObject({
      message: 'Missing credentials! Please use the forgot password link on Login to change password.',
    });
    await expect(
      client.changePassword({
        caller: callerOf(user),
        email,
        new_password: 'new secret 99',
        old_password: 'wrong',
        firebase_id: '',
      }),
    ).rejects.toMatchObject({ fields: { old_password: ['Wrong password.'] } });
    await expect(
      client.changePassword({
        caller: callerOf(user),
        email,
        new_password: 'Zq7#kp',
        old_password: PASSWORD,
        firebase_id: '',
      }),
    ).rejects.toMatchObject({
      fields: { new_password: ['This password is too short. It must contain at least 8 characters.'] },
    });
    const other = await newUser();
    await expect(
      client.changePassword({
        caller: callerOf(other.user),
        email,
        new_password: 'new secret 99',
        old_password: PASSWORD,
        firebase_id: '',
      }),
    ).rejects.toMatchObject({ fields: { username: ['You can only change your own password.'] } });
    await client.changePassword({
      caller: callerOf(user),
      email,
      new_password: 'new secret 99',
      old_password: PASSWORD,
      firebase_id: '',
    });
    await expect(
      client.login({ username: email, password: 'new secret 99', client_ip: '', device: '' }),
    ).resolves.toBeDefined();
  });
});

describe('sign-up helpers', () => {
  it('checks emails, stores invitation requests and matches workspaces by mail domain', async () => {
    const { email } = await newUser();
    expect(await client.emailCheck({ email: ` ${email} ` })).toEqual({ email, exists: true });
    expect(await client.emailCheck({ email: 'free@example.org' })).toMatchObject({ exists: false });
    await expect(client.emailCheck({ email: 'nope' })).rejects.toMatchObject({
      fields: { email: ['Enter a valid email address.'] },
    });
    await client.requestInvite({ email: 'someone@acme.test', name: 'Some One', organization: 'Acme' });
    expect(await sql`select email, organization from invite_requests where email = 'someone@acme.test'`).toEqual([
      { email: 'someone@acme.test', organization: 'Acme' },
    ]);
    const match = await client.organizationMatch({ org_email: 'boss@example.org', org_details: '' });
    expect(match.match).toBe(true);
    expect(match.organizations.length).toBeGreaterThan(0);
    expect(await client.organizationMatch({ org_email: 'x@gmail.com', org_details: '' })).toEqual({
      match: false,
      organizations: [],
    });
  });
});

describe('workspaces', () => {
  it('creates a workspace owned by its creator and lists it', async () => {
    const { user } = await newUser();
    const org = await client.createOrganization({
      caller: callerOf(user),
      name: '  Field Team  ',
      description: 'd',
      address: 'a',
    });
    expect(org).toMatchObject({ name: 'Field Team', description: 'd', address: 'a' });
    expect(org.organizationuser_set).toEqual([expect.objectContaining({ user: user.id, owner: true })]);
    const list = await client.listOrganizations({ caller: callerOf(user) });
    expect(list.results.map((o) => o.name)).toContain('Field Team');
    await expect(
      client.createOrganization({ caller: callerOf(user), name: ' ', description: '', address: '' }),
    ).rejects.toMatchObject({
      fields: { name: ['This field may not be blank.'] },
    });
  });

  it('hides foreign and unknown workspaces behind "Invalid Organization Id!" and lets only the owner edit', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    await expect(client.getOrganization({ caller: callerOf(stranger.user), id: owner.org!.id })).rejects.toMatchObject({
      code: '404.2',
      message: 'Invalid Organization Id!',
    });
    await expect(client.getOrganization({ caller: callerOf(owner.user), id: 999999 })).rejects.toMatchObject({
      message: 'Invalid Organization Id!',
    });
    const renamed = await client.updateOrganization({
      caller: callerOf(owner.user),
      id: owner.org!.id,
      name: 'Renamed',
      address: 'Nairobi',
      flagged_features: [],
      flagged_features_given: false,
    });
    expect(renamed).toMatchObject({ name: 'Renamed', address: 'Nairobi' });
  });

  it('creates workspace users by email (username: the lower-cased email) with the role rules', async () => {
    const owner = await newUser();
    const orgId = owner.org!.id;
    const member = await client.createOrganizationUser({
      caller: callerOf(owner.user),
      email: 'New.Member@Example.org',
      first_name: 'New',
      last_name: 'Member',
      password: 'member password 1',
      organization: orgId,
      owner: false,
      user_admin: true,
      project_admin: false,
      billing_admin: false,
    });
    // An invitation (issue 30 item 2): the creator's password is not used; the person chooses theirs with the link.
    expect(member).toMatchObject({
      username: 'new.member@example.org',
      user_admin: true,
      organization: orgId,
      name: 'New Member',
      is_active: false,
      invited: true,
      user: 0,
    });
    await expect(
      client.login({ username: 'new.member@example.org', password: 'member password 1', client_ip: '', device: '' }),
    ).rejects.toMatchObject({ code: '400.3' });
    const mail = await latestMail('new.member@example.org');
    expect(mail.subject).toBe(`Fieldwork: an invitation to ${owner.org!.name}`);
    const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail.body)![1]!;
    await client.resetPassword({ email: 'new.member@example.org', nonce, password: 'member own pass 2' });
    const memberId = (
      await client.login({
        username: 'new.member@example.org',
        password: 'member own pass 2',
        client_ip: '',
        device: '',
      })
    ).user!.id;

    const adminCaller = { ...callerOf(owner.user), user_id: memberId };
    // A user admin invites plain members (who get a link to set their password)...
    const plain = await client.createOrganizationUser({
      caller: adminCaller,
      email: 'plain@example.org',
      first_name: 'P',
      last_name: 'M',
      password: '',
      organization: orgId,
      owner: false,
      user_admin: false,
      project_admin: false,
      billing_admin: false,
    });
    expect(plain.owner).toBe(false);
    expect((await latestMail('plain@example.org')).body).toMatch(/\/set-password\/plain%40example\.org\/[\w-]+/);
    // ...but cannot hand out roles, nor add someone twice.
    await expect(
      client.createOrganizationUser({
        caller: adminCaller,
        email: 'boss@example.org',
        first_name: '',
        last_name: '',
        password: '',
        organization: orgId,
        owner: true,
        user_admin: false,
        project_admin: false,
        billing_admin: false,
      }),
    ).rejects.toMatchObject({ code: '403.1' });
    await expect(
      client.createOrganizationUser({
        caller: callerOf(owner.user),
        email: 'new.member@example.org',
        first_name: '',
        last_name: '',
        password: '',
        organization: orgId,
        owner: false,
        user_admin: false,
        project_admin: false,
        billing_admin: false,
      }),
    ).rejects.toMatchObject({ message: 'User is already a member of this workspace.' });
    await expect(
      client.createOrganizationUser({
        caller: callerOf(owner.user),
        email: 'bad',
        first_name: '',
        last_name: '',
        password: 'x',
        organization: orgId,
        owner: false,
        user_admin: false,
        project_admin: false,
        billing_admin: false,
      }),
    ).rejects.toMatchObject({ fields: { email: ['Enter a valid email address.'] } });

    const membership = await client.getMembership({ user_id: memberId, organization_id: orgId });
    expect(membership).toMatchObject({ member: true, user_admin: true, owner: false });
    expect(await client.getMembership({ user_id: memberId, organization_id: 999999 })).toMatchObject({
      member: false,
    });
  });
});
