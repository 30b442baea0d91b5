import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { common, projects } from '@fieldwork/proto';
import { GRANT_KEY, GRANT_TTL_MS, grantOf, signGrant } from './grant.js';

const secret = 'a-context-signing-secret-of-32-characters!';
const caller = common.Caller.fromPartial({ user_id: 7, organization_id: 3 });
const access = projects.ProjectAccess.fromPartial({
  project_id: 42,
  organization_id: 3,
  screens: ['results', 'home'],
  actions: ['collect'],
  read_sites: [5, 6],
});
const carrying = (token: string) => {
  const md = new Metadata();
  md.set(GRANT_KEY, token);
  return md;
};

describe('project grants', () => {
  it('answers the signed access for its caller and project until it expires', () => {
    const now = 1_000_000;
    const md = carrying(signGrant(secret, caller, access, now));
    expect(grantOf(secret, md, caller, 42, now + 1)).toEqual(access);
    expect(grantOf(secret, md, caller, 42, now + GRANT_TTL_MS - 1)).toEqual(access);
    expect(grantOf(secret, md, caller, 42, now + GRANT_TTL_MS + 1)).toBeUndefined();
  });

  it('is not used for another project, caller, workspace or staff flag, nor by an anonymous caller', () => {
    const now = Date.now();
    const md = carrying(signGrant(secret, caller, access, now));
    expect(grantOf(secret, md, caller, 43, now)).toBeUndefined();
    expect(grantOf(secret, md, { ...caller, user_id: 8 }, 42, now)).toBeUndefined();
    expect(grantOf(secret, md, { ...caller, organization_id: 4 }, 42, now)).toBeUndefined();
    expect(grantOf(secret, md, { ...caller, is_staff: true }, 42, now)).toBeUndefined();
    expect(grantOf(secret, md, { ...caller, user_id: 0, collect_project_id: 42 }, 42, now)).toBeUndefined();
  });

  it('ignores forged, tampered, foreign-key and malformed grants', () => {
    const now = Date.now();
    const token = signGrant(secret, caller, access, now);
    const [payload, sig] = token.split('.') as [string, string];
    // More screens, same signature.
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const wider = projects.ProjectAccess.fromPartial({ ...access, screens: ['results', 'export', 'form'] });
    const forged = Buffer.from(
      JSON.stringify({ ...claims, a: Buffer.from(projects.ProjectAccess.encode(wider).finish()).toString('base64') }),
    ).toString('base64url');
    expect(grantOf(secret, carrying(`${forged}.${sig}`), caller, 42, now)).toBeUndefined();
    expect(
      grantOf(
        secret,
        carrying(signGrant('another-secret-of-at-least-32-characters', caller, access, now)),
        caller,
        42,
        now,
      ),
    ).toBeUndefined();
    for (const bad of ['', '.', 'abc', `${payload}.`, `.${sig}`, `${payload}.${sig}x`, `!!!.${sig}`])
      expect(grantOf(secret, carrying(bad), caller, 42, now), bad).toBeUndefined();
    // No secret configured: no grant is ever used.
    expect(grantOf('', carrying(token), caller, 42, now)).toBeUndefined();
    expect(grantOf(secret, new Metadata(), caller, 42, now)).toBeUndefined();
  });
});
