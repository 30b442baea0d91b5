// Sign-in through an identity provider and sign-up (IdentityService, as the gRPC handlers call it) against a real
// OpenID provider (oidc-provider, started here on a free port) and a real PostgreSQL: the authorization request
// (state, nonce, S256 challenge), the code exchange with the PKCE verifier and the ID token checked by openid-client,
// matching an account by linked identity or verified email, creation when sign-up is on, and every refusal (wrong
// state, reused state, wrong verifier, unverified email, no account, unknown provider), audited.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, Problem, type Sql } from '@fieldwork/service-kit';
import { signInAtProvider, startTestOidcProvider, type TestOidcProvider } from '@fieldwork/launcher/test-oidc-provider';
import { migratedPool, startPeers, type Peers } from '../../projects/test/support/peers.js';
import { AdminService } from '../src/service/admin.service.js';
import { AuditLog } from '../src/service/audit.service.js';
import { argon2Hasher, TokenIssuer } from '../src/service/crypto.js';
import type { AuthDeps } from '../src/service/deps.js';
import { IdentityService } from '../src/service/identity.service.js';
import { SessionService } from '../src/service/session.service.js';
import { parseProviders } from '../src/domain/identity-providers.js';

const REDIRECT = 'http://fieldwork.test/login-home/oauth';
let peers: Peers;
let sql: Sql;
let idp: TestOidcProvider;
let deps: AuthDeps;
let sessions: SessionService;
let admin: AdminService;
let identities: IdentityService;
let withSignup: IdentityService;

beforeAll(async () => {
  peers = await startPeers([]);
  sql = await migratedPool(peers, 'auth');
  idp = await startTestOidcProvider({ redirectUris: [REDIRECT] });
  const log = createLogger('identity-service-test', 'silent');
  deps = {
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
        freeAttempts: 5,
        accountFreeAttempts: 20,
        addressFreeAttempts: 50,
        baseDelayMs: 1000,
        maxDelayMs: 1000,
        windowMs: 600_000,
      },
    },
    audit: new AuditLog(sql, log),
  };
  sessions = new SessionService(deps);
  admin = new AdminService(deps);
  const providers = parseProviders(
    JSON.stringify([
      { id: 'testidp', name: 'Test IdP', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret },
      {
        id: 'acme',
        name: 'Acme SSO',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        email_domains: ['acme.org'],
      },
    ]),
  );
  identities = new IdentityService(deps, sessions, { providers, redirectUri: REDIRECT, signupEnabled: false });
  withSignup = new IdentityService(deps, sessions, { providers, redirectUri: REDIRECT, signupEnabled: true });
});

afterAll(async () => {
  await idp?.stop();
  await peers?.stop();
});

let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A member of a workspace with this email, made as the operator CLI makes them. */
async function member(email: string) {
  const user = await admin.createUser({
    email,
    password: 'correct horse 42',
    username: '',
    first_name: 'Ada',
    last_name: 'Lovelace',
    is_staff: false,
    is_superuser: false,
    if_not_exists: false,
  });
  const org = await admin.createOrganization({
    name: `Workspace ${unique()}`,
    description: '',
    owner_username: user.username,
    if_not_exists: false,
  });
  return { user, org };
}

/** The whole round: the authorization request, the provider's screens as `login`, the callback's parameters. */
async function roundTrip(service: IdentityService, login: string, provider = 'testidp') {
  const { verifier, challenge } = pkce();
  const started = await service.start({ identity_provider: provider, code_challenge: challenge });
  const back = await signInAtProvider(started.authorization_url, login, REDIRECT);
  return {
    started,
    verifier,
    code: back.searchParams.get('code')!,
    state: back.searchParams.get('state')!,
    iss: back.searchParams.get('iss') ?? '',
  };
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string; fields?: unknown }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof Problem)) throw new Error(`expected a problem, got ${String(err)}`);
  return { status: err.status, message: err.message, fields: err.fields };
}

async function lastAudit(event: string) {
  const [row] = await sql<{ event: string; target: string; details: Record<string, unknown>; ip: string }[]>`
    select event, target, details, ip from audit_events where event = ${event} order by id desc limit 1`;
  return row;
}

describe(IdentityService.name, () => {
  it('lists the providers for every address, and those kept for a domain only with an email of it', () => {
    expect(identities.listProviders({ email: '' })).toEqual({
      results: [{ id: 'testidp', name: 'Test IdP' }],
      signup_enabled: false,
    });
    expect(identities.listProviders({ email: 'Bob@ACME.org' }).results.map((p) => p.id)).toEqual(['testidp', 'acme']);
    expect(withSignup.listProviders({ email: 'x@other.org' }).signup_enabled).toBe(true);
  });

  it('builds an authorization request with the S256 challenge, a state and a nonce, kept for the callback', async () => {
    const { challenge } = pkce();
    const { authorization_url, state } = await identities.start({
      identity_provider: 'testidp',
      code_challenge: challenge,
    });
    const url = new URL(authorization_url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge')).toBe(challenge);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    const [flow] = await sql<
      { nonce: string; code_challenge: string }[]
    >`select * from oidc_flows where state = ${state}`;
    expect(flow!.code_challenge).toBe(challenge);
    expect(url.searchParams.get('nonce')).toBe(flow!.nonce);
  });

  it('signs in the account with the verified email, links the identity, and finds it by subject afterwards', async () => {
    const email = `ada.${unique()}@example.org`;
    const { user, org } = await member(email);
    const login = `ada-${unique()}`;
    idp.addAccount({ login, email: email.toUpperCase(), name: 'Ada Lovelace' });
    const r = await roundTrip(identities, login);
    const reply = await identities.code({
      identity_provider: 'testidp',
      code: r.code,
      code_verifier: r.verifier,
      state: r.state,
      iss: r.iss,
      client_ip: '10.1.1.1',
    });
    expect(reply.access.split('.')).toHaveLength(3);
    expect(reply.refresh).not.toBe('');
    expect(reply.user).toMatchObject({ id: user.id, email });
    expect(reply.organization).toMatchObject({ id: org.id });
    const [link] = await sql<{ user_id: number }[]>`
      select user_id from user_identities where provider = 'testidp' and subject = ${login}`;
    expect(Number(link!.user_id)).toBe(user.id);
    expect(await lastAudit('login')).toMatchObject({
      target: user.username,
      details: { identity_provider: 'testidp' },
    });

    // The provider's email changes: the linked subject still signs in the same account.
    idp.addAccount({ login, email: `changed.${unique()}@example.org` });
    const again = await roundTrip(identities, login);
    const second = await identities.code({
      identity_provider: 'testidp',
      code: again.code,
      code_verifier: again.verifier,
      state: again.state,
      iss: again.iss,
      client_ip: '',
    });
    expect(second.user!.id).toBe(user.id);
  });

  it('refuses a wrong state, a state used twice and a wrong verifier, each audited', async () => {
    const email = `bob.${unique()}@example.org`;
    await member(email);
    const login = `bob-${unique()}`;
    idp.addAccount({ login, email });
    const r = await roundTrip(identities, login);
    const base = { identity_provider: 'testidp', code: r.code, iss: r.iss, client_ip: '10.2.2.2' };

    const wrongState = await refusal(
      identities.code({ ...base, code_verifier: r.verifier, state: randomBytes(24).toString('base64url') }),
    );
    expect(wrongState).toMatchObject({
      status: 400,
      message: 'This sign-in has expired or was already used. Please sign in again.',
    });
    expect(await lastAudit('login_failed')).toMatchObject({
      ip: '10.2.2.2',
      details: { identity_provider: 'testidp', reason: 'state' },
    });

    const wrongVerifier = await refusal(identities.code({ ...base, code_verifier: pkce().verifier, state: r.state }));
    expect(wrongVerifier).toMatchObject({
      status: 400,
      message: 'The sign-in could not be verified (the code verifier does not match). Please sign in again.',
    });
    expect(await lastAudit('login_failed')).toMatchObject({ details: { reason: 'code_verifier' } });

    // The state was spent by the refused attempt: even the right verifier cannot use it again.
    const reused = await refusal(identities.code({ ...base, code_verifier: r.verifier, state: r.state }));
    expect(reused.message).toBe('This sign-in has expired or was already used. Please sign in again.');
  });

  it('refuses a code the provider did not issue for this verifier (checked by the provider too)', async () => {
    const email = `eve.${unique()}@example.org`;
    await member(email);
    const login = `eve-${unique()}`;
    idp.addAccount({ login, email });
    const r = await roundTrip(identities, login);
    const refused = await refusal(
      identities.code({
        identity_provider: 'testidp',
        code: `${r.code}x`,
        code_verifier: r.verifier,
        state: r.state,
        iss: r.iss,
        client_ip: '',
      }),
    );
    expect(refused).toMatchObject({
      status: 400,
      message: 'The identity provider did not confirm the sign-in. Please sign in again.',
    });
    expect(await lastAudit('login_failed')).toMatchObject({ details: { reason: 'provider' } });
  });

  it('refuses an unverified email and an address no account uses when sign-up is off', async () => {
    const email = `carol.${unique()}@example.org`;
    await member(email);
    const unverified = `carol-${unique()}`;
    idp.addAccount({ login: unverified, email, email_verified: false });
    let r = await roundTrip(identities, unverified);
    const noProof = await refusal(
      identities.code({
        identity_provider: 'testidp',
        code: r.code,
        code_verifier: r.verifier,
        state: r.state,
        iss: r.iss,
        client_ip: '',
      }),
    );
    expect(noProof.message).toBe(
      'The identity provider did not confirm your email address, so no account can be matched to it.',
    );

    const stranger = `stranger-${unique()}`;
    const strangerEmail = `${stranger}@example.org`;
    idp.addAccount({ login: stranger, email: strangerEmail });
    r = await roundTrip(identities, stranger);
    const none = await refusal(
      identities.code({
        identity_provider: 'testidp',
        code: r.code,
        code_verifier: r.verifier,
        state: r.state,
        iss: r.iss,
        client_ip: '',
      }),
    );
    expect(none).toMatchObject({
      status: 400,
      message: 'No account uses this email address. Ask a workspace administrator to invite you, then sign in again.',
    });
    expect(await lastAudit('login_failed')).toMatchObject({ target: strangerEmail, details: { reason: 'no_account' } });
    const [count] = await sql<
      { n: number }[]
    >`select count(*)::int as n from users where lower(email) = ${strangerEmail}`;
    expect(count!.n).toBe(0);
  });

  it('with sign-up on, creates the account (no password) and a workspace it owns from the provider', async () => {
    const login = `newbie-${unique()}`;
    const email = `${login}@example.org`;
    idp.addAccount({ login, email, name: 'Grace Brewster Hopper' });
    const r = await roundTrip(withSignup, login);
    const reply = await withSignup.code({
      identity_provider: 'testidp',
      code: r.code,
      code_verifier: r.verifier,
      state: r.state,
      iss: r.iss,
      client_ip: '',
    });
    expect(reply.user).toMatchObject({ email, first_name: 'Grace', last_name: 'Hopper', username: email });
    expect(reply.organization).toMatchObject({ name: "Grace Hopper's workspace" });
    const [row] = await sql<
      { password_hash: string | null }[]
    >`select password_hash from users where id = ${reply.user!.id}`;
    expect(row!.password_hash).toBeNull();
    expect(reply.organization!.organizationuser_set).toEqual([
      expect.objectContaining({ user: reply.user!.id, owner: true }),
    ]);
  });

  it('refuses an unknown provider and a malformed challenge or verifier with field errors', async () => {
    expect(
      await refusal(identities.start({ identity_provider: 'nope', code_challenge: pkce().challenge })),
    ).toMatchObject({ status: 400, fields: { identity_provider: ['Unknown identity provider.'] } });
    expect(await refusal(identities.start({ identity_provider: 'testidp', code_challenge: 'short' }))).toMatchObject({
      status: 400,
      fields: { code_challenge: ['Send the S256 challenge of a PKCE code verifier.'] },
    });
    expect(
      await refusal(
        identities.code({
          identity_provider: 'testidp',
          code: '',
          code_verifier: 'x',
          state: '',
          iss: '',
          client_ip: '',
        }),
      ),
    ).toMatchObject({
      status: 400,
      fields: {
        code: ['This field may not be blank.'],
        code_verifier: ['Not a PKCE code verifier.'],
        state: ['This field may not be blank.'],
      },
    });
  });

  describe('sign-up with a password', () => {
    const body = (over: Record<string, string> = {}) => ({
      email: `sign.${unique()}@example.org`,
      name: 'Katherine Johnson',
      password: 'orbital mechanics 1962',
      organization_name: 'Langley Surveys',
      organization_description: 'Field teams',
      client_ip: '',
      ...over,
    });

    it('is refused when the deployment does not allow it', async () => {
      expect(await refusal(identities.signUp(body()))).toMatchObject({
        status: 400,
        message: 'Sign-up is not enabled on this server.',
      });
    });

    it('creates the account and its workspace and signs in; the password then logs in', async () => {
      const b = body();
      const reply = await withSignup.signUp(b);
      expect(reply.user).toMatchObject({ email: b.email, first_name: 'Katherine', last_name: 'Johnson' });
      expect(reply.organization).toMatchObject({ name: 'Langley Surveys', description: 'Field teams' });
      const login = await sessions.login({ username: b.email, password: b.password, client_ip: '', device: '' });
      expect(login.user!.id).toBe(reply.user!.id);
      expect(await lastAudit('signup')).toMatchObject({ target: b.email });
    });

    it('refuses a taken email, a weak password, a blank name and workspace, with field messages', async () => {
      const taken = body();
      await withSignup.signUp(taken);
      expect(await refusal(withSignup.signUp(body({ email: taken.email.toUpperCase() })))).toMatchObject({
        fields: { email: ['A user with this email already exists.'] },
      });
      expect(
        await refusal(withSignup.signUp(body({ email: 'bad', password: '1234', name: ' ', organization_name: '' }))),
      ).toMatchObject({
        fields: {
          email: ['Enter a valid email address.'],
          name: ['This field may not be blank.'],
          password: [
            'This password is too short. It must contain at least 8 characters.',
            'This password is entirely numeric.',
            'This password is too common.',
          ],
          newOrgName: ['This field may not be blank.'],
        },
      });
    });
  });
});
