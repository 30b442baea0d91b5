// Every gRPC call between our processes is sealed: the calling process (the gateway, a service, a job, the CLI)
// signs the call's method and the caller it names with CONTEXT_SIGNING_SECRET, and the called service refuses, before
// any handler runs, a call whose seal is missing, wrong, expired or made for another method or caller. So a process
// that can reach a service's port but does not hold the deployment's secret can neither name itself someone else
// (a forged `caller`) nor call the internal methods (an export's pages, a form's document) at all. The project grant
// (grant.ts) rides on top: it says what the sealed caller may do in one project.
//
// A seal is `<expiry ms>.<HMAC-SHA256(secret, method \n expiry \n Caller bytes)>`, valid for CALL_SEAL_TTL_MS from
// when it was made: long enough for a deadline and the clock skew between pods, short enough that a seal seen on the
// wire is soon worthless. The caller is bound by its canonical protobuf encoding (an empty caller for calls that name
// none), so a changed field breaks the seal.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { common } from '@fieldwork/proto';

export const CALL_SEAL_KEY = 'x-fieldwork-seal';
/** How long a seal may be used after it was made. */
export const CALL_SEAL_TTL_MS = 60_000;

const EMPTY = new Uint8Array(0);

/** The canonical bytes of a request's caller (none: empty). */
function callerBytes(request: unknown): Uint8Array {
  const caller = (request as { caller?: common.Caller } | null | undefined)?.caller;
  return caller ? common.Caller.encode(common.Caller.fromPartial(caller)).finish() : EMPTY;
}

function mac(secret: string, method: string, expiry: number, request: unknown): Buffer {
  return createHmac('sha256', secret).update(`${method}\n${expiry}\n`).update(callerBytes(request)).digest();
}

/** The seal of a call of `method` (its gRPC path) with `request`, made at `now`. */
export function sealCall(secret: string, method: string, request: unknown, now = Date.now()): string {
  const expiry = now + CALL_SEAL_TTL_MS;
  return `${expiry}.${mac(secret, method, expiry, request).toString('base64url')}`;
}

/**
 * Seals calls for one process, reusing a seal of the same method and caller for the first half of its life (an HMAC
 * per call cost the gateway about 3% of its CPU on a project read): a seal reaches its service with at least
 * CALL_SEAL_TTL_MS / 2 left. At most 10,000 seals are kept.
 */
export class CallSealer {
  private readonly kept = new Map<string, { seal: string; reuseUntil: number }>();

  constructor(private readonly secret: string) {}

  seal(method: string, request: unknown, now = Date.now()): string {
    const key = `${method}\n${Buffer.from(callerBytes(request)).toString('latin1')}`;
    const hit = this.kept.get(key);
    if (hit && now < hit.reuseUntil) return hit.seal;
    const seal = sealCall(this.secret, method, request, now);
    if (this.kept.size >= 10_000) this.kept.clear();
    this.kept.set(key, { seal, reuseUntil: now + CALL_SEAL_TTL_MS / 2 });
    return seal;
  }
}

/** Whether the call's metadata carries a valid seal for `method` and the caller `request` names. Never throws. */
export function callIsSealed(
  secret: string,
  method: string,
  metadata: Metadata,
  request: unknown,
  now = Date.now(),
): boolean {
  const seal = metadata.get(CALL_SEAL_KEY)[0];
  if (typeof seal !== 'string') return false;
  const dot = seal.indexOf('.');
  if (dot <= 0 || dot > 16) return false;
  const expiry = Number(seal.slice(0, dot));
  // Expired, or made to last longer than any seal does (a clock far ahead is not trusted either).
  if (!Number.isSafeInteger(expiry) || expiry < now || expiry > now + 2 * CALL_SEAL_TTL_MS) return false;
  const given = Buffer.from(seal.slice(dot + 1), 'base64url');
  try {
    const expected = mac(secret, method, expiry, request);
    return given.length === expected.length && timingSafeEqual(given, expected);
  } catch {
    return false;
  }
}
