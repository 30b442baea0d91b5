// /healthz: the process is up. /readyz: every service answers SERVING (each checks its own PostgreSQL and NATS).
import type { FastifyInstance } from 'fastify';
import { SERVICE_NAMES, type Clients } from '../clients.js';

export default async function healthRoutes(app: FastifyInstance, opts: { clients: Clients }) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const statuses = await Promise.all(SERVICE_NAMES.map((n) => opts.clients.health[n](1500)));
    const services = Object.fromEntries(SERVICE_NAMES.map((n, i) => [n, statuses[i]]));
    const ready = statuses.every((s) => s === 'SERVING');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', services });
  });
}
