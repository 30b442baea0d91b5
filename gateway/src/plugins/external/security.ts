// Security headers and CORS. helmet computes the headers (CSP with frame-ancestors 'none', nosniff, HSTS only
// behind TLS, ...) once at start-up; every answer then gets the same precomputed set. (@fastify/helmet rebuilds
// helmet and re-parses the CSP on every request, which cost a measured ~10% of a request's CPU here.)
import cors from '@fastify/cors';
import helmet from 'helmet';
import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers helmet would set, computed by running it once against a recording response. */
export function securityHeaders(tls: boolean, mapTileOrigins: string[] = []): [string, string][] {
  const middleware = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...mapTileOrigins],
        connectSrc: ["'self'", ...mapTileOrigins],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | string[]) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return [...headers];
}

export default fp(
  async (app, opts: { corsOrigins: string; tls: boolean; mapTileOrigins: string }) => {
    const headers = securityHeaders(
      opts.tls,
      opts.mapTileOrigins
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    );
    app.addHook('onRequest', async (_request, reply) => {
      for (const [name, value] of headers) void reply.header(name, value);
    });
    const origins = opts.corsOrigins
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    await app.register(cors, {
      origin: origins.includes('*') ? true : origins.length > 0 ? origins : false,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id'],
    });
  },
  { name: 'security' },
);
