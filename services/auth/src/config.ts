// Every environment variable of the auth service, with its default.
import { parseProviders } from './domain/identity-providers.js';
import { ConfigError, loadConfig, natsVars, serviceVars, vars, z } from '@fieldwork/service-kit';

export const authConfigShape = {
  ...serviceVars,
  // NATS carries the revocation list (sessions, API keys, share links) to the gateways.
  ...natsVars,
  /** gRPC port of the auth service. */
  AUTH_GRPC_PORT: vars.port(50051),
  /** Secret that signs access tokens (HS256); the gateway verifies with the same one. At least 32 characters. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** Lifetime of an access token in seconds (the web refreshes after 30 minutes). */
  ACCESS_TOKEN_TTL_S: vars.int(3600),
  /** Lifetime of a refresh token in seconds. */
  REFRESH_TOKEN_TTL_S: vars.int(30 * 24 * 3600),
  /**
   * Seconds after its use in which a spent refresh token presented again gets the successor already issued (an answer
   * lost on the way); any other reuse ends the session (domain/refresh-reuse.ts).
   */
  REFRESH_REUSE_GRACE_S: vars.int(10),
  /** Lifetime of a password-reset link in seconds. */
  RESET_LINK_TTL_S: vars.int(3600),
  /** Lifetime of a set-password link (new users) in seconds. */
  SET_PASSWORD_LINK_TTL_S: vars.int(7 * 24 * 3600),
  /** Public base URL of the web app, for links in mails. */
  PUBLIC_URL: vars.string('http://localhost:8080'),
  /** Mail transport: `log` writes mails to the log (single machine), `smtp` sends through SMTP_URL. */
  MAIL_TRANSPORT: z.enum(['log', 'smtp']).default('log'),
  /** SMTP URL, e.g. smtps://user:pass@smtp.example.com:465 (with MAIL_TRANSPORT=smtp). */
  SMTP_URL: vars.string(''),
  /** Sender address of mails. */
  MAIL_FROM: vars.string('Fieldwork <no-reply@fieldwork.local>'),
  /** Where invitation requests are mailed; empty keeps them in the database only. */
  INVITE_NOTIFY_EMAIL: vars.string(''),
  /** Address (host:port) of the projects service (integrations attach projects). */
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  /** The CRM's verification endpoint: POST {token}; verified only on 200 with {"status": "Success"}. Empty: off. */
  INTEGRATION_CRM_VERIFY_URL: vars.string(''),
  /**
   * Login attempts on one account (all its login names) from one client address, and from one device that signed in
   * to it before, let through at once within the window; then slowed (domain/login-throttle.ts).
   */
  LOGIN_SLOWDOWN_AFTER: vars.int(5),
  /** Login attempts on one account from devices it does not know, every address together, let through at once. */
  LOGIN_ACCOUNT_SLOWDOWN_AFTER: vars.int(20),
  /**
   * Failed logins from one client address (every account together) within a window, let through at once; then
   * slowed for clients the account does not know. Far above what a busy NAT's typos make (docs/security.md).
   */
  LOGIN_ADDRESS_SLOWDOWN_AFTER: vars.int(1000),
  /** First delay of the slow-down in ms, doubled per further attempt up to LOGIN_MAX_DELAY_S. */
  LOGIN_SLOWDOWN_MS: vars.int(1000),
  /** Longest delay between two attempts in seconds: never a lockout (60: at most about 70 tries an hour per account). */
  LOGIN_MAX_DELAY_S: vars.int(60),
  /** Minutes without an attempt after which a counter starts again from zero (an address's: after it began). */
  LOGIN_WINDOW_MINUTES: vars.int(15),
  /** argon2id memory in KiB and passes (OWASP minimum: 19456 KiB, 2 passes). */
  ARGON2_MEMORY_KIB: vars.int(19456),
  ARGON2_PASSES: vars.int(2),
  /**
   * Identity providers (OpenID Connect) people may sign in with: a JSON array of {id, name, issuer, client_id,
   * client_secret?, scopes?, email_domains?}; empty: none (docs/operations.md, "Identity providers").
   */
  OIDC_PROVIDERS: vars.string(''),
  /** Where providers send the browser back; registered at each provider. Default: PUBLIC_URL + /login-home/oauth. */
  OIDC_REDIRECT_URI: vars.string(''),
  /** Whether people may create an account (and its workspace) themselves, with a password or an identity provider. */
  SIGNUP_ENABLED: vars.bool(false),
};

export type AuthConfig = ReturnType<typeof loadAuthConfig>;

export function loadAuthConfig(env?: Record<string, string | undefined>) {
  const config = loadConfig(authConfigShape, env);
  if (config.MAIL_TRANSPORT === 'smtp' && config.SMTP_URL === '') {
    throw new ConfigError(['SMTP_URL: is required when MAIL_TRANSPORT=smtp']);
  }
  try {
    return { ...config, identityProviders: parseProviders(config.OIDC_PROVIDERS) };
  } catch (err) {
    throw new ConfigError([(err as Error).message]);
  }
}
