// The one place where problems become gRPC statuses and gRPC statuses become problems.
import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { Problem, problems, type FieldErrors } from './problems.js';

/** Metadata key carrying a problem's code and field errors across a gRPC hop. */
export const PROBLEM_METADATA_KEY = 'fw-problem';

const STATUS_BY_HTTP: Record<number, status> = {
  400: status.INVALID_ARGUMENT,
  401: status.UNAUTHENTICATED,
  403: status.PERMISSION_DENIED,
  404: status.NOT_FOUND,
  409: status.ALREADY_EXISTS,
  412: status.FAILED_PRECONDITION,
  413: status.RESOURCE_EXHAUSTED,
  429: status.RESOURCE_EXHAUSTED,
  501: status.UNIMPLEMENTED,
  503: status.UNAVAILABLE,
  504: status.DEADLINE_EXCEEDED,
};

/** grpc-gateway's table: the HTTP status a gRPC status maps to. */
export function httpStatusOf(code: status): number {
  switch (code) {
    case status.OK:
      return 200;
    case status.INVALID_ARGUMENT:
    case status.FAILED_PRECONDITION:
    case status.OUT_OF_RANGE:
      return 400;
    case status.UNAUTHENTICATED:
      return 401;
    case status.PERMISSION_DENIED:
      return 403;
    case status.NOT_FOUND:
      return 404;
    case status.ALREADY_EXISTS:
    case status.ABORTED:
      return 409;
    case status.RESOURCE_EXHAUSTED:
      return 429;
    case status.UNIMPLEMENTED:
      return 501;
    case status.UNAVAILABLE:
      return 503;
    case status.DEADLINE_EXCEEDED:
      return 504;
    default:
      return 500;
  }
}

/** Turns a problem into the status object a gRPC handler answers with. */
export function problemToStatus(problem: Problem): Partial<StatusObject> {
  const metadata = new Metadata();
  metadata.set(PROBLEM_METADATA_KEY, JSON.stringify({ code: problem.code, fields: problem.fields }));
  return {
    code: STATUS_BY_HTTP[problem.status] ?? status.INTERNAL,
    details: problem.message,
    metadata,
  };
}

/**
 * Turns a failed call into a problem: the service's own problem when it sent one, otherwise a generic problem
 * for the status (never the raw details of an unexpected failure, which may leak internals).
 */
export function statusToProblem(err: ServiceError): Problem {
  const raw = err.metadata?.get(PROBLEM_METADATA_KEY)[0];
  if (raw !== undefined) {
    try {
      const { code, fields } = JSON.parse(raw.toString()) as { code: string; fields?: FieldErrors };
      return new Problem(code, err.details, fields, { cause: err });
    } catch {
      // fall through to the generic mapping
    }
  }
  switch (httpStatusOf(err.code)) {
    case 503:
      return problems.unavailable();
    case 504:
      return problems.timeout();
    default:
      return new Problem('500.1', problems.internal().message, undefined, { cause: err });
  }
}

/** True when `err` is a gRPC failure (has a numeric status code and details). */
export function isServiceError(err: unknown): err is ServiceError {
  return typeof err === 'object' && err !== null && 'code' in err && 'details' in err && 'metadata' in err;
}
