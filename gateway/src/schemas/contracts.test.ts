// The route schemas refuse wrongly typed values with 400 and the spec's field-error body before any service is
// called (nothing is coerced: a string id, a number for a name, a string flag), and let correct bodies through as
// they are. Through app.inject on the whole gateway with a fake projects client that records its calls.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@fieldwork/service-kit';
import { buildGateway } from '../app.js';
import type { Clients } from '../clients.js';

const calls: { method: string; req: Record<string, unknown> }[] = [];
const record = (method: string, answer: unknown) => async (req: Record<string, unknown>) => {
  calls.push({ method, req });
  return answer;
};
const group = { id: 7, name: 'G', site: 3, teams: [] };
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  const clients = {
    projects: { createGroup: record('createGroup', group), updateGroup: record('updateGroup', group) },
  } as unknown as Clients;
  app = await buildGateway({
    clients,
    log: createLogger('gateway', 'silent'),
    options: { jwtSecret: 'x'.repeat(32), bodyLimit: 1024 * 1024, corsOrigins: '', webDir: '', tls: false },
  });
  await app.ready();
  token = app.jwt.sign({ user_id: 1, sid: 's-1', is_staff: false, is_superuser: false, token_type: 'access' });
});
afterAll(() => app.close());

const send = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: `JWT ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

describe('route schemas', () => {
  it('refuses a wrongly typed field with 400 naming it, and calls no service', async () => {
    calls.length = 0;
    const cases: [unknown, Record<string, string[]>][] = [
      [{ name: 'G', site: '3' }, { site: ['A valid integer is required.'] }],
      [{ name: 5, site: 3 }, { name: ['Expected string.'] }],
      [{ name: 'G', site: 2 ** 31 }, { site: ['Ensure this value is less than or equal to 2147483647.'] }],
      [{ name: 'x'.repeat(256) }, { name: ['Ensure this field has no more than 255 characters.'] }],
    ];
    for (const [payload, fields] of cases) {
      const r = await send('POST', '/api/project/1/groups/', payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json()).toEqual(fields);
    }
    const flag = await send('PATCH', '/api/project/1/sites/2/', { active_flag: 'yes' });
    expect(flag.statusCode).toBe(400);
    expect(flag.json()).toEqual({ active_flag: ['Must be a valid boolean.'] });
    expect(calls).toEqual([]);
  });

  it('passes a correct body on as it was sent, extra fields ignored, and null as none', async () => {
    calls.length = 0;
    const made = await send('POST', '/api/project/1/groups/', { name: 'G', site: 3, extra: 'kept out' });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toEqual(group);
    const moved = await send('PATCH', '/api/project/1/groups/7/', { site: null });
    expect(moved.statusCode).toBe(200);
    expect(calls.map((c) => [c.method, c.req.name, c.req.site])).toEqual([
      ['createGroup', 'G', 3],
      ['updateGroup', undefined, 0],
    ]);
  });

  it('publishes every body it checks in the OpenAPI document', async () => {
    const doc = (await app.inject({ url: '/api/docs/json' })).json<{
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { properties?: object } }> } }>
      >;
    }>();
    const groups = doc.paths['/api/project/{id}/groups/']?.post?.requestBody?.content['application/json']?.schema;
    expect(groups?.properties).toHaveProperty('site');
    expect(doc.paths['/api/project/']?.post?.requestBody).toBeDefined();
  });
});
