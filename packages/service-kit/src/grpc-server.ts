// Boots a gRPC server: typed async handlers, problems mapped to statuses, request ids from metadata,
// grpc.health.v1, and a shutdown that drains in-flight calls.
import { randomUUID } from 'node:crypto';
import {
  Server,
  ServerCredentials,
  status as grpcStatus,
  type Metadata,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type sendUnaryData,
  type handleUnaryCall,
} from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import type { Logger } from './logger.js';
import { isProblem, problems, type Problem } from './problems.js';
import { ProblemReply, problemReply, problemToStatus } from './grpc-status.js';
import { metrics } from './metrics.js';
import { TRACEPARENT, childTrace, formatTraceparent, parseTraceparent } from './trace.js';
import { callIsSealed } from './call-seal.js';

/** Metadata key of the request id, set by the gateway and passed along every hop. */
export const REQUEST_ID_KEY = 'x-request-id';
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** What a handler knows about the call besides its request. */
export interface CallContext {
  requestId: string;
  log: Logger;
  metadata: Metadata;
  /** Metadata for the calls this one makes: the trace context, continued (trace.ts). */
  headers: Record<string, string>;
  /** Aborted when the caller cancels the call or its deadline passes: long work should stop then. */
  signal: AbortSignal;
}

/** The async form of a ts-proto generated server interface. */
export type AsyncHandlers<S> = {
  [K in keyof S as string extends K ? never : K]: S[K] extends handleUnaryCall<infer Req, infer Res>
    ? (req: Req, ctx: CallContext) => Promise<Res>
    : never;
};

export function requestIdOf(metadata: Metadata): string {
  const value = metadata.get(REQUEST_ID_KEY)[0]?.toString();
  return value !== undefined && REQUEST_ID_PATTERN.test(value) ? value : randomUUID();
}

/**
 * Adapts async handlers to grpc-js: a thrown Problem becomes its status, anything else is logged with the
 * request id and answered as INTERNAL with a generic message.
 */
export function implement<S>(
  definition: ServiceDefinition,
  handlers: AsyncHandlers<S>,
  log: Logger,
): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = (handlers as Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>>)[name];
    if (handler === undefined) throw new Error(`no handler for ${method.path}`);
    impl[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const requestId = requestIdOf(call.metadata);
      const trace = childTrace(parseTraceparent(call.metadata.get(TRACEPARENT)[0]?.toString()));
      const cancelled = new AbortController();
      // grpc-js also says 'cancelled' when a call that was answered closes: only a call still running is aborted
      // (an abort builds a DOMException, 1.5% of the responses service under load when every call made one).
      let answered = false;
      call.once('cancelled', () => answered || cancelled.abort());
      const ctx: CallContext = {
        requestId,
        log: log.child({ reqId: requestId, traceId: trace.traceId }),
        metadata: call.metadata,
        headers: { [TRACEPARENT]: formatTraceparent(trace) },
        signal: cancelled.signal,
      };
      const started = performance.now();
      const done = (code: string) => {
        answered = true;
        metrics.grpcRequests.inc({ method: method.path, code });
        metrics.grpcDuration.observe({ method: method.path }, (performance.now() - started) / 1000);
      };
      handler(call.request, ctx).then(
        (reply) => {
          ctx.log.debug({ rpc: method.path, ms: Math.round(performance.now() - started) }, 'rpc ok');
          done('OK');
          callback(null, reply);
        },
        (err: unknown) => {
          const problem = isProblem(err) ? err : problems.internal();
          const status = problemToStatus(problem);
          done(grpcStatus[status.code ?? grpcStatus.UNKNOWN] ?? 'UNKNOWN');
          if (isProblem(err)) ctx.log.debug({ rpc: method.path, code: err.code }, 'rpc refused');
          else ctx.log.error({ err, rpc: method.path }, 'rpc failed');
          refuse(call, callback, problem, status);
        },
      );
    };
  }
  return impl;
}

/**
 * Answers a call with a problem: its code and field errors go in a reply message, then the status
 * (grpc-status.ts), never in the trailers. A unary call's stream takes one message before its status.
 */
function refuse(
  call: ServerUnaryCall<unknown, unknown>,
  callback: sendUnaryData<unknown>,
  problem: Problem,
  status = problemToStatus(problem),
): void {
  const stream = call as unknown as { write?: (chunk: unknown, cb: (error?: Error | null) => void) => boolean };
  if (typeof stream.write !== 'function' || call.cancelled) {
    callback(status);
    return;
  }
  stream.write(problemReply(problem), () => callback(status));
}

/**
 * The implementation behind a check of each call's seal (call-seal.ts): an unsealed call, or one sealed for another
 * method or caller, is refused as unauthenticated before its handler runs, and counted.
 */
function sealed(
  definition: ServiceDefinition,
  implementation: UntypedServiceImplementation,
  secret: string,
  log: Logger,
): UntypedServiceImplementation {
  const out: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = implementation[name] as handleUnaryCall<unknown, unknown>;
    out[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      if (callIsSealed(secret, method.path, call.metadata, call.request)) return handler(call, callback);
      metrics.grpcRequests.inc({ method: method.path, code: 'UNSEALED' });
      log.warn({ rpc: method.path, peer: call.getPeer() }, 'call refused: not sealed with the deployment secret');
      refuse(call, callback, problems.notAuthenticated());
    };
  }
  return out;
}

/** The definition with reply serializers that send a ProblemReply's bytes as they are (see implement). */
function withProblemReplies(definition: ServiceDefinition): ServiceDefinition {
  const out: Record<string, ServiceDefinition[string]> = {};
  for (const [name, method] of Object.entries(definition)) {
    const serialize = method.responseSerialize;
    out[name] = {
      ...method,
      responseSerialize: (value: unknown) => (value instanceof ProblemReply ? value.bytes : serialize(value)),
    };
  }
  return out as ServiceDefinition;
}

export interface GrpcServiceRegistration {
  /** Fully qualified name, e.g. fieldwork.auth.v1.AuthService (used for its health status). */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface RunningGrpcServer {
  server: Server;
  port: number;
  health: HealthImplementation;
  /** Marks every service SERVING or NOT_SERVING. */
  setServing(serving: boolean): void;
  /** Stops accepting calls, lets in-flight calls finish for up to `timeoutMs`, then cancels the rest. */
  shutdown(timeoutMs: number): Promise<void>;
}

/**
 * Most bytes of one gRPC message between our processes, either way: room for a whole form (FORM_MAX_BYTES, 16 MiB)
 * and for an upload a gateway without an object store sends whole (50 MB). grpc-js's own default is 4 MiB.
 */
export const GRPC_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export async function startGrpcServer(options: {
  host: string;
  port: number;
  services: GrpcServiceRegistration[];
  log: Logger;
  /** CONTEXT_SIGNING_SECRET: every call must be sealed with it (call-seal.ts); none, calls are not checked. */
  secret?: string;
}): Promise<RunningGrpcServer> {
  const { log } = options;
  const server = new Server({ 'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES });
  const names = ['', ...options.services.map((s) => s.name)];
  // NOT_SERVING until the caller has finished starting up and says otherwise.
  const health = new HealthImplementation(Object.fromEntries(names.map((n) => [n, 'NOT_SERVING' as ServingStatus])));
  health.addToServer(server);
  for (const s of options.services) {
    // A service whose calls arrive with a later issue has no methods yet; grpc-js refuses an empty service.
    if (Object.keys(s.definition).length === 0) continue;
    const implementation = options.secret
      ? sealed(s.definition, s.implementation, options.secret, log)
      : s.implementation;
    server.addService(withProblemReplies(s.definition), implementation);
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    );
  });
  log.info({ host: options.host, port }, 'grpc listening');

  const setServing = (serving: boolean) => {
    for (const n of names) health.setStatus(n, serving ? 'SERVING' : 'NOT_SERVING');
  };

  return {
    server,
    port,
    health,
    setServing,
    shutdown: (timeoutMs) =>
      new Promise<void>((resolve) => {
        setServing(false);
        const timer = setTimeout(() => {
          log.warn('in-flight calls did not finish in time; cancelling them');
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
