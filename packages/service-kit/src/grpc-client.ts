// Typed promise clients over the ts-proto grpc-js stubs, with deadlines, request ids and problem mapping.
import {
  credentials,
  Metadata,
  type CallOptions,
  type Client,
  type ClientOptions,
  type ClientUnaryCall,
  type ServiceError,
  type ChannelCredentials,
  type MethodDefinition,
} from '@grpc/grpc-js';
import { GRPC_MAX_MESSAGE_BYTES, REQUEST_ID_KEY } from './grpc-server.js';
import { readProblemReply, statusToProblem, type ProblemDetail } from './grpc-status.js';
import { CALL_SEAL_KEY, CallSealer } from './call-seal.js';

/** Per-call options. */
export interface CallMeta {
  requestId?: string;
  /** Milliseconds; defaults to the client's default. */
  timeoutMs?: number;
  /** Extra metadata (e.g. trace context). */
  headers?: Record<string, string>;
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** The promise form of a ts-proto client `C` for the methods its service definition `D` declares. */
export type PromiseClient<D, C> = {
  [K in keyof D & keyof C]: C[K] extends UnaryMethod<infer Req, infer Res>
    ? (req: Req, meta?: CallMeta) => Promise<Res>
    : never;
} & { close(): void; raw: C };

type ClientCtor<C> = {
  new (address: string, creds: ChannelCredentials, options?: Partial<ClientOptions>): C;
  service: object;
};

/**
 * Opens one long-lived channel to `address` and returns promise methods. A refused call rejects with a Problem
 * (the service's own, or a generic one for the status).
 */
export function createClient<D extends object, C extends Client>(
  Ctor: ClientCtor<C> & { service: D },
  address: string,
  options: {
    defaultTimeoutMs?: number;
    clientOptions?: Partial<ClientOptions>;
    /** CONTEXT_SIGNING_SECRET: every call is sealed with it (call-seal.ts); none, calls go unsealed. */
    secret?: string;
  } = {},
): PromiseClient<D, C> {
  const client = new Ctor(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    // Retry transparently while a service restarts, and reconnect to a restarted one within 2 s (grpc-js backs off
    // up to 120 s by default: calls of a caller whose channel is in backoff fail long after the service is back).
    'grpc.enable_retries': 1,
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 2000,
    // A reply may hold a whole form (at most FORM_MAX_BYTES of packages/sampler); grpc-js refuses replies over 4 MiB.
    'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES,
    // Spread calls over every address the target resolves to (a headless Service's pods, or an ipv4:a,b list of
    // replicas) instead of pinning one connection.
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    ...options.clientOptions,
  });
  const defaultTimeout = options.defaultTimeoutMs ?? 15_000;
  const sealer = options.secret ? new CallSealer(options.secret) : undefined;
  const out: Record<string, unknown> = { close: () => client.close(), raw: client };
  for (const [name, def] of Object.entries(Ctor.service as Record<string, MethodDefinition<unknown, unknown>>)) {
    out[name] = (req: unknown, meta: CallMeta = {}) =>
      new Promise((resolve, reject) => {
        const md = new Metadata();
        if (meta.requestId !== undefined) md.set(REQUEST_ID_KEY, meta.requestId);
        for (const [k, v] of Object.entries(meta.headers ?? {})) md.set(k, v);
        if (sealer) md.set(CALL_SEAL_KEY, sealer.seal(def.path, req));
        const deadline = new Date(Date.now() + (meta.timeoutMs ?? defaultTimeout));
        // A refusal's detail comes as a reply message before its status (grpc-status.ts): kept for this call.
        let detail: ProblemDetail | undefined;
        const deserialize = (bytes: Buffer) => {
          detail = readProblemReply(bytes);
          return detail === undefined ? def.responseDeserialize(bytes) : {};
        };
        client.makeUnaryRequest(def.path, def.requestSerialize, deserialize, req, md, { deadline }, (err, res) =>
          err ? reject(statusToProblem(err, detail)) : resolve(res),
        );
      });
  }
  return out as PromiseClient<D, C>;
}
