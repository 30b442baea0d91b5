// Every failure becomes the spec's body: problems as they are, schema errors as field errors, the rest a 500
// with the request id as its reference (logged with the error; never a stack trace to the client).
import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { isProblem, problems } from '@fieldwork/service-kit/problems';
import { problemToHttp, validationToProblem } from '../../errors.js';

/** Seconds a 503 asks a client to wait before trying again. */
export const RETRY_AFTER_S = 5;
const WORKSPACE_CONVERSIONS_BUSY = problems.workspaceConversionsBusy().code;

export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      let problem;
      if (isProblem(error)) problem = error;
      else if (error.validation) problem = validationToProblem(error.validation, error.validationContext ?? 'body');
      else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') problem = problems.payloadTooLarge();
      else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        problem = problems.invalid('Unsupported content type: send JSON.');
      else if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.statusCode === 400) {
        problem = problems.invalid(
          error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Empty JSON body.' : 'Malformed request.',
        );
      } else if (error.statusCode === 429) problem = problems.rateLimited();
      else problem = problems.internal();

      if (problem.status >= 500) request.log.error({ err: error.cause ?? error }, 'request failed');
      else request.log.info({ code: problem.code }, 'request refused');
      const { status, body } = problemToHttp(problem, request.id);
      // A service that is busy or restarting: tell clients when to come back (RFC 9110 §10.2.3) instead of at once.
      // A workspace over its share of the form conversions may come back as soon as one of them ends.
      if ((status === 503 || problem.code === WORKSPACE_CONVERSIONS_BUSY) && !reply.hasHeader('retry-after'))
        void reply.header('retry-after', String(RETRY_AFTER_S));
      void reply.status(status).send(body);
    });
  },
  { name: 'errors' },
);
