// The route schemas refuse wrongly typed values with 400 and the spec's field-error body before any service is
// called (nothing is coerced: a string id, a number for a name, a string flag), and let correct bodies through as
// they are. Through app.inject on the whole gateway with a fake projects client that records its calls.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
const survey = {
  id: 5,
  project: 1,
  token: 'tok-12345678',
  expiry_date: '2027-01-01T00:00:00.000Z',
  time_created: '2026-01-01T00:00:00.000Z',
  revoked_at: '2026-02-01T00:00:00.000Z',
  expired: false,
  site: 0,
  kind: 'survey',
  name: '',
  proceed_unauthenticated: true,
};
let app: FastifyInstance;
let token: string;
let dir: string;

beforeAll(async () => {
  const clients = {
    projects: {
      createGroup: record('createGroup', group),
      updateGroup: record('updateGroup', group),
      revokeSurvey: record('revokeSurvey', survey),
      // The gateway decides the caller's access to the project first (route-access.ts): an owner's screens.
      getAccess: async (req: { project_id: number }) => ({
        project_id: req.project_id,
        screens: ['home', 'sites', 'parameters', 'admins', 'form', 'results', 'projectLevelIngestion'],
        read_sites: [],
      }),
    },
    auth: { listAudit: record('listAudit', { results: [], count: 0 }) },
  } as unknown as Clients;
  dir = await mkdtemp(join(tmpdir(), 'contracts-'));
  app = await buildGateway({
    clients,
    log: createLogger('gateway', 'silent'),
    options: {
      jwtSecret: 'x'.repeat(32),
      bodyLimit: 1024 * 1024,
      corsOrigins: '',
      webDir: '',
      tls: false,
      files: { dir, secret: 'y'.repeat(32) },
    },
  });
  await app.ready();
  token = app.jwt.sign({ user_id: 1, sid: 's-1', is_staff: false, is_superuser: false, token_type: 'access' });
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown) =>
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

  it('refuses a wrong type wherever a route reads the value with a wire.ts helper (never read as "" or 0)', async () => {
    calls.length = 0;
    const cases: ['POST' | 'PUT' | 'PATCH', string, unknown, Record<string, string[]>][] = [
      ['POST', '/api/organization/1/api_keys/create/', { name: 5 }, { name: ['Expected string.'] }],
      ['PUT', '/api/api/v0/organization/1/api_keys/revoke/', { prefix: 1 }, { prefix: ['Expected string.'] }],
      [
        'POST',
        '/api/organization/1/folders/',
        { name: 'F', folder: '3' },
        { folder: ['A valid integer is required.'] },
      ],
      [
        'PUT',
        '/api/organization/1/integrations/projects/',
        { token: 't', projects: ['1'] },
        { 'projects.0': ['A valid integer is required.'] },
      ],
      ['POST', '/api/project/1/surveys/', { site: '3' }, { site: ['A valid integer is required.'] }],
      ['POST', '/api/project/1/references/', { id: '2', action: 'add' }, { id: ['A valid integer is required.'] }],
      [
        'POST',
        '/api/project/1/create-form-from-upload/',
        { file_identifier: 'f', schema: '2' },
        { schema: ['A valid integer is required.'] },
      ],
      [
        'POST',
        '/api/project/1/import/preview/',
        { file_identifier: 7 },
        { file_identifier: ['Expected string,null.'] },
      ],
      [
        'POST',
        '/api/project/1/response-chunk/filter/',
        { currentSamplerSchema: '1' },
        { currentSamplerSchema: ['A valid integer is required.'] },
      ],
      [
        'POST',
        '/api/project-users/permissions/',
        { projectId: 1, userIds: ['1'] },
        { 'userIds.0': ['A valid integer is required.'] },
      ],
      ['PUT', '/api/project/1/users/2/', { site: '1' }, { site: ['A valid integer is required.'] }],
      ['POST', '/api/project/1/type/', { project_type: 1 }, { project_type: ['Expected string.'] }],
      ['POST', '/api/project/1/results/', { item_ids: ['1'] }, { 'item_ids.0': ['A valid integer is required.'] }],
      ['POST', '/api/project/1/media/', { response_id: 1 }, { response_id: ['Expected string.'] }],
    ];
    for (const [method, url, payload, fields] of cases) {
      const r = await send(method, url, payload);
      expect(r.statusCode, url).toBe(400);
      expect(r.json(), url).toEqual(fields);
    }
    // The audit log's page: read by queryInt, no longer turned into 0 when it is not a number.
    const page = await app.inject({
      url: '/api/organization/1/audit/?page=two',
      headers: { authorization: `JWT ${token}` },
    });
    expect(page.statusCode).toBe(400);
    expect(page.json()).toEqual({ page: ['A valid integer is required.'] });
    expect(calls).toEqual([]);
  });

  it('refuses a wrongly typed query value with 400 naming it, where it used to be read as another', async () => {
    calls.length = 0;
    const get = (url: string) => app.inject({ url, headers: { authorization: `JWT ${token}` } });
    const cases: [string, Record<string, string[]>][] = [
      // Any wait but 0 used to mean "wait 10 s".
      ['/api/project/1/named_csv/?wait=soon', { wait: ['Must be one of: 0, 1.'] }],
      ['/api/project/1/coded_csv/?lang=en&lang=fr', { lang: ['Expected string.'] }],
      // A signed file URL's parameter given twice (the signature is checked on one of each).
      ['/api/files/a/b.csv?method=GET&exp=1&exp=2&sig=00', { exp: ['Expected string.'] }],
    ];
    for (const [url, fields] of cases) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(400);
      expect(r.json(), url).toEqual(fields);
    }
    // A signed URL with a bad signature is still refused by the handler, as before.
    expect((await get('/api/files/a/b.csv?method=GET&exp=1&sig=00')).statusCode).toBe(403);
    expect(calls).toEqual([]);
  });

  it('takes a call that reads no body with none, {} or null, as before', async () => {
    calls.length = 0;
    const url = '/api/project/1/surveys/5/revoke/';
    const auth = { authorization: `JWT ${token}` };
    const answers = [
      await app.inject({ method: 'POST', url, headers: auth }),
      await send('POST', url, {}),
      await send('POST', url, null),
      await send('POST', url, { ignored: true }),
    ];
    for (const r of answers) {
      expect(r.statusCode).toBe(200);
      // Serialized by the Survey record: its site 0 answered as null.
      expect(r.json()).toEqual({ ...survey, site: null });
    }
    expect(calls.map((c) => [c.method, c.req.project_id, c.req.survey_id])).toEqual(
      Array.from({ length: 4 }, () => ['revokeSurvey', 1, 5]),
    );
    // A JSON body that is not an object is refused, before any service is called.
    const list = await send('POST', url, [1]);
    expect(list.statusCode).toBe(400);
    expect(calls).toHaveLength(4);
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
