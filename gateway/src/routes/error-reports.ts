// Error reports from the web app (spec 001 §3 Error report): logged with a reference, no login needed.
import type { FastifyInstance } from 'fastify';
import { bodies, errorReportReply } from '../schemas.js';
import { limit } from './util.js';

export default async function errorReportRoutes(app: FastifyInstance) {
  app.post<{ Body: Record<string, unknown> }>(
    '/api/error-reports/',
    {
      config: limit(app, 'reports'),
      schema: { tags: ['errors'], body: bodies.errorReport, response: { 202: errorReportReply } },
    },
    async (request, reply) => {
      const b = request.body;
      request.log.warn(
        {
          report: {
            hashId: b.hashId,
            message: b.message,
            stack: b.stack,
            location: b.location,
            severity: b.severity,
            userAgent: b.userAgent,
          },
        },
        'client error report',
      );
      return reply
        .status(202)
        .send({ reference: typeof b.hashId === 'string' && b.hashId !== '' ? b.hashId : request.id });
    },
  );
}
