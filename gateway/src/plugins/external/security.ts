// Security headers (helmet: CSP, frame-ancestors, HSTS only behind TLS) and CORS for configured origins only.
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

export default fp(
  async (app, opts: { corsOrigins: string; tls: boolean }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'"],
          workerSrc: ["'self'", 'blob:'],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      hsts: opts.tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    });
    const origins = opts.corsOrigins.split(',').map((o) => o.trim()).filter(Boolean);
    await app.register(cors, {
      origin: origins.includes('*') ? true : origins.length > 0 ? origins : false,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id'],
    });
  },
  { name: 'security' },
);
