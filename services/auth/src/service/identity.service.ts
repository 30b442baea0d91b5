// Sign-in through an identity provider (spec 000 §7: oauth/providers/, oauth/code/ with a PKCE code verifier) and
// sign-up where the deployment allows it. OpenID Connect with openid-client: authorization code + PKCE (S256), the
// state and nonce of each request kept here and checked, the ID token verified by the library.
//
// Matching (docs/api-accounts.md, "Identity providers"): an identity already linked signs in its account; else a
// verified email of an existing account links the identity to it; else, with sign-up enabled, a new account and a
// workspace it owns are created; else the sign-in is refused. Every refusal is audited as a failed login.
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import type { auth } from '@fieldwork/proto';
import { problems, transaction, type FieldErrors } from '@fieldwork/service-kit';
import {
  addFieldErrors,
  isValidEmail,
  MESSAGES,
  passwordProblems,
  splitName,
  usernameFromEmail,
} from '../domain/accounts.js';
import {
  isCodeChallenge,
  isCodeVerifier,
  namesFromClaims,
  OIDC_MESSAGES,
  offeredProviders,
  s256,
  verifiedEmail,
  type IdentityProviderConfig,
} from '../domain/identity-providers.js';
import { IdentityStore } from '../store/identity.store.js';
import { OrganizationStore } from '../store/organization.store.js';
import { UserStore, type UserRow } from '../store/user.store.js';
import type { AuthDeps } from './deps.js';
import type { SessionService } from './session.service.js';

/** How long a browser has to come back from the provider. */
const FLOW_TTL_MS = 10 * 60_000;
const ORG_NAME_MAX = 200;

export interface IdentitySettings {
  providers: IdentityProviderConfig[];
  /** Where the provider sends the browser back: the web app's /login-home/oauth (registered at the provider). */
  redirectUri: string;
  signupEnabled: boolean;
}

const loopback = (url: string) => /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);

export class IdentityService {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();
  private readonly users: UserStore;
  private readonly identities: IdentityStore;

  constructor(
    private readonly deps: AuthDeps,
    private readonly sessions: SessionService,
    private readonly settings: IdentitySettings,
  ) {
    this.users = new UserStore(deps.sql);
    this.identities = new IdentityStore(deps.sql);
  }

  listProviders(req: auth.ListIdentityProvidersRequest): auth.IdentityProviderList {
    return {
      results: offeredProviders(this.settings.providers, req.email).map((p) => ({ id: p.id, name: p.name })),
      signup_enabled: this.settings.signupEnabled,
    };
  }

  async start(req: auth.StartOidcRequest): Promise<auth.StartOidcReply> {
    const provider = this.provider(req.identity_provider);
    if (!isCodeChallenge(req.code_challenge)) {
      throw problems.invalidFields({ code_challenge: ['Send the S256 challenge of a PKCE code verifier.'] });
    }
    const config = await this.config(provider);
    const state = randomBytes(24).toString('base64url');
    const nonce = randomBytes(24).toString('base64url');
    if (Math.random() < 0.05) await this.identities.pruneFlows();
    await this.identities.addFlow({
      state,
      provider: provider.id,
      nonce,
      code_challenge: req.code_challenge,
      expires_at: new Date(Date.now() + FLOW_TTL_MS),
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: provider.scopes.join(' '),
      code_challenge: req.code_challenge,
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorization_url: url.href, state };
  }

  async code(req: auth.OidcCodeRequest): Promise<auth.LoginReply> {
    const provider = this.provider(req.identity_provider);
    const fields: FieldErrors = {};
    if (req.code === '') addFieldErrors(fields, 'code', [MESSAGES.blank]);
    if (!isCodeVerifier(req.code_verifier)) addFieldErrors(fields, 'code_verifier', ['Not a PKCE code verifier.']);
    if (req.state === '') addFieldErrors(fields, 'state', [MESSAGES.blank]);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);

    const fail = async (reason: string, message: string, extra: Record<string, unknown> = {}) => {
      this.deps.log.info({ provider: provider.id, reason }, 'identity provider sign-in refused');
      await this.deps.audit.record({
        organization_id: null,
        actor_user_id: typeof extra.user_id === 'number' ? extra.user_id : null,
        event: 'login_failed',
        target: typeof extra.email === 'string' ? extra.email : provider.id,
        ip: req.client_ip,
        details: { identity_provider: provider.id, reason },
      });
      return problems.invalid(message);
    };

    // The state names a request this service made, once, for this provider, not long ago.
    const flow = await this.identities.takeFlow(req.state);
    if (!flow || flow.provider !== provider.id) throw await fail('state', OIDC_MESSAGES.flowExpired);
    // The verifier must be the one whose challenge started it (the provider checks it too).
    if (s256(req.code_verifier) !== flow.code_challenge)
      throw await fail('code_verifier', OIDC_MESSAGES.verifierMismatch);

    const config = await this.config(provider);
    const callback = new URL(this.settings.redirectUri);
    callback.searchParams.set('code', req.code);
    callback.searchParams.set('state', req.state);
    if (req.iss !== '') callback.searchParams.set('iss', req.iss);
    let claims: Record<string, unknown>;
    let subject: string;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: req.code_verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      subject = idClaims.sub;
      claims = { ...idClaims };
      // Email and names often come only from the userinfo endpoint (the ID token then carries sub alone).
      if (claims.email === undefined && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
        claims = { ...info, ...idClaims, email: info.email, email_verified: info.email_verified };
      }
    } catch (err) {
      this.deps.log.warn({ err, provider: provider.id }, 'the identity provider did not confirm the sign-in');
      throw await fail('provider', OIDC_MESSAGES.refused, { error: err instanceof Error ? err.message : String(err) });
    }

    const linked = await this.identities.userOf(provider.id, subject);
    const { email, verified } = verifiedEmail(claims);
    let user: UserRow | undefined = linked === undefined ? undefined : await this.users.byId(linked);
    if (!user) {
      if (email === '' || !isValidEmail(email)) throw await fail('no_email', OIDC_MESSAGES.noEmail);
      if (!verified) throw await fail('email_not_verified', OIDC_MESSAGES.unverifiedEmail, { email });
      user = await this.users.byEmail(email);
      if (user) {
        await this.identities.link(provider.id, subject, user.id, email);
        this.deps.log.info({ userId: user.id, provider: provider.id }, 'identity linked to an account');
      } else if (this.settings.signupEnabled) {
        const names = namesFromClaims(claims);
        const display = `${names.first_name} ${names.last_name}`.trim() || email.split('@')[0]!;
        user = await this.createAccount(
          { email, ...names, password_hash: null },
          `${display}'s workspace`,
          '',
          async (tx, created) => new IdentityStore(tx).link(provider.id, subject, created.id, email),
        );
      } else {
        throw await fail('no_account', OIDC_MESSAGES.noAccount, { email });
      }
    }
    if (!user.is_active) throw await fail('inactive', OIDC_MESSAGES.inactive, { user_id: user.id });
    return this.sessions.signIn(user, req.client_ip, { identity_provider: provider.id });
  }

  /** Sign-up with an email and a password: a new account and the workspace it owns, signed in at once. */
  async signUp(req: auth.SignUpRequest): Promise<auth.LoginReply> {
    if (!this.settings.signupEnabled) throw problems.invalid(OIDC_MESSAGES.signupDisabled);
    const fields: FieldErrors = {};
    const email = req.email.trim();
    if (!isValidEmail(email)) addFieldErrors(fields, 'email', [MESSAGES.email]);
    const names = splitName(req.name);
    if (names.first_name === '') addFieldErrors(fields, 'name', [MESSAGES.blank]);
    if (req.name.trim().length > 300) addFieldErrors(fields, 'name', [MESSAGES.nameTooLong]);
    const password = req.password.trim();
    const policy = passwordProblems(password, { username: usernameFromEmail(email), email });
    addFieldErrors(fields, 'password', password === '' ? [MESSAGES.blank] : policy);
    const orgName = req.organization_name.trim();
    if (orgName === '') addFieldErrors(fields, 'newOrgName', [MESSAGES.blank]);
    if (orgName.length > ORG_NAME_MAX)
      addFieldErrors(fields, 'newOrgName', [`Ensure this field has no more than ${ORG_NAME_MAX} characters.`]);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    if (await this.users.byEmail(email))
      throw problems.invalidFields({ email: ['A user with this email already exists.'] });
    const user = await this.createAccount(
      { email, ...names, password_hash: await this.deps.hasher.hash(password) },
      orgName,
      req.organization_description.trim().slice(0, 1000),
    );
    return this.sessions.signIn(user, req.client_ip, { signup: true });
  }

  private async createAccount(
    user: { email: string; first_name: string; last_name: string; password_hash: string | null },
    orgName: string,
    orgDescription: string,
    also?: (tx: AuthDeps['sql'], created: UserRow) => Promise<void>,
  ): Promise<UserRow> {
    const created = await transaction(this.deps.sql, async (tx) => {
      const users = new UserStore(tx);
      const row = await users.create({ username: usernameFromEmail(user.email), ...user });
      const orgs = new OrganizationStore(tx);
      const org = await orgs.create({ name: orgName.slice(0, ORG_NAME_MAX), description: orgDescription, address: '' });
      await orgs.addMember(org.id, row.id, {
        owner: true,
        user_admin: false,
        project_admin: false,
        billing_admin: false,
      });
      await users.setCurrentOrganization(row.id, org.id);
      if (also) await also(tx, row);
      return { row, org };
    });
    this.deps.log.info({ userId: created.row.id, organizationId: created.org.id }, 'account signed up');
    await this.deps.audit.record({
      organization_id: created.org.id,
      actor_user_id: created.row.id,
      event: 'signup',
      target: created.row.username,
    });
    return (await this.users.byId(created.row.id))!;
  }

  private provider(id: string): IdentityProviderConfig {
    const p = this.settings.providers.find((x) => x.id === id);
    if (!p) throw problems.invalidFields({ identity_provider: [OIDC_MESSAGES.unknownProvider] });
    return p;
  }

  /** The provider's discovered configuration, read once (again after a failure). */
  private config(p: IdentityProviderConfig): Promise<oidc.Configuration> {
    let c = this.configs.get(p.id);
    if (!c) {
      c = oidc
        .discovery(
          new URL(p.issuer),
          p.client_id,
          p.client_secret === '' ? undefined : p.client_secret,
          p.client_secret === '' ? oidc.None() : undefined,
          // Plain http only on this machine (tests, development); a real provider speaks https.
          { timeout: 10, ...(loopback(p.issuer) ? { execute: [oidc.allowInsecureRequests] } : {}) },
        )
        .catch((err: unknown) => {
          this.configs.delete(p.id);
          this.deps.log.error({ err, provider: p.id }, 'identity provider discovery failed');
          throw problems.unavailable();
        });
      this.configs.set(p.id, c);
    }
    return c;
  }
}
