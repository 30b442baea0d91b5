// Login, refresh-token rotation and logout (spec 000 §4 Login, Session).
import { randomUUID } from 'node:crypto';
import { common, type auth } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { addFieldErrors, MESSAGES, normalizeLogin } from '../domain/accounts.js';
import { afterAttempt, current, throttleKeys, waitMs } from '../domain/login-throttle.js';
import { LoginThrottleStore } from '../store/login-throttle.store.js';
import { OrganizationStore, type OrganizationRow } from '../store/organization.store.js';
import { SessionStore } from '../store/session.store.js';
import { UserStore, type UserRow } from '../store/user.store.js';
import { randomToken, sha256 } from './crypto.js';
import type { AuthDeps } from './deps.js';
import { toOrganization, toUser } from './mappers.js';
import { visibleMembers } from './workspace-access.js';

/** An address the account signed in from within this many days counts as its owner's (login-throttle.ts). */
const KNOWN_ADDRESS_DAYS = 30;

export class SessionService {
  private readonly users: UserStore;
  private readonly orgs: OrganizationStore;
  private readonly sessions: SessionStore;
  private readonly throttle: LoginThrottleStore;
  // A precomputed hash to verify against when the user does not exist, so both paths cost the same.
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthDeps) {
    this.users = new UserStore(deps.sql);
    this.orgs = new OrganizationStore(deps.sql);
    this.sessions = new SessionStore(deps.sql);
    this.throttle = new LoginThrottleStore(deps.sql);
  }

  async login(req: auth.LoginRequest): Promise<auth.LoginReply> {
    const { username, password } = normalizeLogin(req.username, req.password);
    const fields = {};
    if (username === '') addFieldErrors(fields, 'username', [MESSAGES.blank]);
    if (password === '') addFieldErrors(fields, 'password', [MESSAGES.blank]);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);

    const user = await this.users.byLogin(username);
    const org = user?.current_organization_id ?? null;
    // Counted before the password is checked, under a row lock: parallel guesses queue on the same count.
    const keys = throttleKeys({
      userId: user?.id,
      name: username,
      ip: req.client_ip,
      knownAddress:
        user !== undefined && (await this.throttle.knownAddress(user.id, req.client_ip, KNOWN_ADDRESS_DAYS)),
    });
    const gate = await this.gate(keys);
    if (gate.waitMs > 0) {
      this.deps.log.info({ username, waitMs: gate.waitMs }, 'login slowed down');
      await this.deps.audit.record({
        organization_id: org,
        actor_user_id: user?.id ?? null,
        event: 'login_throttled',
        target: username,
        ip: req.client_ip,
        details: { wait_s: Math.ceil(gate.waitMs / 1000) },
      });
      throw problems.tooManyLoginAttempts(Math.ceil(gate.waitMs / 1000));
    }

    const ok = await this.deps.hasher.verify(user?.password_hash ?? (await this.dummy()), password);
    if (!user || !ok || !user.is_active || user.password_hash === null) {
      this.deps.log.info({ username, attempts: gate.attempts }, 'login failed');
      await this.deps.audit.record({
        organization_id: org,
        actor_user_id: user?.id ?? null,
        event: 'login_failed',
        target: username,
        ip: req.client_ip,
        details: { failures: gate.attempts },
      });
      throw problems.loginFailed();
    }
    // A good password: the account's count starts again; the address gets its attempt back (only failures count there).
    await this.throttle.clear(keys.account);
    if (keys.address) await this.throttle.refund(keys.address);

    return this.signIn(user, req.client_ip);
  }

  /**
   * A new session for a user whose credentials were checked (password, identity provider, sign-up): the token
   * pair, the user and the current workspace; refused without a workspace (spec 000 §8). Audited as a login.
   */
  async signIn(user: UserRow, clientIp: string, details?: Record<string, unknown>): Promise<auth.LoginReply> {
    const organizations = await this.orgs.ofUser(user.id);
    if (organizations.length === 0) throw problems.noWorkspace();
    const current = organizations.find((o) => o.id === user.current_organization_id) ?? organizations[0]!;
    if (current.id !== user.current_organization_id) await this.users.setCurrentOrganization(user.id, current.id);

    const sessionId = randomUUID();
    await this.sessions.create(sessionId, user.id, clientIp);
    const refresh = await this.issueRefresh(sessionId);
    const logged = await this.users.recordLogin(user.id);
    this.deps.log.info({ userId: user.id, sessionId }, 'login');
    await this.deps.audit.record({
      organization_id: current.id,
      actor_user_id: user.id,
      event: 'login',
      target: user.username,
      ip: clientIp,
      ...(details ? { details } : {}),
    });
    return {
      access: this.access(logged, sessionId),
      refresh,
      user: toUser(logged, organizations),
      organization: await this.organizationFor(user, current),
    };
  }

  async refresh(req: auth.RefreshTokenRequest): Promise<auth.TokenPair> {
    if (req.refresh === '') throw problems.invalidFields({ refresh: [MESSAGES.blank] });
    const hash = sha256(req.refresh);
    const found = await this.sessions.lookup(hash);
    const now = Date.now();
    if (!found || found.revoked_at !== null || found.expires_at.getTime() <= now) throw problems.tokenInvalid();
    let replacing = [hash];
    if (found.used_at !== null || !(await this.sessions.markUsed(hash))) {
      const usedMs = now - (found.used_at?.getTime() ?? now);
      if (usedMs > this.deps.settings.refreshReuseGraceMs) {
        // A rotated token presented again long after its use means it was copied: end the whole session. Its
        // access tokens stop too: the revocation reaches the gateways' revocation list.
        await this.sessions.revoke(found.session_id);
        this.deps.log.warn({ sessionId: found.session_id }, 'refresh token reused; session revoked');
        throw problems.tokenInvalid();
      }
      // Presented again soon after its use: the answer to that use was lost on the way (a phone whose network
      // dropped mid-refresh keeps the old token) or two tabs raced. While the token it was exchanged for has never
      // been used, that one is retired and this request gets a new pair; otherwise it fails alone.
      const retired = await this.sessions.retireUnusedSuccessor(hash);
      if (!retired) throw problems.tokenInvalid();
      this.deps.log.info(
        { sessionId: found.session_id },
        'refresh token presented again before its successor was used',
      );
      replacing = [hash, retired];
    }
    const user = await this.users.byId(found.user_id);
    if (!user || !user.is_active) throw problems.tokenInvalid();
    return {
      access: this.access(user, found.session_id),
      refresh: await this.issueRefresh(found.session_id, replacing),
    };
  }

  async logout(req: auth.LogoutRequest): Promise<common.Empty> {
    const caller = req.caller;
    if (!caller || caller.user_id === 0) throw problems.notAuthenticated();
    if (caller.session_id !== '') await this.sessions.revoke(caller.session_id);
    if (req.refresh !== '') {
      const found = await this.sessions.lookup(sha256(req.refresh));
      if (found && found.user_id === caller.user_id) await this.sessions.revoke(found.session_id);
    }
    return {};
  }

  /**
   * Lets one attempt through, counting it on the account's and the address's counters, or says how long to wait
   * (a refused attempt changes no counter, so waiting it out always works).
   */
  private async gate(keys: {
    account: string;
    address: string | undefined;
  }): Promise<{ waitMs: number; attempts: number }> {
    const policy = this.deps.settings.throttle;
    if (Math.random() < 0.01) await this.throttle.prune(policy.windowMs + 60_000);
    return this.throttle.withCounters([keys.account, ...(keys.address ? [keys.address] : [])], (counters) => {
      // Read under the counters' lock: the login ahead in the queue saved its time before this one looks.
      const now = new Date();
      const account = counters.get(keys.account);
      const address = keys.address ? counters.get(keys.address) : undefined;
      const wait = Math.max(
        waitMs(account, now, policy.freeAttempts, policy),
        keys.address ? waitMs(address, now, policy.addressFreeAttempts, policy) : 0,
      );
      if (wait > 0)
        return { save: new Map(), result: { waitMs: wait, attempts: current(account, now, policy).attempts } };
      const next = afterAttempt(account, now, policy);
      const save = new Map([[keys.account, next]]);
      if (keys.address) save.set(keys.address, afterAttempt(address, now, policy));
      return { save, result: { waitMs: 0, attempts: next.attempts } };
    });
  }

  /** The login answer's workspace, with the members this user may see in it (workspace-access.ts). */
  private async organizationFor(user: UserRow, org: OrganizationRow): Promise<auth.Organization> {
    const caller = common.Caller.fromPartial({
      user_id: user.id,
      is_staff: user.is_staff,
      is_superuser: user.is_superuser,
    });
    const members = await this.orgs.members(org.id);
    const member = members.find((m) => m.user_id === user.id && m.is_active);
    return toOrganization(org, visibleMembers(caller, org, member, members));
  }

  private access(user: UserRow, sessionId: string): string {
    return this.deps.tokens.access({
      user_id: user.id,
      sid: sessionId,
      is_staff: user.is_staff,
      is_superuser: user.is_superuser,
    });
  }

  /** A new refresh token of the session; `replacing` are the used tokens it succeeds. */
  private async issueRefresh(sessionId: string, replacing: Buffer[] = []): Promise<string> {
    const token = randomToken();
    const expires = new Date(Date.now() + this.deps.settings.refreshTtlSeconds * 1000);
    await this.sessions.addRefreshToken(sessionId, sha256(token), expires, replacing);
    return token;
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.deps.hasher.hash(randomToken());
    return this.dummyHash;
  }
}
