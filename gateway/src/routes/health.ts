// /healthz: the process is up. /readyz: every service answers SERVING (each checks its own PostgreSQL and NATS).
// Both are the orchestrator's probes (the Helm chart's liveness and readiness), not calls of the API: they are
// declared like every route but hidden from the OpenAPI document, so the web app's generated types leave them out.
import type { FastifyInstance } from 'fastify';
import { SERVICE_NAMES, type Clients } from '../clients.js';

const liveReply = { type: 'object', properties: { status: { type: 'string', enum: ['ok'] } } } as const;
const readyReply = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'not ready'] },
    services: { type: 'object', additionalProperties: { type: 'string' }, description: 'Each service: its status' },
  },
} as const;

export default async function healthRoutes(app: FastifyInstance, opts: { clients: Clients }) {
  app.get('/healthz', { schema: { hide: true, response: { 200: liveReply } } }, async () => ({ status: 'ok' }));
  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: readyReply, 503: readyReply } } },
    async (_request, reply) => {
      const statuses = await Promise.all(SERVICE_NAMES.map((n) => opts.clients.health[n](1500)));
      const services = Object.fromEntries(SERVICE_NAMES.map((n, i) => [n, statuses[i]]));
      const ready = statuses.every((s) => s === 'SERVING');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', services });
    },
  );
}
