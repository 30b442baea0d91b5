// The auth plugin's checks, through app.inject on the whole gateway with a fake auth client and a fake revocation
// list: a revoked session's access token, a revoked API key (even cached), an API key off the data routes, and share
// links issued before their sharer's credentials changed are all refused. (gateway/test/revocation.e2e.test.ts and
// tenancy.e2e.test.ts drive the real thing.)
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { common } from '@fieldwork/proto';
import { createLogger, type RevocationCheck } from '@fieldwork/service-kit';
import { buildGateway } from '../../app.js';
import type { Clients } from '../../clients.js';
import { apiKeyRoute } from '../../routes/util.js';

const revoked = { sessions: new Set<string>(), keys: new Set<string>(), users: new Map<number, number>() };
const revocations: RevocationCheck = {
  isSessionRevoked: (sid) => revoked.sessions.has(sid),
  isApiKeyRevoked: (prefix) => revoked.keys.has(prefix),
  sharesRevokedBeforeS: (userId) => revoked.users.get(userId) ?? 0,
};
const KEY = `fwk_0badcafe_${'a'.repeat(43)}`;
let keyLookups = 0;
let app: FastifyInstance;

beforeAll(async () => {
  const clients = {
    auth: {
      authenticateApiKey: async () => {
        keyLookups++;
        return { user_id: 5, organization_id: 3, is_staff: false, is_superuser: false, prefix: '0badcafe' };
      },
    },
  } as unknown as Clients;
  app = await buildGateway({
    clients,
    log: createLogger('gateway', 'silent'),
    revocations,
    options: {
      jwtSecret: 'x'.repeat(32),
      bodyLimit: 1024 * 1024,
      corsOrigins: '',
      webDir: '',
      tls: false,
      apiKeyCacheMs: 60_000,
    },
  });
  app.get('/api/test/me/', { preHandler: app.authenticate }, async (r) => ({ user: r.caller.user_id }));
  app.get('/api/test/data/', { preHandler: app.authenticate, config: apiKeyRoute }, async (r) => ({
    user: r.caller.user_id,
  }));
  await app.ready();
});
afterAll(() => app.close());

const access = (sid: string) =>
  app.jwt.sign({ user_id: 1, sid, is_staff: false, is_superuser: false, token_type: 'access' });
const get = (url: string, authorization: string) => app.inject({ url, headers: { authorization } });

describe('auth plugin', () => {
  it('refuses the access token of a revoked session, and only that session’s', async () => {
    const token = access('s-1');
    expect((await get('/api/test/me/', `JWT ${token}`)).statusCode).toBe(200);
    revoked.sessions.add('s-1');
    const r = await get('/api/test/me/', `JWT ${token}`);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ detail: 'Token is invalid or expired' });
    expect((await get('/api/test/me/', `JWT ${access('s-2')}`)).statusCode).toBe(200);
  });

  it('lets an API key reach data routes only, and stops a revoked key though it is cached', async () => {
    expect((await get('/api/test/data/', `Api-Key ${KEY}`)).json()).toEqual({ user: 5 });
    const off = await get('/api/test/me/', `Api-Key ${KEY}`);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ detail: 'API keys cannot be used for this call.' });
    const before = keyLookups;
    revoked.keys.add('0badcafe');
    expect((await get('/api/test/data/', `Api-Key ${KEY}`)).statusCode).toBe(401);
    expect(keyLookups).toBe(before);
  });

  it('voids the share links a user issued before their credentials changed, and keeps later ones', () => {
    const caller = common.Caller.fromPartial({ user_id: 7, session_id: 's-7' });
    const item = { project_id: 1, schema_id: 2, item_id: 3, view: { filters: { site: [4] } } };
    const link = app.signItemToken(caller, item, 3600);
    expect(app.verifyItemToken(link)).toMatchObject({ ...item, caller: { user_id: 7 } });
    // A logout of the sharer's session does not touch the link.
    revoked.sessions.add('s-7');
    expect(app.verifyItemToken(link)).toMatchObject(item);
    const iat = (JSON.parse(Buffer.from(link.split('.')[1]!, 'base64url').toString()) as { iat: number }).iat;
    revoked.users.set(7, iat + 1);
    expect(() => app.verifyItemToken(link)).toThrow('Not found.');
    revoked.users.set(7, iat);
    expect(app.verifyItemToken(link)).toMatchObject(item);
  });
});
