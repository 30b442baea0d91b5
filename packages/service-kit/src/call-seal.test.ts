import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { common } from '@fieldwork/proto';
import { CALL_SEAL_KEY, CALL_SEAL_TTL_MS, CallSealer, callIsSealed, sealCall } from './call-seal.js';

const secret = 'a-context-signing-secret-of-32-characters!';
const method = '/fieldwork.responses.v1.ResponsesService/GetOne';
const request = { caller: common.Caller.fromPartial({ user_id: 7, organization_id: 3 }), project_id: 42 };
const carrying = (seal: string) => {
  const md = new Metadata();
  md.set(CALL_SEAL_KEY, seal);
  return md;
};

describe('call seals', () => {
  it('holds for its method and caller until it expires', () => {
    const now = 1_000_000;
    const md = carrying(sealCall(secret, method, request, now));
    expect(callIsSealed(secret, method, md, request, now)).toBe(true);
    expect(callIsSealed(secret, method, md, request, now + CALL_SEAL_TTL_MS)).toBe(true);
    expect(callIsSealed(secret, method, md, request, now + CALL_SEAL_TTL_MS + 1)).toBe(false);
  });

  it('binds the caller, not the rest of the message, and a caller given partially is the same caller', () => {
    const md = carrying(sealCall(secret, method, { caller: { user_id: 7, organization_id: 3 } }));
    expect(callIsSealed(secret, method, md, { ...request, project_id: 43 })).toBe(true);
    for (const caller of [
      { user_id: 8, organization_id: 3 },
      { user_id: 7, organization_id: 4 },
      { user_id: 7, organization_id: 3, is_staff: true },
      { user_id: 7, organization_id: 3, collect_project_id: 1 },
    ])
      expect(callIsSealed(secret, method, md, { caller: common.Caller.fromPartial(caller) })).toBe(false);
    // A call naming no caller is sealed as such: adding one breaks it.
    const none = carrying(sealCall(secret, method, { project_id: 1 }));
    expect(callIsSealed(secret, method, none, { project_id: 1 })).toBe(true);
    expect(callIsSealed(secret, method, none, request)).toBe(false);
  });

  it('refuses another method, another key, a missing, garbled or far-future seal', () => {
    const now = 5_000_000;
    const seal = sealCall(secret, method, request, now);
    expect(callIsSealed(secret, `${method}x`, carrying(seal), request, now)).toBe(false);
    expect(callIsSealed(`${secret}x`, method, carrying(seal), request, now)).toBe(false);
    expect(callIsSealed(secret, method, new Metadata(), request, now)).toBe(false);
    for (const bad of ['', 'garbage', '.', `${now + 1000}.`, `x.${seal.split('.')[1]}`, `${seal}x`])
      expect(callIsSealed(secret, method, carrying(bad), request, now), bad).toBe(false);
    // The expiry is signed: moving it breaks the seal; a seal made to outlive any real one is refused.
    const [, mac] = seal.split('.');
    expect(callIsSealed(secret, method, carrying(`${now + CALL_SEAL_TTL_MS + 5}.${mac}`), request, now)).toBe(false);
    const far = sealCall(secret, method, request, now + 10 * CALL_SEAL_TTL_MS);
    expect(callIsSealed(secret, method, carrying(far), request, now)).toBe(false);
  });
});

describe('a process sealing its calls', () => {
  it('reuses a seal of the same method and caller for half its life, then makes a new one', () => {
    const sealer = new CallSealer(secret);
    const now = 2_000_000;
    const first = sealer.seal(method, request, now);
    expect(sealer.seal(method, { ...request, project_id: 9 }, now + CALL_SEAL_TTL_MS / 2 - 1)).toBe(first);
    expect(sealer.seal(method, { caller: { ...request.caller, user_id: 8 } }, now)).not.toBe(first);
    expect(sealer.seal(`${method}x`, request, now)).not.toBe(first);
    const later = sealer.seal(method, request, now + CALL_SEAL_TTL_MS / 2);
    expect(later).not.toBe(first);
    // Every seal it hands out still holds for at least half its life when it is used.
    expect(callIsSealed(secret, method, carrying(first), request, now + CALL_SEAL_TTL_MS / 2 - 1)).toBe(true);
    expect(callIsSealed(secret, method, carrying(later), request, now + CALL_SEAL_TTL_MS)).toBe(true);
  });
});
