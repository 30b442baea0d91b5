// Trace context across the gateway and the services, in the W3C Trace Context format that OpenTelemetry uses
// (`traceparent: 00-<trace id>-<span id>-<flags>`): the gateway takes the caller's or starts one, each gRPC hop
// continues it with a new span id, and every log line of a call carries the trace id, so one request can be followed
// through the logs (and through a tracing backend, should one be added). Only the header is handled here; no spans
// are recorded.
import { randomFillSync } from 'node:crypto';

export const TRACEPARENT = 'traceparent';
const FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface TraceContext {
  traceId: string;
  spanId: string;
  flags: string;
}

/** The trace context of a traceparent header, or undefined when it is absent or malformed (all-zero ids too). */
export function parseTraceparent(header: string | undefined): TraceContext | undefined {
  const m = FORMAT.exec((header ?? '').trim().toLowerCase());
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return undefined;
  return { traceId: m[1]!, spanId: m[2]!, flags: m[3]! };
}

// Random ids from a pool filled 4 KiB at a time: a randomBytes call per id cost the gateway about 2% of its CPU on a
// project read (two per request). Ids are never reused: each takes the next unread bytes of the pool.
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString('hex', used - bytes, used);
}

/** A child of `parent` (same trace, new span id), or the root of a new trace. */
export function childTrace(parent: TraceContext | undefined): TraceContext {
  return {
    traceId: parent?.traceId ?? randomHex(16),
    spanId: randomHex(8),
    flags: parent?.flags ?? '01',
  };
}

export const formatTraceparent = (t: TraceContext) => `00-${t.traceId}-${t.spanId}-${t.flags}`;
