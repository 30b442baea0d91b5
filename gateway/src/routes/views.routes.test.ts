// The summary, performance and tracking routes through app.inject with fake services: who reads them (as results:
// the results permission or read_sites), the view request a body becomes, the answers on the wire, and the 400s of
// bad filters before any service is asked.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestGateway, type Role } from '../testing/inject.js';
import { routesTagged, uncovered } from '../testing/routes.js';

// Every route of this group is reached by a test below (the last test checks it).
vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

const t = await buildTestGateway();
afterAll(() => t.close());

const row = {
  id: 3,
  name: 'North',
  responses: 2,
  completed: 1,
  first_response: '2026-01-05T10:00:00.000Z',
  last_response: '',
  last_activity: '',
  avg_duration_s: 900,
  median_duration_s: undefined,
  collectors: 1,
  target: 4,
  percent: 50,
  expected: undefined,
  parent_id: 0,
};
const totals = {
  responses: 4,
  completed: 3,
  in_progress: 1,
  deleted: 1,
  first_response: '2026-01-05T10:00:00.000Z',
  last_response: '',
  collectors: 2,
  sites: 2,
};
function answers() {
  t.answer('results', 'summary', { totals, by_site: { results: [row], count: 1 }, advanced_results: [] });
  t.answer('results', 'performance', {
    totals,
    by_collector: { results: [row], count: 1 },
    by_site: { results: [], count: 0 },
    period: 'week',
    series: [{ period: '2026-01-05', responses: 3, completed: 2 }],
    series_truncated: false,
  });
  t.answer('results', 'tracking', {
    project: row,
    by_site: { results: [row], count: 1 },
    by_group: { results: [], count: 0 },
    by_team: { results: [], count: 0 },
    start_date: '2026-01-01',
    end_date: '',
  });
  t.answer('results', 'collectors', { results: [{ id: 101, name: 'Cleo Collector', responses: 4 }], count: 7 });
}
beforeEach(() => {
  t.reset();
  answers();
});

const READ: Record<Role, number> = {
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

describe('view routes', () => {
  it.each(['summary', 'performance', 'tracking'])('who reads the %s: as results', async (view) => {
    const { status, leaked } = await t.byRole({ method: 'POST', url: `/api/project/7/${view}/`, payload: {} }, answers);
    expect(status).toEqual(READ);
    expect(leaked).toEqual([]);
  });

  it('asks for the summary with the filter set, and answers nulls for times not known', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/summary/',
      headers: t.as('researcher'),
      payload: { filters: { site: [3], createdBy: [101] }, page: 2, page_size: 10, time_zone: 'Europe/Paris' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      totals: { ...totals, last_response: null },
      by_site: {
        count: 1,
        results: [
          {
            ...row,
            last_response: null,
            last_activity: null,
            median_duration_s: null,
            expected: null,
            parent_id: null,
          },
        ],
      },
      advanced_results: [],
    });
    expect(t.serviceCalls()[0]).toMatchObject({
      service: 'results',
      method: 'summary',
      req: {
        project_id: 7,
        filters: { site: [3], group: [], team: [], collector: [], created_by: [101] },
        page: 2,
        page_size: 10,
        time_zone: 'Europe/Paris',
      },
    });
  });

  it('asks for the performance by period and for tracking over a date range', async () => {
    const perf = await t.inject({
      method: 'POST',
      url: '/api/project/7/performance/',
      headers: t.as('owner'),
      payload: { period: 'week' },
    });
    expect(perf.statusCode).toBe(200);
    expect(perf.json()).toMatchObject({ period: 'week', series: [{ period: '2026-01-05', responses: 3 }] });
    const track = await t.inject({
      method: 'POST',
      url: '/api/project/7/tracking/',
      headers: t.as('owner'),
      payload: { filters: { team: [5] }, start_date: '2026-01-01', end_date: '' },
    });
    expect(track.statusCode).toBe(200);
    expect(track.json()).toMatchObject({
      project: { target: 4, percent: 50 },
      start_date: '2026-01-01',
      end_date: null,
    });
    expect(t.serviceCalls().map((c) => [c.method, c.req])).toMatchObject([
      ['performance', { period: 'week' }],
      ['tracking', { filters: { team: [5] }, start_date: '2026-01-01', end_date: '' }],
    ]);
  });

  it.each([
    ['an unknown filter', 'summary', { filters: { question: [1] } }],
    ['a collector filter on tracking', 'tracking', { filters: { collector: [1] } }],
    ['a site that is not an id', 'summary', { filters: { site: ['north'] } }],
    ['a page size of millions', 'performance', { page_size: 5_000_000 }],
    ['an unknown period', 'performance', { period: 'fortnight' }],
    ['a date that is not one', 'tracking', { start_date: '1 January' }],
    ['filters that are not an object', 'summary', { filters: [3] }],
  ])('400 for %s, no service asked', async (_, view, payload) => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/project/7/${view}/`,
      headers: t.as('owner'),
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(t.serviceCalls()).toEqual([]);
  });

  it('who reads the collectors of the pickers: as results', async () => {
    const { status, leaked } = await t.byRole({ method: 'GET', url: '/api/project/7/results/collectors/' }, answers);
    expect(status).toEqual(READ);
    expect(leaked).toEqual([]);
  });

  it('asks for the collectors matching a search, a page of them, and refuses a bad page before any service', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/api/project/7/results/collectors/?q=cleo&limit=20&offset=40',
      headers: t.as('researcher'),
    });
    expect([res.statusCode, res.json()]).toEqual([
      200,
      { results: [{ id: 101, name: 'Cleo Collector', responses: 4 }], count: 7 },
    ]);
    expect(t.serviceCalls()[0]).toMatchObject({
      service: 'results',
      method: 'collectors',
      req: { project_id: 7, q: 'cleo', limit: 20, offset: 40 },
    });
    t.reset();
    const bad = await t.inject({
      method: 'GET',
      url: '/api/project/7/results/collectors/?limit=x',
      headers: t.as('researcher'),
    });
    expect(bad.statusCode).toBe(400);
    expect(t.serviceCalls()).toEqual([]);
  });

  it('has reached every route of its group', () => {
    const routes = routesTagged(['views']);
    expect(routes.length).toBe(4);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
