// Builds the gateway (no listening here, so tests can inject requests): external plugins, then the app's own,
// then the routes.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  childTrace,
  formatTraceparent,
  metrics,
  NO_JOB_EVENTS,
  NO_REVOCATIONS,
  parseTraceparent,
  problems,
  type JobEvents,
  type Logger,
  type ObjectStore,
  type RevocationCheck,
} from '@fieldwork/service-kit';
import { common } from '@fieldwork/proto';
import type { Clients } from './clients.js';
import security from './plugins/external/security.js';
import openapi from './plugins/external/openapi.js';
import auth from './plugins/app/auth.js';
import access from './plugins/app/access.js';
import errors from './plugins/app/errors.js';
import web from './plugins/app/web.js';
import healthRoutes from './routes/health.js';
import accountRoutes from './routes/accounts.js';
import identityRoutes, { readLegalTexts } from './routes/identity.js';
import organizationRoutes from './routes/organizations.js';
import errorReportRoutes from './routes/error-reports.js';
import workspaceRoutes from './routes/workspaces.js';
import projectRoutes from './routes/projects.js';
import structureRoutes from './routes/structure.js';
import projectUserRoutes from './routes/project-users.js';
import collectionRoutes from './routes/collection.js';
import fileRoutes from './routes/files.js';
import formRoutes from './routes/forms.js';
import responseRoutes from './routes/responses.js';
import resultRoutes from './routes/results.js';
import viewRoutes from './routes/views.js';
import exportRoutes from './routes/exports.js';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { sharedSchemas } from './schemas.js';
import { recordSchemas } from './schemas/records.js';
import { DRAIN_LIMIT, JSON_DEPTH_MESSAGE, jsonTooDeep } from './limits.js';
import { relinkFiles, requestOrigin } from './request-links.js';

export interface GatewayOptions {
  jwtSecret: string;
  /** Signs the project grants passed to the services (plugins/app/access.ts); none: the services decide alone. */
  contextSecret?: string;
  apiKeyCacheMs?: number;
  /** How long a shared item's link stays valid. */
  itemShareTtlSeconds?: number;
  /** The fs object store served at /api/files/ (absent with S3). */
  files?: { dir: string; secret: string };
  bodyLimit: number;
  corsOrigins: string;
  /** Origins the web app's maps load tiles from (allowed by the CSP). */
  mapTileOrigins?: string;
  webDir: string;
  tls: boolean;
  /** Addresses or CIDRs of the proxies whose X-Forwarded-For names the client (TRUSTED_PROXIES); none by default. */
  trustedProxies?: string;
  /** Requests per minute and client address on the unauthenticated and mail-sending calls (config.ts RATE_LIMIT_*). */
  rateLimits?: Partial<RateLimits>;
  /** Where the terms of service and privacy policy texts are (terms.md, privacy.md; LEGAL_DIR). */
  legalDir?: string;
}

/** The default texts shipped with the gateway. */
export const DEFAULT_LEGAL_DIR = fileURLToPath(new URL('../legal', import.meta.url));

/**
 * Per-minute limits by kind of call (routes/util.ts limit()), and the collection links' limits per 10 seconds
 * (routes/util.ts linkLimits(): uploads are response uploads and media calls; opens are new collection tokens).
 */
export interface RateLimits {
  login: number;
  lookup: number;
  mail: number;
  reports: number;
  linkUploads: number;
  addressUploads: number;
  linkOpens: number;
  addressOpens: number;
  /** Per caller, not per address (routes/util.ts limitPerCaller()). */
  people: number;
}
const DEFAULT_RATE_LIMITS: RateLimits = {
  login: 1000,
  lookup: 10,
  mail: 5,
  reports: 30,
  linkUploads: 200,
  addressUploads: 60,
  linkOpens: 100,
  addressOpens: 30,
  people: 20,
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-minute limits routes apply with `config: limit(app, kind)`. */
    rateLimits: RateLimits;
  }
}

/** Fastify's trustProxy from TRUSTED_PROXIES: false (the connection's address) unless proxies are listed. */
export function trustedProxies(list: string | undefined): false | string[] {
  const entries = (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return entries.length === 0 ? false : entries;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Whether a string anywhere in a parsed request part holds U+0000 (depth-limited; bodies are size-limited). */
function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 64 || typeof v !== 'object' || v === null) return false;
  for (const [k, x] of Object.entries(v)) if (k.includes('\u0000') || hasNul(x, depth + 1)) return true;
  return false;
}

export async function buildGateway(deps: {
  clients: Clients;
  log: Logger;
  options: GatewayOptions;
  /** The revocation list every token is checked against (server.ts watches it; none in unit tests). */
  revocations?: RevocationCheck;
  /** The object store project uploads stream to (none in unit tests: uploads are then sent whole to the service). */
  objects?: ObjectStore;
  /** The jobs' finished events, which the calls that answer a small job at once wait for (none in unit tests: they answer the job as it stands). */
  jobEvents?: Pick<JobEvents, 'settle'>;
  /** NATS, for the access events every gateway replica hears (none in unit tests: this gateway only). */
  nats?: { nc: NatsConnection; prefix: string };
}): Promise<FastifyInstance> {
  const { clients, options } = deps;
  const app = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    bodyLimit: options.bodyLimit,
    // Accept a caller's request id when it looks like one; otherwise make one. Echoed in x-request-id.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // X-Forwarded-For is believed only from the listed proxies: anyone else could write any address there.
    trustProxy: trustedProxies(options.trustedProxies),
    // One access line per request (below), not Fastify's two.
    disableRequestLogging: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true, allowUnionTypes: true } },
  });
  app.decorateRequest('traceparent', '');
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // The trace of this request (the caller's traceparent continued, or a new one), passed on every gRPC call.
    const header = request.headers.traceparent;
    const trace = childTrace(parseTraceparent(typeof header === 'string' ? header : undefined));
    request.traceparent = formatTraceparent(trace);
    request.log = request.log.child({ traceId: trace.traceId });
  });
  // Access log at debug (metrics carry the rates); failures are logged where they are handled.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ route, method: request.method, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug(
        { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
  });
  for (const schema of [...sharedSchemas, ...recordSchemas]) app.addSchema(schema);
  // Bodies are JSON objects (or multipart uploads): text is refused as an unsupported type, and a JSON string,
  // number or list where every route reads fields would otherwise reach code that expects an object.
  app.removeContentTypeParser('text/plain');
  // JSON bodies: nesting bounded on the raw text before parsing (limits.ts MAX_JSON_DEPTH), then Fastify's own parser
  // (prototype poisoning refused as before).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonTooDeep(text)) {
      done(problems.invalid(JSON_DEPTH_MESSAGE), undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.addHook('preValidation', async (request) => {
    const b = request.body;
    if (
      b !== undefined &&
      b !== null &&
      (typeof b !== 'object' || Array.isArray(b)) &&
      String(request.headers['content-type'] ?? '').includes('json')
    ) {
      throw problems.invalid('Send the request body as a JSON object.');
    }
    // PostgreSQL text cannot hold U+0000: refuse it here rather than fail deep in a service.
    if (hasNul(request.params) || hasNul(request.query) || hasNul(b))
      throw problems.invalid('Text may not contain the NUL character.');
  });

  // The API's JSON answers compressed for collectors on slow networks (a page of 50 responses: 56 kB, 5.6 kB in
  // gzip). JSON only: the web app is served pre-compressed, and files (exports, media) are not compressed on the fly.
  // gzip at level 5 costs little CPU; answers under 2 kB (uploads, most reads) are sent as they are. Request bodies
  // are never decompressed (no new way to send the gateway more than its body limit).
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/files/')) route.compress = false;
  });
  // A declared body over the limit is answered 413 before it is read, and Fastify closes the connection: the sender,
  // still writing, gets a broken pipe and may lose the answer (a socket closed with unread data resets). Up to
  // DRAIN_LIMIT, the connection is kept and Node reads and drops the rest, so the client gets its 413
  // (oversized-body.test.ts); past it, closing is cheaper than reading.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 413 && !request.raw.complete) {
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared <= DRAIN_LIMIT) reply.removeHeader('connection');
    }
    return payload;
  });
  // Links to our own files point at the host the caller reached (request-links.ts); before compression.
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      return payload;
    const origin = requestOrigin(request);
    return origin ? relinkFiles(payload, origin) : payload;
  });
  await app.register(compress, {
    encodings: ['gzip'],
    threshold: 2048,
    zlibOptions: { level: 5 },
    customTypes: /^application\/json(?:;|$)/,
    globalDecompression: false,
  });
  await app.register(security, {
    corsOrigins: options.corsOrigins,
    tls: options.tls,
    mapTileOrigins: options.mapTileOrigins ?? '',
  });
  await app.register(openapi);
  await app.register(errors);
  await app.register(multipart, { limits: { files: 1, fields: 20, fileSize: 50 * 1024 * 1024 } });
  // Per client address (request.ip: the connection's, or a trusted proxy's client), in this process's memory, on the
  // routes that ask for it (429.2 with Retry-After past the limit).
  app.decorate('rateLimits', { ...DEFAULT_RATE_LIMITS, ...options.rateLimits });
  await app.register(rateLimit, { global: false, keyGenerator: (request) => request.ip });
  await app.register(auth, {
    secret: options.jwtSecret,
    revocations: deps.revocations ?? NO_REVOCATIONS,
    apiKeyCacheMs: options.apiKeyCacheMs ?? 30_000,
    authenticateApiKey: async (key: string, requestId: string) => {
      const who = await clients.auth.authenticateApiKey({ key }, { requestId });
      return {
        caller: common.Caller.fromPartial({
          user_id: who.user_id,
          is_staff: who.is_staff,
          is_superuser: who.is_superuser,
          organization_id: who.organization_id,
          api_key: who.prefix,
        }),
        prefix: who.prefix,
      };
    },
  });

  await app.register(access, {
    clients,
    secret: options.contextSecret ?? '',
    log: deps.log,
    ...(deps.nats ? { nats: deps.nats } : {}),
  });

  await app.register(healthRoutes, { clients });
  await app.register(accountRoutes, { clients });
  await app.register(identityRoutes, { clients, legal: readLegalTexts(options.legalDir ?? DEFAULT_LEGAL_DIR) });
  await app.register(organizationRoutes, { clients });
  await app.register(errorReportRoutes);
  await app.register(workspaceRoutes, { clients });
  await app.register(projectRoutes, { clients, objects: deps.objects });
  await app.register(structureRoutes, { clients });
  const jobEvents = deps.jobEvents ?? NO_JOB_EVENTS;
  await app.register(projectUserRoutes, { clients, jobEvents });
  await app.register(collectionRoutes, { clients });
  await app.register(formRoutes, { clients });
  await app.register(responseRoutes, { clients });
  await app.register(resultRoutes, { clients, shareTtlSeconds: options.itemShareTtlSeconds ?? 365 * 86_400 });
  await app.register(viewRoutes, { clients });
  await app.register(exportRoutes, { clients, jobEvents });
  if (options.files) await app.register(fileRoutes, options.files);
  await app.register(web, { webDir: options.webDir });
  return app;
}
