// The samples the route tests derive from schemas, checked against Fastify's own validation (the gateway's ajv
// options): a valid sample passes, each refusal is refused naming its field — for schema shapes the routes use now
// and the ones they may declare next (patterns, formats, enums, nested required fields, minimum lengths).
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { paramSample, refusals, validSample } from './samples.js';

const body = {
  type: ['object', 'null'],
  required: ['name', 'site', 'when', 'kind', 'key', 'tags', 'nested'],
  properties: {
    name: { type: 'string', minLength: 3, maxLength: 20 },
    site: { type: ['integer', 'null'], minimum: 1, maximum: 9 },
    when: { type: 'string', format: 'date-time' },
    kind: { enum: ['a', 'b'] },
    key: { type: 'string', pattern: '^[0-9a-f-]{36}$' },
    tags: { type: 'array', minItems: 1, items: { type: 'string' } },
    nested: { type: 'object', required: ['flag'], properties: { flag: { type: 'boolean' } } },
    ratio: { type: ['number', 'null'] },
    any: {},
    ref: { $ref: 'Thing#' },
  },
} as const;
const querystring = { type: 'object', properties: { q: { type: 'string', maxLength: 5 } } } as const;
const params = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^\\d+$' }, job: { type: 'string', format: 'uuid' }, n: {} },
} as const;
const thing = { $id: 'Thing', type: 'object', properties: { a: { type: 'integer' } } } as const;
const resolve = (ref: string) => (ref === 'Thing#' ? (thing as unknown as Record<string, unknown>) : undefined);

async function route() {
  const app = Fastify({ ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } } });
  app.addSchema(thing);
  app.post('/r/:id/:job/:n', { schema: { body, querystring, params } }, async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('schema samples', () => {
  it('makes a body, params and a query the schema accepts', async () => {
    const app = await route();
    const [id, job, n] = ['id', 'job', 'n'].map((p) => paramSample(params, p, resolve));
    expect(n).toBeUndefined();
    const res = await app.inject({
      method: 'POST',
      url: `/r/${id!}/${job!}/x?q=abc`,
      payload: validSample(body as unknown as Record<string, unknown>, resolve) as object,
    });
    expect([res.statusCode, res.body]).toEqual([200, '{"ok":true}']);
    await app.close();
  });

  it('makes a refusal for each typed body field and each bounded query field, and none for untyped ones', async () => {
    const app = await route();
    const found = refusals({ body, querystring }, resolve);
    expect(found.map((f) => `${f.part}.${f.field}`).sort()).toEqual(
      [
        'body.name',
        'body.site',
        'body.when',
        'body.key',
        'body.tags',
        'body.nested',
        'body.ratio',
        'body.ref',
        'querystring.q',
      ].sort(),
    );
    const valid = validSample(body as unknown as Record<string, unknown>, resolve) as object;
    for (const f of found) {
      const res = await app.inject({
        method: 'POST',
        url: `/r/1/00000000-0000-4000-8000-000000000000/x${f.part === 'querystring' ? `?${f.field}=${String(f.value)}` : ''}`,
        payload: f.part === 'body' ? { ...valid, [f.field]: f.value } : valid,
      });
      expect([f.field, res.statusCode]).toEqual([f.field, 400]);
      expect(JSON.stringify(res.json())).toContain(f.field);
    }
    await app.close();
  });
});
