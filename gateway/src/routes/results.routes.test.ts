// Results routes through app.inject with fake services: who reads results and who shares them (decided once, at the
// gateway, before the results service is asked), what the results service's answers become on the wire, and the
// refusals passed through.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { problems } from '@fieldwork/service-kit';
import { buildTestGateway, type Role } from '../testing/inject.js';
import { routesTagged, uncovered } from '../testing/routes.js';

// Every route of this group is reached by a test below (the last test checks it).
vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => {
  t.reset();
  t.answer('results', 'getResults', { payload_json: JSON.stringify({ items: [{ item_id: 9, n: 4 }], levels: [] }) });
  t.answer('results', 'lookups', { payload_json: JSON.stringify({ lookups: [] }) });
  t.answer('results', 'advancedResults', { payload_json: JSON.stringify({ results: [] }) });
  t.answer('results', 'responseIds', { response_ids: ['r-1'] });
});

const DENIED = { detail: "You don't have access to this item." };

/**
 * Spec 001 §6: "Results access needs the results permission" (the results screen: the workspace's owner and project
 * admin through their workspace roles, staff, the project owner, the researcher), and spec 000 §6: "Results are also
 * visible to a user with read_sites". Not the project admin (home, parameters, form), the staff admin (home, staff),
 * the collector, the data manager or a guest. The project of another workspace does not exist for its outsider: 404.
 */
const READ_RESULTS: Record<Role, number> = {
  owner: 200,
  wsProjectAdmin: 200,
  staff: 200,
  projectOwner: 200,
  researcher: 200,
  readSites: 200,
  projectAdmin: 403,
  staffAdmin: 403,
  collector: 403,
  dataManager: 403,
  guest: 403,
  outsider: 404,
};
/**
 * A share link publishes an item's results to anyone holding it: the spec is silent; the results permission itself
 * (issue 18), so not read_sites alone.
 */
const SHARE: Record<Role, number> = { ...READ_RESULTS, readSites: 403 };

const READERS: [string, 'GET' | 'POST', string][] = [
  ['project results', 'POST', '/api/project/7/results/'],
  ['a schema', 'POST', '/api/project/7/results/schema/2/'],
  ['items', 'POST', '/api/project/7/results/schema/2/item/'],
  ['a block', 'POST', '/api/project/7/results/schema/2/block/4/'],
  ['a profile', 'POST', '/api/project/7/results/schema/2/response/r-1/'],
  ['response ids', 'POST', '/api/project/7/results/schema/2/responses/'],
  ['lookups', 'GET', '/api/project/7/results/lookups/'],
  ["a schema's lookups", 'GET', '/api/project/7/results/schema/2/lookups/'],
  ['advanced results', 'POST', '/api/project/7/advanced_results/list/'],
];

/** Each role's status on a route; the refusals are the gateway's, before any service is asked. */
async function byRole(method: 'GET' | 'POST', url: string) {
  const { status, refusals, leaked } = await t.byRole(
    { method, url, ...(method === 'POST' ? { payload: {} } : {}) },
    () => {
      t.answer('results', 'getResults', { payload_json: JSON.stringify({ items: [{ item_id: 9 }] }) });
      t.answer('results', 'lookups', { payload_json: '{}' });
      t.answer('results', 'advancedResults', { payload_json: '{}' });
    },
  );
  for (const [role, body] of Object.entries(refusals)) if (status[role as Role] === 403) expect(body).toEqual(DENIED);
  return { status, leaked };
}

describe('results routes', () => {
  describe('who reads results (spec 000 §6, spec 001 §6)', () => {
    it.each(READERS)('%s: %s %s', async (_, method, url) => {
      const { status, leaked } = await byRole(method, url);
      expect(status).toEqual(READ_RESULTS);
      expect(leaked).toEqual([]);
    });
  });

  it('who shares an item: the results permission, not read_sites alone', async () => {
    const { status, leaked } = await byRole('POST', '/api/project/7/results/schema/2/item/9/token/');
    expect(status).toEqual(SHARE);
    expect(leaked).toEqual([]);
  });

  it('asks the results service with the query of the body and the signed grant, and answers its payload', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/results/schema/2/item/',
      headers: t.as('researcher'),
      payload: { item_ids: [9], filters: { site: [3] }, buckets: 5, time_zone: 'Europe/Paris' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [{ item_id: 9, n: 4 }], levels: [] });
    const [call] = t.serviceCalls();
    expect(call).toMatchObject({
      service: 'results',
      method: 'getResults',
      req: {
        project_id: 7,
        schema_id: 2,
        block_id: 0,
        item_ids: [9],
        buckets: 5,
        time_zone: 'Europe/Paris',
        filters_json: JSON.stringify({ site: [3] }),
      },
    });
    expect(call!.meta.headers?.['x-fieldwork-grant']).toMatch(/\S/);
  });

  it('answers the response ids of the filters', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/results/schema/2/responses/',
      headers: t.as('owner'),
      payload: { filters: {} },
    });
    expect([res.statusCode, res.json()]).toEqual([200, { response_ids: ['r-1'] }]);
  });

  describe('lookups: a page of profiles searched on the server', () => {
    const get = (query: string) =>
      t.inject({ method: 'GET', url: `/api/project/7/results/schema/2/lookups/${query}`, headers: t.as('researcher') });

    it('passes the search, the page size and the offset on; none of them: the first page', async () => {
      expect((await get('?q=mar%20tin&limit=20&offset=40')).statusCode).toBe(200);
      expect(t.serviceCalls().at(-1)).toMatchObject({
        method: 'lookups',
        req: { project_id: 7, schema_id: 2, lookup_query: 'mar tin', limit: 20, offset: 40 },
      });
      expect((await get('')).statusCode).toBe(200);
      expect(t.serviceCalls().at(-1)?.req).toMatchObject({ lookup_query: '', limit: 0, offset: 0 });
    });

    it('refuses a page size that is not a number, or of ten digits, before any service is asked', async () => {
      for (const query of ['?limit=lots', '?limit=10000000000', '?offset=-1']) {
        const res = await get(query);
        expect(res.statusCode).toBe(400);
      }
      expect(t.serviceCalls()).toEqual([]);
    });

    it('passes on the service’s 400 for a page of millions', async () => {
      t.answer('results', 'lookups', () => {
        throw problems.invalidFields({ limit: ['Ensure this value is between 1 and 100.'] });
      });
      const res = await get('?limit=1000000');
      expect([res.statusCode, res.json()]).toEqual([400, { limit: ['Ensure this value is between 1 and 100.'] }]);
    });
  });

  it('passes the page filters of advanced results on, and the service’s 400 for a filter naming an unknown question', async () => {
    const filters = { site: [3], filters: [{ question: 12, operator: '>', value: 1 }] };
    const ok = await t.inject({
      method: 'POST',
      url: '/api/project/7/advanced_results/list/',
      headers: t.as('researcher'),
      payload: { filters },
    });
    expect(ok.statusCode).toBe(200);
    expect(t.serviceCalls().at(-1)).toMatchObject({
      method: 'advancedResults',
      req: { project_id: 7, filters_json: JSON.stringify(filters) },
    });
    t.answer('results', 'advancedResults', () => {
      throw problems.invalidFields({ filters: ['Question 12 is not a question of this form.'] });
    });
    const bad = await t.inject({
      method: 'POST',
      url: '/api/project/7/advanced_results/list/',
      headers: t.as('researcher'),
      payload: { filters },
    });
    expect([bad.statusCode, bad.json()]).toEqual([400, { filters: ['Question 12 is not a question of this form.'] }]);
  });

  it('refuses an inverted date range with the results service’s field message', async () => {
    t.answer('results', 'getResults', () => {
      throw problems.invalidFields({ date_ranges: ['The start of a date range must not be after its end.'] });
    });
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/results/schema/2/',
      headers: t.as('owner'),
      payload: { filters: { date_ranges: [{ startDateTime: 2, endDateTime: 1 }] } },
    });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { date_ranges: ['The start of a date range must not be after its end.'] },
    ]);
  });

  it('passes on the results service’s refusals: 404 for a schema it does not know', async () => {
    t.answer('results', 'getResults', () => {
      throw problems.invalidSchemaId();
    });
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/results/schema/2/',
      headers: t.as('owner'),
      payload: {},
    });
    expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Invalid Schema Id!' }]);
  });

  describe('bad queries (issue 20): 400, never a 5xx', () => {
    const ask = (payload: object) =>
      t.inject({ method: 'POST', url: '/api/project/7/results/', headers: t.as('owner'), payload });

    it('refuses an aggregator spec 001 §9 does not name, and comparisons that are not a list of objects, unasked', async () => {
      for (const payload of [
        { aggregator: 'median' },
        { aggregator: 3 },
        { comparisons: 'site' },
        { comparisons: [1] },
        { comparisons: Array.from({ length: 11 }, () => ({ by: 'site' })) },
      ]) {
        const res = await ask(payload);
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json<object>())[0]).toMatch(new RegExp(`^${Object.keys(payload)[0]}`));
      }
      expect(t.serviceCalls()).toEqual([]);
    });

    it('passes the aggregator and every comparison on to the results service', async () => {
      const comparisons = [
        { by: 'site', limit: 5 },
        { by: 'question', item_id: 4 },
      ];
      const res = await ask({ aggregator: 'avg', comparisons });
      expect(res.statusCode).toBe(200);
      expect(t.serviceCalls()[0]?.req).toMatchObject({
        aggregator: 'avg',
        comparisons_json: JSON.stringify(comparisons),
      });
    });

    it("passes on the results service's 400 for a comparison by an unknown question", async () => {
      const fields = {
        'comparisons.0.item_id': ['Compare by a choice or binary question of this form: 99 is not one.'],
      };
      t.answer('results', 'getResults', () => {
        throw problems.invalidFields(fields);
      });
      const res = await ask({ comparisons: [{ by: 'question', item_id: 99 }] });
      expect([res.statusCode, res.json()]).toEqual([400, fields]);
    });
  });

  describe('sharing an item', () => {
    const share = (payload: object = {}) =>
      t.inject({
        method: 'POST',
        url: '/api/project/7/results/schema/2/item/9/token/',
        headers: t.as('researcher'),
        payload,
      });

    it('answers a token that reads that item alone, in the view shared, without a login', async () => {
      const made = await share({ buckets: 3 });
      expect(made.statusCode).toBe(200);
      const { token, expires_in } = made.json<{ token: string; expires_in: number }>();
      expect(expires_in).toBe(365 * 86_400);
      t.answer('results', 'getResults', {
        payload_json: JSON.stringify({ items: [{ item_id: 9 }, { item_id: 10 }], levels: [] }),
      });
      const read = await t.inject({ method: 'POST', url: `/api/item-results/${token}/`, payload: {} });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ items: [{ item_id: 9 }], shared_view: { buckets: 3 } });
      expect(t.serviceCalls().at(-1)?.req).toMatchObject({ project_id: 7, schema_id: 2, item_ids: [9], buckets: 3 });
    });

    it('keeps the aggregator of the view shared: the link answers the mean it was shared with', async () => {
      t.answer('results', 'getResults', {
        payload_json: JSON.stringify({ items: [{ item_id: 9 }], levels: [] }),
      });
      const made = await share({ aggregator: 'avg' });
      expect(made.statusCode).toBe(200);
      const { token } = made.json<{ token: string }>();
      const read = await t.inject({ method: 'POST', url: `/api/item-results/${token}/`, payload: {} });
      expect(read.json()).toMatchObject({ shared_view: { aggregator: 'avg' } });
      expect(t.serviceCalls().at(-1)?.req).toMatchObject({ item_ids: [9], aggregator: 'avg' });
    });

    it('404 when the sharer does not see the item', async () => {
      t.answer('results', 'getResults', { payload_json: JSON.stringify({ items: [] }) });
      const res = await share();
      expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not found.' }]);
    });

    it('a link that is not one: 404, no service asked', async () => {
      const res = await t.inject({ method: 'POST', url: '/api/item-results/not.a.token/', payload: {} });
      expect(res.statusCode).toBe(404);
      expect(t.calls).toEqual([]);
    });
  });

  describe('advanced results', () => {
    const saved = { id: 5, name: 'Ratio', editor_state_json: '{"x":1}', formula: 'a/b' };

    it('lists the definitions with their editor state as JSON', async () => {
      t.answer('projects', 'listAdvancedResults', { results: [saved] });
      const res = await t.inject({
        method: 'GET',
        url: '/api/project/7/advanced_results/edit_list/',
        headers: t.as('owner'),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ results: [{ id: 5, name: 'Ratio', editor_state: { x: 1 } }] });
    });

    it('201 on create, 200 on update, 204 on delete', async () => {
      t.answer('projects', 'saveAdvancedResult', saved);
      const made = await t.inject({
        method: 'POST',
        url: '/api/project/7/advanced_results/',
        headers: t.as('owner'),
        payload: { name: 'Ratio', formula: 'a/b', editor_state: { x: 1 } },
      });
      expect(made.statusCode).toBe(201);
      expect(made.json()).toMatchObject({ id: 5, name: 'Ratio', formula: 'a/b', editor_state: { x: 1 } });
      expect(t.serviceCalls()[0]?.req).toMatchObject({
        project_id: 7,
        id: 0,
        fields: { name: 'Ratio', formula: 'a/b', editor_state_json: '{"x":1}' },
      });
      const put = await t.inject({
        method: 'PUT',
        url: '/api/project/7/advanced_results/5/',
        headers: t.as('owner'),
        payload: { name: 'Ratio' },
      });
      expect(put.statusCode).toBe(200);
      expect(t.serviceCalls()[1]?.req).toMatchObject({ project_id: 7, id: 5 });
      const gone = await t.inject({
        method: 'DELETE',
        url: '/api/project/7/advanced_results/5/',
        headers: t.as('owner'),
      });
      expect([gone.statusCode, gone.body]).toEqual([204, '']);
    });

    it('passes on 404 from the projects service', async () => {
      t.answer('projects', 'deleteAdvancedResult', () => {
        throw problems.notFound();
      });
      const res = await t.inject({
        method: 'DELETE',
        url: '/api/project/7/advanced_results/5/',
        headers: t.as('owner'),
      });
      expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Not found.' }]);
    });
  });

  it('has reached every route of its group', () => {
    const routes = [...routesTagged(['results'])];
    expect(routes.length).toBeGreaterThan(1);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
