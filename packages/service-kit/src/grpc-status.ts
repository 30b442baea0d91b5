// The one place where problems become gRPC statuses and gRPC statuses become problems.
//
// A refused call answers with a gRPC status (code, and the problem's message as its details) and, before it, one
// reply message that carries the problem's code and field errors. The detail never travels in metadata: HTTP/2
// headers and trailers are limited (Node refuses a header list over 64 KiB) and a trailer over the limit left the
// caller waiting for its deadline while the connection's other calls failed with it. The reply message is encoded as
// one length-delimited field of the highest number protobuf allows, which no message of ours uses, so a plain client
// (grpcurl, k6) decodes it as an empty reply and then sees the status; our clients (grpc-client.ts) read the problem.
import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { Problem, problems, type FieldErrors } from './problems.js';

/** The protobuf field number of the problem in a refused call's reply message (2^29 - 1, the highest). */
export const PROBLEM_FIELD = 536_870_911;
/** Its tag, (field << 3) | 2 (length-delimited), as a varint. */
const PROBLEM_TAG = varint(PROBLEM_FIELD * 8 + 2);

/** A problem's code and fields, as carried in a refused call's reply message. */
export interface ProblemDetail {
  code: string;
  fields?: FieldErrors;
}

/** What a handler answers before a refusal's status: serialized as is (grpc-server.ts wraps the serializers). */
export class ProblemReply {
  constructor(readonly bytes: Buffer) {}
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 127) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

/** The reply message carrying a problem's code and (already bounded) field errors. */
export function problemReply(problem: Problem): ProblemReply {
  const json = Buffer.from(JSON.stringify({ code: problem.code, fields: problem.fields } satisfies ProblemDetail));
  return new ProblemReply(Buffer.concat([PROBLEM_TAG, varint(json.length), json]));
}

/** The problem detail of a reply message, or undefined when it is an ordinary reply. */
export function readProblemReply(bytes: Buffer): ProblemDetail | undefined {
  if (bytes.length <= PROBLEM_TAG.length || !bytes.subarray(0, PROBLEM_TAG.length).equals(PROBLEM_TAG))
    return undefined;
  let length = 0;
  let scale = 1;
  let i = PROBLEM_TAG.length;
  for (; i < bytes.length && i < PROBLEM_TAG.length + 5; i++) {
    length += (bytes[i]! & 127) * scale;
    scale *= 128;
    if (bytes[i]! < 128) break;
  }
  const json = bytes.subarray(i + 1, i + 1 + length);
  if (json.length !== length) return undefined;
  try {
    const detail = JSON.parse(json.toString('utf8')) as ProblemDetail;
    return typeof detail.code === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}

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

/** Turns a problem into the status a gRPC handler answers with: its code and message, nothing in the trailers. */
export function problemToStatus(problem: Problem): Partial<StatusObject> {
  return {
    code: STATUS_BY_HTTP[problem.status] ?? status.INTERNAL,
    details: problem.message,
    metadata: new Metadata(),
  };
}

/**
 * Turns a failed call into a problem: the service's own problem when it sent one (its reply message, read by the
 * client), otherwise a generic problem for the status (never the raw details of an unexpected failure, which may
 * leak internals).
 */
export function statusToProblem(err: ServiceError, detail?: ProblemDetail): Problem {
  if (detail !== undefined && err.code !== status.OK) {
    return new Problem(detail.code, err.details, detail.fields, { cause: err });
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
