// Login, refresh-token rotation and logout (spec 000 §4 Login, Session).
import { randomUUID } from 'node:crypto';
import { common, type auth } from '@fieldwork/proto';
import { problems, transaction } from '@fieldwork/service-kit';
import { addFieldErrors, MESSAGES, normalizeLogin } from '../domain/accounts.js';
import { refreshDecision } from '../domain/refresh-reuse.js';
import { afterSuccess, gateAttempt, throttleKeys, type CounterKey } from '../domain/login-throttle.js';
import { KnownDeviceStore } from '../store/known-device.store.js';
import { LoginThrottleStore } from '../store/login-throttle.store.js';
import { OrganizationStore, type OrganizationRow } from '../store/organization.store.js';
import { SessionStore } from '../store/session.store.js';
import { UserStore, type UserRow } from '../store/user.store.js';
import { randomToken, sha256 } from './crypto.js';
import type { AuthDeps } from './deps.js';
import { toOrganization, toUser } from './mappers.js';
import { visibleMembers } from './workspace-access.js';

/** A device token unused for this many days is forgotten: the device meets the account's slow-down again. */
const KNOWN_DEVICE_DAYS = 180;

export class SessionService {
  private readonly users: UserStore;
  private readonly orgs: OrganizationStore;
  private readonly sessions: SessionStore;
  private readonly throttle: LoginThrottleStore;
  private readonly devices: KnownDeviceStore;
  // A precomputed hash to verify against when the user does not exist, so both paths cost the same.
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: AuthDeps) {
    this.users = new UserStore(deps.sql);
    this.orgs = new OrganizationStore(deps.sql);
    this.sessions = new SessionStore(deps.sql);
    this.throttle = new LoginThrottleStore(deps.sql);
    this.devices = new KnownDeviceStore(deps.sql);
  }

  async login(req: auth.LoginRequest): Promise<auth.LoginReply> {
    const { username, password } = normalizeLogin(req.username, req.password);
    const fields = {};
    if (username === '') addFieldErrors(fields, 'username', [MESSAGES.blank]);
    if (password === '') addFieldErrors(fields, 'password', [MESSAGES.blank]);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);

    const user = await this.users.byLogin(username);
    const org = user?.current_organization_id ?? null;
    // A device that signed in to this account before meets only its own counter (login-throttle.ts).
    const deviceHash = req.device === '' ? undefined : sha256(req.device);
    const known =
      user !== undefined &&
      deviceHash !== undefined &&
      (await this.devices.known(user.id, deviceHash, KNOWN_DEVICE_DAYS));
    // Counted before the password is checked, under a row lock: parallel guesses queue on the same count.
    const keys = throttleKeys(
      { userId: user?.id, name: username, ip: req.client_ip, device: known ? deviceHash.toString('hex') : undefined },
      this.deps.settings.throttle,
    );
    const gate = await this.gate(keys);
    if (gate.waitMs > 0) {
      this.deps.log.info({ username, waitMs: gate.waitMs, knownDevice: known }, 'login slowed down');
      await this.deps.audit.record({
        organization_id: org,
        actor_user_id: user?.id ?? null,
        event: 'login_throttled',
        target: username,
        ip: req.client_ip,
        details: { wait_s: Math.ceil(gate.waitMs / 1000), known_device: known },
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
    // A good password: this client's own counter starts again; the shared ones get the attempt back.
    const { clear, refund } = afterSuccess(keys);
    await this.throttle.clear(clear);
    await this.throttle.refund(refund);

    const reply = await this.signIn(user, req.client_ip);
    return { ...reply, device: await this.deviceToken(user.id, known ? req.device : undefined) };
  }

  /** The device token the client keeps for its next sign-ins: the one it showed, or a new one. */
  private async deviceToken(userId: number, shown: string | undefined): Promise<string> {
    if (shown !== undefined && (await this.devices.touch(userId, sha256(shown), KNOWN_DEVICE_DAYS))) return shown;
    if (Math.random() < 0.01) await this.devices.prune(KNOWN_DEVICE_DAYS);
    const token = randomToken();
    await this.devices.add(userId, sha256(token));
    return token;
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
      device: '',
    };
  }

  async refresh(req: auth.RefreshTokenRequest): Promise<auth.TokenPair> {
    if (req.refresh === '') throw problems.invalidFields({ refresh: [MESSAGES.blank] });
    const hash = sha256(req.refresh);
    const successor = this.deps.tokens.successor(req.refresh);
    const successorHash = sha256(successor);
    // Under the token's row lock: two uses of one token at once are decided one after the other.
    const outcome = await transaction(this.deps.sql, async (tx) => {
      const sessions = new SessionStore(tx);
      const found = await sessions.lockRefresh(hash);
      const now = new Date();
      if (!found || found.revoked_at !== null || found.expires_at.getTime() <= now.getTime()) return undefined;
      const decision = refreshDecision(found, successorHash, now, this.deps.settings.refreshReuseGraceMs);
      if (decision === 'revoke') {
        // Presented again outside the lost-answer window: it was copied. The whole session ends, its access tokens
        // too (the revocation reaches the gateways' revocation list).
        await sessions.revoke(found.session_id);
        this.deps.log.warn({ sessionId: found.session_id }, 'refresh token reused; session revoked');
        return undefined;
      }
      if (decision === 'rotate') {
        await sessions.markUsed(hash);
        const expires = new Date(now.getTime() + this.deps.settings.refreshTtlSeconds * 1000);
        await sessions.addRefreshToken(found.session_id, successorHash, expires, [hash]);
      } else {
        this.deps.log.info({ sessionId: found.session_id }, 'refresh answer sent again (the first was lost)');
      }
      return found;
    });
    if (!outcome) throw problems.tokenInvalid();
    const user = await this.users.byId(outcome.user_id);
    if (!user || !user.is_active) throw problems.tokenInvalid();
    return { access: this.access(user, outcome.session_id), refresh: successor };
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

  /** Lets one attempt through, counting it on every counter it meets, or says how long to wait (login-throttle.ts). */
  private async gate(keys: CounterKey[]): Promise<{ waitMs: number; attempts: number }> {
    const policy = this.deps.settings.throttle;
    if (Math.random() < 0.01) await this.throttle.prune(policy.windowMs + 60_000);
    return this.throttle.withCounters(
      keys.map((k) => k.key),
      (counters) => {
        // Read under the counters' lock: the login ahead in the queue saved its time before this one looks.
        const { save, ...result } = gateAttempt(keys, counters, new Date(), policy);
        return { save, result };
      },
    );
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
