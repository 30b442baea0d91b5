// Every environment variable of the gateway, with its default.
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadConfig, natsVars, objectStoreVars, vars, z } from '@fieldwork/service-kit';

/** An address, a CIDR, or one of proxy-addr's names (loopback, linklocal, uniquelocal). */
const proxyEntry = (e: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(e)) return true;
  const [addr = '', bits, ...rest] = e.split('/');
  const v = isIP(addr);
  return (
    v !== 0 &&
    rest.length === 0 &&
    (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (v === 4 ? 32 : 128)))
  );
};

const defaultWebDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

export const gatewayConfigShape = {
  /** Log level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: vars.logLevel(),
  /** Interface and port the gateway listens on. */
  GATEWAY_HOST: vars.string('0.0.0.0'),
  GATEWAY_PORT: vars.port(8080),
  /** Port of the Prometheus metrics endpoint (GET /metrics); 0: none. */
  METRICS_PORT: vars.port(0),
  /** Secret shared with the auth service that verifies access tokens (HS256). At least 32 characters. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** Signs the project grants passed to the services (service-kit grant.ts); the services hold the same value. */
  CONTEXT_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** NATS (NATS_URL, NATS_PREFIX): the gateway watches the revocation list of sessions, API keys and share links. */
  ...natsVars,
  /** Service addresses (host:port). */
  AUTH_GRPC_ADDR: vars.string('127.0.0.1:50051'),
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  FORMS_GRPC_ADDR: vars.string('127.0.0.1:50053'),
  RESPONSES_GRPC_ADDR: vars.string('127.0.0.1:50054'),
  RESULTS_GRPC_ADDR: vars.string('127.0.0.1:50055'),
  EXPORTS_GRPC_ADDR: vars.string('127.0.0.1:50056'),
  /** Deadline of a call to a service, in ms. */
  GRPC_TIMEOUT_MS: vars.int(15_000),
  /**
   * Seconds an API key's identity is cached. A revoked key stops at once (the revocation list is checked on every
   * use); the cache bounds how long other changes (its user disabled) take to apply.
   */
  API_KEY_CACHE_S: vars.int(30),
  /** Days a shared item's link (item-chart, item-table, item-results) stays valid. */
  ITEM_SHARE_TTL_DAYS: vars.int(365),
  /**
   * Requests per minute and client address (per gateway replica: with N replicas an address gets up to N times as
   * many) on the calls that need no login or send mail: logging in and refreshing; the email check and the
   * workspace match (they tell whether an address or domain is known); mails (password reset, invitation requests,
   * open responses); error reports. The login itself is also slowed per account and address by the auth service.
   * Logging in: far above what a busy NAT (an office, a mobile carrier, a field team's shift starting at once) sends
   * (docs/security.md); it bounds the password hashing one address can cost.
   */
  RATE_LIMIT_LOGIN_PER_MIN: vars.int(1000),
  RATE_LIMIT_LOOKUP_PER_MIN: vars.int(10),
  RATE_LIMIT_MAIL_PER_MIN: vars.int(5),
  /** People added (workspace and project users by email) per minute and caller: each mails an invitation. */
  RATE_LIMIT_PEOPLE_PER_MIN: vars.int(20),
  RATE_LIMIT_REPORTS_PER_MIN: vars.int(30),
  /**
   * A collection link's anonymous calls per 10 seconds (docs/security.md says why these numbers): response uploads
   * and media calls per link and per client address, and new collection tokens (opening the link) likewise.
   */
  RATE_LIMIT_LINK_UPLOADS_PER_10S: vars.int(200),
  RATE_LIMIT_ADDRESS_UPLOADS_PER_10S: vars.int(60),
  RATE_LIMIT_LINK_OPENS_PER_10S: vars.int(100),
  RATE_LIMIT_ADDRESS_OPENS_PER_10S: vars.int(30),
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT_BYTES: vars.int(1024 * 1024),
  /** Allowed CORS origins, comma-separated; empty allows none (same-origin only); `*` allows any. */
  CORS_ORIGINS: vars.string(''),
  /**
   * The object store project uploads stream to, as the services have it. `fs`: the gateway also serves the store's
   * signed URLs at /api/files/ (when OBJECT_STORE_SIGNING_SECRET is set); `s3`: the URLs point at S3.
   */
  ...objectStoreVars,
  /** Origins of map tiles the web app may load (comma-separated), added to the CSP. */
  MAP_TILE_ORIGINS: vars.string('https://tile.openstreetmap.org'),
  /** The terms of service and privacy policy shown before acceptance: terms.md and privacy.md in this folder. */
  LEGAL_DIR: vars.string(fileURLToPath(new URL('../legal', import.meta.url))),
  /** The built web app served at `/`; empty serves none. */
  WEB_DIR: vars.string(defaultWebDir),
  /** Seconds to let in-flight requests finish on shutdown. */
  SHUTDOWN_TIMEOUT_S: vars.int(10),
  /**
   * Proxies whose X-Forwarded-For is believed (comma-separated addresses or CIDRs, e.g. the ingress controller's pod
   * network); empty: none, the client address is the connection's (the single-machine mode). Only an address in this
   * list may name the client, so nobody else can choose the address the audit log and the per-address limits see.
   */
  TRUSTED_PROXIES: vars.string('').refine(
    (v) =>
      v
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== '')
        .every(proxyEntry),
    'must be comma-separated addresses or CIDRs',
  ),
  /** Set when TLS terminates in front of the gateway, to send HSTS. */
  TLS_TERMINATED: vars.bool(false),
  /** Exit when the launcher that started this process goes away (single-machine mode). */
  EXIT_WITH_PARENT: vars.bool(false),
};

export const loadGatewayConfig = (env?: Record<string, string | undefined>) => loadConfig(gatewayConfigShape, env);
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
