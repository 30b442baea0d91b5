// The responses service's export pages: a project's live responses in id order after a cursor, page by page, each
// exactly once, deleted ones left out (the source export jobs stream from).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { responses } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await t?.stop();
});

describe('export pages', () => {
  it('pages through live responses with a cursor, each once', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
    const q = addItem(b.body, b.id, 'number', 'en', 'Area');
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Export pages', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...q.body, revision: 1 } })).status,
    ).toBe(200);
    for (let i = 0; i < 7; i++) {
      const r = await api('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: { sampler_schema: schema, response_id: `${p.id}-${schema}-1-e-${i}`, data: { '0': { [q.id]: i * 10 } } },
      });
      expect(r.status).toBe(201);
    }
    await api('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: {
        sampler_schema: schema,
        response_id: `${p.id}-${schema}-1-e-3`,
        deleted: true,
        time_updated: new Date().toISOString(),
        data: { '0': { [q.id]: 30 } },
      },
    });
    const grpc = createClient(responses.ResponsesServiceClient, `127.0.0.1:${t.ports.responses}`, {
      secret: t.contextSecret,
    });
    try {
      const seen: Json[] = [];
      let after = 0;
      let pages = 0;
      do {
        const page = await grpc.exportPage({
          project_id: p.id,
          schema_id: schema,
          after_id: after,
          limit: 3,
          profile: '',
          with_repeats: false,
        });
        seen.push(...page.rows.map((r) => ({ ...r, data: JSON.parse(r.data_json) as unknown })));
        after = page.last_id;
        pages++;
      } while (after !== 0 && pages < 10);
      // Two full pages, then an empty one that ends the walk.
      expect(pages).toBe(3);
      expect(seen.map((r) => r.response_id)).toEqual([0, 1, 2, 4, 5, 6].map((i) => `${p.id}-${schema}-1-e-${i}`));
      expect(seen[1]).toMatchObject({
        schema_id: schema,
        user_id: owner.user.id,
        completed: false,
        data: { '0': { [q.id]: 10 } },
      });
      const other = await grpc.exportPage({
        project_id: p.id,
        schema_id: schema + 1000,
        after_id: 0,
        limit: 0,
        profile: '',
        with_repeats: false,
      });
      expect(other.rows).toEqual([]);
    } finally {
      grpc.close();
    }
  }, 60_000);
});
