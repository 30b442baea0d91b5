// Bounded requests (issue 18 item 12): numbers beyond an int32 field, formulas nested or long enough to exhaust the
// stack or take seconds of CPU, and JSON bodies nested 50,000 deep were answered 500. Each is now a 400 with a clear
// message, answered at once, while other requests go on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBlock, addItem, newSchemaBody, updateItem, type SchemaBody } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;
let p: Json;
let schema: number;
let block: number;
let item: number;
const responseId = () => `${p.id}-${schema}-1-b-1`;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  const b = addBlock(newSchemaBody('S'), { en: 'Block' });
  const n = addItem(b.body, b.id, 'number', 'en', 'Count');
  p = (
    await api<Json>('POST', 'project/', {
      token: owner.access,
      body: { name: 'Bounds', organization_pk: owner.organization.id, geotag: point(1, 1) },
    })
  ).body;
  schema = p.sampler_schemas[0].id as number;
  block = b.id;
  item = n.id;
  expect(
    (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...n.body, revision: 1 } })).status,
  ).toBe(200);
  const r = await api('POST', `project/${p.id}/response/complete/`, {
    token: owner.access,
    body: { sampler_schema: schema, response_id: responseId(), data: { '0': { [item]: 3 } } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  // Results read what ingestion has brought over: wait for the response.
  for (let i = 0; i < 150; i++) {
    const seen = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/responses/`, {
      token: owner.access,
      body: {},
    });
    if (seen.body.response_ids?.includes(responseId())) break;
    await new Promise((done) => setTimeout(done, 200));
  }
}, 240_000);
afterAll(async () => {
  await t?.stop();
});

const HUGE = [2 ** 31, 2 ** 53, 1e308, 2 ** 31 + 0.5];

describe('request bounds', () => {
  it('refuses buckets beyond 100 (2^31 and more) on every results route, the public item results too', async () => {
    // Shared with 5 buckets: the public item answers only that view (sharing is bounded like the other routes).
    const share = await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/${item}/token/`, {
      token: owner.access,
      body: { buckets: 5 },
    });
    expect(share.status, JSON.stringify(share.body)).toBe(200);
    expect(
      (
        await api<Json>('POST', `project/${p.id}/results/schema/${schema}/item/${item}/token/`, {
          token: owner.access,
          body: { buckets: 2 ** 31 },
        })
      ).status,
    ).toBe(400);
    expect(share.status).toBe(200);
    const routes: [string, string | undefined][] = [
      [`project/${p.id}/results/`, owner.access],
      [`project/${p.id}/results/schema/${schema}/`, owner.access],
      [`project/${p.id}/results/schema/${schema}/item/`, owner.access],
      [`project/${p.id}/results/schema/${schema}/block/${block}/`, owner.access],
      [`project/${p.id}/results/schema/${schema}/response/${responseId()}/`, owner.access],
      [`project/${p.id}/results/schema/${schema}/responses/`, owner.access],
      [`project/${p.id}/advanced_results/list/`, owner.access],
      [`item-results/${share.body.token}/`, undefined],
    ];
    for (const [path, token] of routes) {
      // A sane value works.
      const ok = await api<Json>('POST', path, { token, body: { buckets: 5 } });
      expect(ok.status, `${path} ${JSON.stringify(ok.body)}`).toBe(200);
      for (const buckets of HUGE) {
        const r = await api<Json>('POST', path, { token, body: { buckets } });
        expect(r.status, `${path} buckets ${buckets}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body.buckets).toContain(
          Number.isInteger(buckets)
            ? 'Ensure this value is less than or equal to 100.'
            : 'A valid integer is required.',
        );
        expect(Object.keys(r.body)).toEqual(['buckets']);
      }
      const negative = await api<Json>('POST', path, { token, body: { buckets: -(2 ** 31) - 1 } });
      expect(negative).toMatchObject({
        status: 400,
        body: { buckets: ['Ensure this value is greater than or equal to 0.'] },
      });
    }
  });

  it('refuses a page of project users beyond an int32 with 400', async () => {
    expect((await api<Json>('GET', `project/${p.id}/users/?page=2`, { token: owner.access })).status).toBe(200);
    // The largest page there can be: an empty page of users, a refused page of responses (past the last one).
    expect(
      await api<Json>('GET', `project/${p.id}/users/?page=2147483647&page_size=2147483647`, { token: owner.access }),
    ).toMatchObject({ status: 200, body: { results: [] } });
    const chunk = await api<Json>(
      'POST',
      `project/${p.id}/response-chunk/filter/?page=2147483647&page_size=2147483647`,
      { token: owner.access, body: { currentSamplerSchema: schema } },
    );
    expect(chunk).toMatchObject({ status: 400, body: { page: ['Invalid page.'] } }); // past the last page, as a page should
    for (const page of ['2147483648', '9007199254740993', '99999999999999999999']) {
      const r = await api<Json>('GET', `project/${p.id}/users/?page=${page}`, { token: owner.access });
      expect(r, page).toMatchObject({
        status: 400,
        body: { page: ['Ensure this value is less than or equal to 2147483647.'] },
      });
    }
    expect(
      await api<Json>('GET', `project/${p.id}/users/?page_size=2147483648`, { token: owner.access }),
    ).toMatchObject({ status: 400, body: { page_size: ['Ensure this value is less than or equal to 2147483647.'] } });
    expect(await api<Json>('GET', `project/${p.id}/users/?page=0`, { token: owner.access })).toMatchObject({
      status: 400,
      body: { page: ['Ensure this value is greater than or equal to 1.'] },
    });
    expect(await api<Json>('GET', `project/${p.id}/users/?page=1e3`, { token: owner.access })).toMatchObject({
      status: 400,
      body: { page: ['A valid integer is required.'] },
    });
  });

  it('refuses a form revision, a project goal or a hierarchy level beyond an int32 with 400', async () => {
    const doc = (await api<Json>('GET', `samplerschema/${schema}/`, { token: owner.access })).body;
    const r = await api<Json>('PUT', `samplerschema/${schema}/`, {
      token: owner.access,
      body: { ...doc, revision: 2 ** 31 },
    });
    expect(r).toMatchObject({
      status: 400,
      body: { revision: ['Ensure this value is less than or equal to 2147483647.'] },
    });
    for (const method of ['PUT', 'PATCH']) {
      for (const goal of [2 ** 53, 1e308, 2 ** 31]) {
        expect(
          await api<Json>(method, `project/${p.id}/`, { token: owner.access, body: { goal_count: goal } }),
          `${method} ${goal}`,
        ).toMatchObject({
          status: 400,
          body: { goal_count: ['Ensure this value is less than or equal to 2147483647.'] },
        });
      }
      expect(
        await api<Json>(method, `project/${p.id}/`, { token: owner.access, body: { goal_count: 1.5 } }),
      ).toMatchObject({ status: 400, body: { goal_count: ['A valid integer is required.'] } });
    }
    expect(
      await api<Json>('PATCH', `project/${p.id}/`, { token: owner.access, body: { goal_count: 500 } }),
    ).toMatchObject({ status: 200, body: { goal_count: 500 } });
    const h = await api<Json>('POST', `project/${p.id}/hierarchy/`, {
      token: owner.access,
      body: { is_hierarchical: false, project_hierarchy: [{ level: 2 ** 31, name: 'x', schema_id: schema }] },
    });
    expect(h).toMatchObject({
      status: 400,
      body: { 'project_hierarchy.0.level': ['Ensure this value is less than or equal to 100.'] },
    });
  });

  it('refuses advanced results nested 100 deep or 40,000 terms long with the formula error, at once', async () => {
    const nested = `=${'('.repeat(100)}1${')'.repeat(100)}`;
    const deep = await api<Json>('POST', `project/${p.id}/advanced_results/`, {
      token: owner.access,
      body: { name: 'Deep', formula: nested },
    });
    expect(deep).toMatchObject({
      status: 400,
      body: {
        formula: [
          'Not a valid formula! A formula nests at most 32 levels of parentheses, functions and signs. Your calculation will not be saved until fixed.',
        ],
      },
    });
    const fn = await api<Json>('POST', `project/${p.id}/advanced_results/`, {
      token: owner.access,
      body: { name: 'Deep', formula: `=${'ABS('.repeat(100)}1${')'.repeat(100)}` },
    });
    expect(fn.status).toBe(400);
    const terms = `=${Array.from({ length: 40_000 }, () => `AVERAGE(Q${block}_${item})`).join('+')}`;
    const started = Date.now();
    const long = await api<Json>('POST', `project/${p.id}/advanced_results/`, {
      token: owner.access,
      body: { name: 'Long', formula: terms },
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(long).toMatchObject({
      status: 400,
      body: {
        formula: [
          'Not a valid formula! A formula holds at most 4000 characters. Your calculation will not be saved until fixed.',
        ],
      },
    });
    const many = `=${Array.from({ length: 300 }, () => '1').join('+')}`;
    expect(
      await api<Json>('POST', `project/${p.id}/advanced_results/`, {
        token: owner.access,
        body: { name: 'Many', formula: many },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        formula: [
          'Not a valid formula! A formula holds at most 256 operators. Your calculation will not be saved until fixed.',
        ],
      },
    });
    // Within the bounds a formula still saves and computes.
    const fine = await api<Json>('POST', `project/${p.id}/advanced_results/`, {
      token: owner.access,
      body: { name: 'Fine', formula: `=${'('.repeat(30)}AVERAGE(Q${block}_${item})${')'.repeat(30)}` },
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
    const listed = await api<Json>('POST', `project/${p.id}/advanced_results/list/`, { token: owner.access, body: {} });
    expect(listed.body.results.find((x: Json) => x.name === 'Fine').value).toBe(3);
  });

  it('refuses a calculated question nested 150 deep with the formula error', async () => {
    const doc = (await api<Json>('GET', `samplerschema/${schema}/`, { token: owner.access })).body;
    const { id: _id, name: _n, project: _p, level: _l, time_updated: _t, editable: _e, revision, ...body } = doc;
    const calc = addItem(body as SchemaBody, block, 'calculated', 'en', 'Total');
    const deep = updateItem(calc.body, calc.id, {
      codeName: 'total',
      options: {
        ...calc.body.entities.items[calc.id]!.options,
        formula: `${'('.repeat(150)}Q${block}_${item}${')'.repeat(150)}`,
      },
    });
    const r = await api<Json>('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...deep, revision } });
    expect(r).toMatchObject({
      status: 400,
      body: {
        formula: [
          'total: Not a valid formula! A formula nests at most 32 levels of parentheses, functions and signs. Your calculation will not be saved until fixed.',
        ],
      },
    });
  });

  it('refuses a JSON body nested 50,000 deep with 400 at once, while other requests go on', async () => {
    const depth = 50_000;
    const bodies = [
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `{"data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
      `{"filters":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    ];
    const paths = [
      `project/${p.id}/response/`,
      `project/${p.id}/results/`,
      'api-token-auth/',
      `samplerschema/${schema}/`,
    ];
    for (const path of paths) {
      for (const raw of bodies) {
        const started = Date.now();
        const other = fetch(`${t.baseUrl}/healthz`);
        const r = await api<Json>(path.startsWith('samplerschema') ? 'PUT' : 'POST', path, {
          token: path === 'api-token-auth/' ? undefined : owner.access,
          body: raw,
        });
        expect(Date.now() - started, path).toBeLessThan(1000);
        expect(r, path).toMatchObject({
          status: 400,
          body: { non_field_errors: ['The JSON body nests more than 64 levels of objects and lists.'] },
        });
        expect((await other).status).toBeLessThan(500);
      }
    }
    // Brackets inside strings are text, and 64 levels are fine.
    const text = await api<Json>('POST', `project/${p.id}/results/`, {
      token: owner.access,
      body: { time_zone: '['.repeat(10_000) },
    });
    expect(text.status).not.toBe(500);
    expect(text.body.non_field_errors ?? []).not.toContain(
      'The JSON body nests more than 64 levels of objects and lists.',
    );
    let nested: unknown = {};
    for (let i = 0; i < 62; i++) nested = { a: nested };
    const ok = await api<Json>('POST', `project/${p.id}/advanced_results/`, {
      token: owner.access,
      body: { name: 'Nested state', formula: '=1', editor_state: nested },
    });
    expect(ok.status, JSON.stringify(ok.body).slice(0, 200)).toBe(201);
  });
});
