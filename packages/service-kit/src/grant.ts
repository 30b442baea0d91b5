// A caller's access to one project, decided once per request by the gateway (its access plugin) and passed to the
// services in gRPC metadata, so that they apply it instead of asking the projects service again. The grant is
// signed (HMAC-SHA256 with CONTEXT_SIGNING_SECRET, shared by the gateway and the services) and short-lived: a
// service uses it only when the signature holds, it has not expired, and it names the caller and the project of the
// call; anything else (none, forged, stale, another caller's) is ignored and the service asks the projects service,
// as a service called by another service or by a job does.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { projects, type common } from '@fieldwork/proto';
import { metrics } from './metrics.js';

export const GRANT_KEY = 'x-fieldwork-grant';
/** How long a decided grant may be used, from when the projects service answered it. */
export const GRANT_TTL_MS = 15_000;

interface GrantClaims {
  /** The caller's user, workspace and staff flag: a grant is the answer for exactly this caller. */
  u: number;
  o: number;
  s: boolean;
  /** Expiry, ms since the epoch. */
  e: number;
  /** The ProjectAccess message, base64. */
  a: string;
}

const b64url = (b: Buffer) => b.toString('base64url');
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest();

/** The grant for `caller` as metadata: `decidedAt` is when the projects service answered. */
export function signGrant(
  secret: string,
  caller: common.Caller,
  access: projects.ProjectAccess,
  decidedAt: number,
): string {
  const claims: GrantClaims = {
    u: caller.user_id,
    o: caller.organization_id,
    s: caller.is_staff,
    e: decidedAt + GRANT_TTL_MS,
    a: Buffer.from(projects.ProjectAccess.encode(access).finish()).toString('base64'),
  };
  const payload = b64url(Buffer.from(JSON.stringify(claims)));
  return `${payload}.${b64url(mac(secret, payload))}`;
}

/**
 * The project access a call carries for `caller` and `projectId`, or undefined (no grant, a bad signature, expired,
 * or decided for another caller or project). Never throws: an unusable grant is only not used.
 */
export function grantOf(
  secret: string,
  metadata: Metadata | undefined,
  caller: common.Caller | undefined,
  projectId: number,
  now = Date.now(),
): projects.ProjectAccess | undefined {
  if (!secret || !metadata || !caller || caller.user_id <= 0) return undefined;
  const token = metadata.get(GRANT_KEY)[0];
  if (typeof token !== 'string') return undefined;
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as GrantClaims;
    if (
      claims.e < now ||
      claims.u !== caller.user_id ||
      claims.o !== caller.organization_id ||
      claims.s !== caller.is_staff
    )
      return undefined;
    const access = projects.ProjectAccess.decode(Buffer.from(claims.a, 'base64'));
    return access.project_id === projectId ? access : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A service's view of a project's access: the call's grant when it carries a usable one, else the projects
 * service's answer (`ask`), counted by source in fieldwork_project_access_total.
 */
export async function projectAccess(
  secret: string,
  metadata: Metadata | undefined,
  caller: common.Caller | undefined,
  projectId: number,
  ask: () => Promise<projects.ProjectAccess>,
): Promise<projects.ProjectAccess> {
  const granted = grantOf(secret, metadata, caller, projectId);
  metrics.projectAccess.inc({ source: granted ? 'grant' : 'asked' });
  return granted ?? ask();
}
