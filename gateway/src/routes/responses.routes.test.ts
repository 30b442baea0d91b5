// Routes of the responses service (uploads of responses, lists, filters, lookups, media) and the collection links,
// through app.inject with fake services: each answers its status with the service's reply on the wire, asks the
// service once with what the request said, and passes on the service's 404.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { projects, responses } from '@fieldwork/proto';
import { problems } from '@fieldwork/service-kit';
import { buildTestGateway, JWT_SECRET, signJwt, USER_IDS } from '../testing/inject.js';
import { routesTagged, uncovered } from '../testing/routes.js';

// Every route of this group is reached by a test below (the last test checks it).
vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => t.reset());

const response = responses.Response.fromPartial({
  id: 11,
  response_id: 'r-1',
  project: 7,
  schema: 2,
  user: 0,
  site_id: 3,
  data_json: '{"q1":"yes"}',
  time_completed: '',
  version: 1,
});
const responseWire = {
  id: 11,
  response_id: 'r-1',
  project: 7,
  sampler_schema: 2,
  user: null,
  site_id: 3,
  group_id: null,
  data: { q1: 'yes' },
  geotag: null,
  geotag_history: [],
  time_completed: null,
  version: 1,
};
const list = { results: [response], count: 1 };
const listWire = { results: [responseWire], count: 1 };

interface Row {
  method: 'GET' | 'POST';
  url: string;
  body?: object;
  call: string;
  reply?: object;
  req?: object;
  status: number;
  wire?: object;
}

const ROWS: Row[] = [
  {
    method: 'POST',
    url: '/api/project/7/response/',
    body: { response_id: 'r-1', sampler_schema: 2, data: { '0': { '12': 'yes' } } },
    call: 'upload',
    reply: { status: 'stored', response },
    req: { project_id: 7, action: 'save' },
    status: 201,
    wire: { ...responseWire, upload_status: 'stored' },
  },
  {
    method: 'POST',
    url: '/api/project/7/response/complete/',
    body: { response_id: 'r-1' },
    call: 'upload',
    reply: { status: 'stored', response: { ...response, version: 2 } },
    req: { action: 'complete' },
    status: 200,
  },
  {
    method: 'POST',
    url: '/api/project/7/response/uncomplete/',
    body: { response_id: 'r-1' },
    call: 'upload',
    reply: { status: 'unchanged' },
    req: { action: 'uncomplete' },
    status: 200,
    wire: { upload_status: 'unchanged', response_id: 'r-1' },
  },
  {
    method: 'GET',
    url: '/api/project/7/response/?limit=10',
    call: 'list',
    reply: list,
    req: { project_id: 7, limit: 10, after_id: 0 },
    status: 200,
    wire: listWire,
  },
  {
    method: 'GET',
    url: '/api/project/7/response/from/11/',
    call: 'list',
    reply: list,
    req: { after_id: 11, limit: 5000 },
    status: 200,
    wire: listWire,
  },
  {
    method: 'POST',
    url: '/api/project/7/response-chunk/filter/?page=2',
    body: { filters: { site: [3] }, currentSamplerSchema: 2 },
    call: 'filter',
    reply: list,
    req: { schema_id: 2, page: 2, page_size: 50, filters_json: '{"site":[3]}' },
    status: 200,
    wire: listWire,
  },
  {
    method: 'GET',
    url: '/api/project/7/response/single/r-1/',
    call: 'getOne',
    reply: response,
    req: { project_id: 7, response_id: 'r-1' },
    status: 200,
    wire: responseWire,
  },
  {
    method: 'GET',
    url: '/api/project/7/response/lookup/?schema=2&key=K-1',
    call: 'lookup',
    reply: list,
    req: { schema_id: 2, key: 'K-1' },
    status: 200,
    wire: listWire,
  },
  {
    method: 'POST',
    url: '/api/project/7/open-response/email/',
    body: { send_to: 'a@example.com' },
    call: 'emailOpen',
    req: { send_to: 'a@example.com' },
    status: 200,
  },
  {
    method: 'GET',
    url: '/api/project/7/references/9/responses/',
    call: 'referenceResponses',
    reply: list,
    req: { reference_id: 9 },
    status: 200,
    wire: { results: [{ id: 11, response_id: 'r-1', sampler_schema: 2 }], count: 1 },
  },
  {
    method: 'POST',
    url: '/api/project/7/media/',
    body: { response_id: 'r-1', kind: 'image', filename: 'a.png', content_type: 'image/png', size: 10 },
    call: 'createMediaUpload',
    reply: { media_id: 'm-1', upload_url: '/api/files/k' },
    req: { response_id: 'r-1', kind: 'image', size: 10 },
    status: 201,
    wire: { media_id: 'm-1', upload_url: '/api/files/k' },
  },
  {
    method: 'POST',
    url: '/api/project/7/media/m-1/complete/',
    call: 'completeMediaUpload',
    reply: { media_id: 'm-1' },
    req: { media_id: 'm-1' },
    status: 200,
  },
];

const send = (row: Row, headers = t.as('collector')) =>
  t.inject({ method: row.method, url: row.url, headers, ...(row.body ? { payload: row.body } : {}) });

describe('responses service routes', () => {
  it.each(ROWS.map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s: its status, one call of the service, the reply on the wire',
    async (_, row) => {
      if (row.reply) t.answer('responses', row.call, row.reply);
      const res = await send(row);
      expect(res.statusCode).toBe(row.status);
      if (row.wire) expect(res.json()).toMatchObject(row.wire);
      const calls = t.serviceCalls();
      expect(calls.map((c) => `${c.service}.${c.method}`)).toEqual([`responses.${row.call}`]);
      expect(calls[0]?.req).toMatchObject({ caller: { user_id: USER_IDS.collector }, ...row.req });
      // A project's route carries the gateway's decision to the service.
      expect(calls[0]?.meta.headers?.['x-fieldwork-grant']).toMatch(/\S/);
    },
  );

  it.each(ROWS.map((r) => [`${r.method} ${r.url}`, r] as const))('%s: passes on the service’s 404', async (_, row) => {
    t.answer('responses', row.call, () => {
      throw problems.notFound();
    });
    const res = await send(row);
    expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not found.' }]);
  });

  it('a collection link’s respondent uploads to its project, as the link (no user)', async () => {
    t.answer('responses', 'upload', { status: 'stored', response });
    const link = signJwt(JWT_SECRET, {
      token_type: 'collect',
      project_id: 7,
      survey_id: 1,
      email: 'r@example.com',
      fingerprint: 'fp',
      iat: Math.floor(Date.now() / 1000),
    });
    const res = await send(ROWS[0]!, { authorization: `JWT ${link}` });
    expect(res.statusCode).toBe(201);
    // No access decision for an anonymous respondent: the service checks the link on every call.
    expect(t.calls.map((c) => c.method)).toEqual(['upload']);
    expect(t.calls[0]?.req).toMatchObject({
      caller: { user_id: 0, collect_project_id: 7, collect_survey_id: 1, collect_email: 'r@example.com' },
    });
  });

  it('refuses a response that is not a JSON object, and a limit that is not a number, before the service', async () => {
    const list = await t.inject({
      method: 'POST',
      url: '/api/project/7/response/',
      headers: { ...t.as('collector'), 'content-type': 'application/json' },
      payload: '[1]',
    });
    expect(list.statusCode).toBe(400);
    const limit = await t.inject({ url: '/api/project/7/response/?limit=ten', headers: t.as('collector') });
    expect([limit.statusCode, limit.json()]).toEqual([400, { limit: ['A valid integer is required.'] }]);
    expect(t.serviceCalls()).toEqual([]);
  });

  describe('collection links', () => {
    const token = projects.CollectionToken.fromPartial({
      survey_id: 1,
      project_id: 7,
      expiry_date: '2099-01-01T00:00:00Z',
      project: { id: 7, name: 'Census' },
      proceed_unauthenticated: true,
    });

    it('answers the project, its forms and a collection token that uploads to it', async () => {
      t.answer('projects', 'resolveCollectionToken', token);
      t.answer('forms', 'listSchemas', { results: [{ id: 2, name: 'Household', version: '1', level: 1 }] });
      const res = await t.inject({
        method: 'POST',
        url: '/api/collect/link-0123456789/',
        payload: { email: 'r@example.com' },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ token: string; sampler_schemas: unknown[]; project_details: { id: number } }>();
      expect(body).toMatchObject({
        proceed_unauthenticated: true,
        expiry_date: '2099-01-01T00:00:00Z',
        sampler_schemas: [{ id: 2, name: 'Household', version: '1', level: 1 }],
        project_details: { id: 7, name: 'Census' },
      });
      expect(t.calls[0]?.req).toEqual({ token: 'link-0123456789' });
      t.reset();
      t.answer('responses', 'upload', { status: 'stored', response });
      const upload = await send(ROWS[0]!, { authorization: `JWT ${body.token}` });
      expect(upload.statusCode).toBe(201);
      expect(t.calls[0]?.req).toMatchObject({ caller: { collect_project_id: 7, collect_email: 'r@example.com' } });
    });

    it('an expired link: refused with the spec’s message; an unknown one: 404', async () => {
      t.answer('projects', 'resolveCollectionToken', { ...token, expired: true });
      const expired = await t.inject({ url: '/api/collect/survey/link-0123456789/' });
      expect(expired.statusCode).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(expired.json())).toContain('This link has expired.');
      t.answer('projects', 'resolveCollectionToken', () => {
        throw problems.notFound();
      });
      const unknown = await t.inject({ url: '/api/collect/survey/link-0123456789/' });
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { detail: 'Not found.' }]);
    });

    it('a token that cannot be one: 404 without asking', async () => {
      const res = await t.inject({ url: '/api/collect/survey/a b/' });
      expect(res.statusCode).toBe(404);
      expect(t.calls).toEqual([]);
    });
  });

  it('has reached every route of its group', () => {
    const routes = [...routesTagged(['responses'])];
    expect(routes.length).toBeGreaterThan(1);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
