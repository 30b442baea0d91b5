// Every project route says what it needs of the caller's access (route-access.ts), and the gateway refuses what the
// need does not allow before any service is called. The screens each role holds are written here by hand from spec
// 000 §6 ("Screen access"), not taken from packages/access.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '@fieldwork/proto';
import { createLogger } from '@fieldwork/service-kit';
import { buildGateway } from './app.js';
import type { Clients } from './clients.js';
import { ROUTE_NEEDS } from './route-access.js';

const ROLE_SCREENS: Record<string, string[]> = {
  owner: [
    'home',
    'canSetLive',
    'sites',
    'parameters',
    'admins',
    'staff',
    'form',
    'results',
    'collector',
    'dataManager',
  ],
  admin: ['home', 'parameters', 'form'],
  researcher: ['home', 'results'],
  collector: ['home', 'collector'],
  dataManager: ['home', 'dataManager'],
};
// Each user holds one role (the gateway keeps a decision 15 s per user and project): users 10-14 the roles above,
// 20 a collector without read_sites, 21 a collector with read_sites.
const ROLES = Object.keys(ROLE_SCREENS);
const roleOf = (user: number) => (user >= 20 ? 'collector' : ROLES[user - 10]!);
const calls: string[] = [];
const answer = (name: string, reply: unknown) => async () => {
  calls.push(name);
  return reply;
};
let app: FastifyInstance;
const tokenOf = (user: number) =>
  app.jwt.sign({ user_id: user, sid: `s-${user}`, is_staff: false, is_superuser: false, token_type: 'access' });

beforeAll(async () => {
  const clients = {
    projects: {
      getAccess: async (req: { project_id: number; caller: { user_id: number } }) =>
        projects.ProjectAccess.fromPartial({
          project_id: req.project_id,
          organization_id: 1,
          screens: ROLE_SCREENS[roleOf(req.caller.user_id)],
          read_sites: req.caller.user_id === 21 ? [4] : [],
        }),
      createSite: answer('createSite', { id: 1, name: 'S', geotag: undefined }),
      setStatus: answer('setStatus', {}),
      listProjectUsers: answer('listProjectUsers', { results: [] }),
      listSurveys: answer('listSurveys', { results: [] }),
    },
    results: { lookups: answer('lookups', { payload_json: '{}' }) },
  } as unknown as Clients;
  app = await buildGateway({
    clients,
    log: createLogger('gateway', 'silent'),
    options: {
      jwtSecret: 'x'.repeat(32),
      contextSecret: 'c'.repeat(32),
      bodyLimit: 1024 * 1024,
      corsOrigins: '',
      webDir: '',
      tls: false,
    },
  });
  await app.ready();
});
afterAll(() => app.close());

describe('route access needs', () => {
  it('names only routes that exist', () => {
    // The router keeps paths without their trailing slash (ignoreTrailingSlash).
    const has = (key: string) => {
      const [method, url] = key.split(' ') as ['GET', string];
      return app.hasRoute({ method, url: url.replace(/\/$/, '') });
    };
    expect(has('GET /api/project/:id/')).toBe(true);
    expect(has('GET /api/project/:id/nothing/')).toBe(false);
    const stale = Object.keys(ROUTE_NEEDS).filter((key) => !has(key));
    expect(stale).toEqual([]);
  });

  it('refuses, before any service is called, the roles whose screens the route does not need', async () => {
    const cases: [string, 'GET' | 'POST', string, Record<string, unknown> | undefined, string[]][] = [
      // route, method, url, body, roles allowed through
      ['sites', 'POST', '/api/project/3/sites/', { name: 'S' }, ['owner']],
      ['status', 'POST', '/api/project/3/status/', { project_state: 'A' }, ['owner']],
      ['users', 'GET', '/api/project/3/users/', undefined, ['owner']],
      ['surveys', 'GET', '/api/project/3/surveys/', undefined, ['owner', 'admin']],
    ];
    for (const [name, method, url, body, allowed] of cases)
      for (const [i, r] of ROLES.entries()) {
        calls.length = 0;
        const res = await app.inject({
          method,
          url,
          headers: { authorization: `JWT ${tokenOf(10 + i)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
        if (allowed.includes(r)) expect(res.statusCode, `${name} as ${r}`).not.toBe(403);
        else {
          expect(res.statusCode, `${name} as ${r}`).toBe(403);
          expect(calls, `${name} as ${r}`).toEqual([]);
        }
      }
  });

  it('lets read_sites through to results, where the service narrows them to their sites', async () => {
    const url = '/api/project/3/results/lookups/';
    calls.length = 0;
    expect((await app.inject({ url, headers: { authorization: `JWT ${tokenOf(20)}` } })).statusCode).toBe(403);
    expect(calls).toEqual([]);
    const res = await app.inject({ url, headers: { authorization: `JWT ${tokenOf(21)}` } });
    expect(res.statusCode).not.toBe(403);
    expect(calls).toEqual(['lookups']);
  });
});
