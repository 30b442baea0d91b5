// Access tokens are verified once and then known until they expire: an expired token is refused though it was
// accepted before, a tampered one never passes, and a revoked session stops at once, known or not.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '@fieldwork/proto';
import { createLogger, type RevocationCheck } from '@fieldwork/service-kit';
import { buildGateway } from '../../app.js';
import type { Clients } from '../../clients.js';

const revoked = new Set<string>();
let app: FastifyInstance;

beforeAll(async () => {
  const clients = {
    projects: {
      getAccess: async (req: { project_id: number }) =>
        projects.ProjectAccess.fromPartial({ project_id: req.project_id, screens: ['home', 'parameters'] }),
      listSurveys: async () => ({ results: [] }),
    },
  } as unknown as Clients;
  const revocations = {
    isSessionRevoked: (sid: string) => revoked.has(sid),
    isApiKeyRevoked: () => false,
    sharesRevokedBeforeS: () => 0,
  } as unknown as RevocationCheck;
  app = await buildGateway({
    clients,
    revocations,
    log: createLogger('gateway', 'silent'),
    options: { jwtSecret: 'x'.repeat(32), bodyLimit: 1024 * 1024, corsOrigins: '', webDir: '', tls: false },
  });
  await app.ready();
});
afterAll(() => app.close());

const get = (token: string) =>
  app.inject({ url: '/api/project/3/surveys/', headers: { authorization: `JWT ${token}` } });
const sign = (user: number, sid: string, expiresIn: number) =>
  app.jwt.sign({ user_id: user, sid, is_staff: false, is_superuser: false, token_type: 'access' }, { expiresIn });

describe('access tokens', () => {
  it('refuses a token once it expires, though it was accepted before', async () => {
    const token = sign(7, 's-7', 1);
    expect((await get(token)).statusCode).toBe(200);
    expect((await get(token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await get(token)).statusCode).toBe(401);
  });

  it('never lets a tampered token through, and stops a revoked session at once', async () => {
    const token = sign(8, 's-8', 600);
    expect((await get(token)).statusCode).toBe(200);
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, user_id: 1 })).toString('base64url')}.${s}`;
    expect((await get(forged)).statusCode).toBe(401);
    revoked.add('s-8');
    expect((await get(token)).statusCode).toBe(401);
  });
});
