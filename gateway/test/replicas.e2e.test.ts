// Replicas on one machine: two processes of every service but the results service (chDB is one process), the gateway
// balancing over them. During a steady load of uploads and results queries, one replica of each service in turn is
// killed with SIGKILL and started again; afterwards no accepted response is lost or doubled, and no request failed
// beyond the ones a client retried (a call in flight on the killed process fails once, with 503).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, startTestStack, waitServing, type TestStack } from '@fieldwork/launcher';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
const REPLICATED = ['auth', 'projects', 'forms', 'responses', 'exports'] as const;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack({ replicas: Object.fromEntries(REPLICATED.map((s) => [s, 2])) });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await t?.stop();
});

describe('replicas', () => {
  it('loses no response and fails no request beyond retried ones while one replica of each service is killed in turn', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
    const q = addItem(b.body, b.id, 'number', 'en', 'Count');
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Replicas', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...q.body, revision: 1 } })).status,
    ).toBe(200);
    expect(t.stack.children.has('responses-2') && t.stack.children.has('auth-2')).toBe(true);

    const figures = { requests: 0, retried: 0, failed: 0, uploads: 0 };
    const accepted = new Set<string>();
    /** A request, retried (up to 5 times) when the stack answers 5xx or the connection breaks. */
    const call = async (method: string, path: string, body: unknown): Promise<number> => {
      for (let attempt = 0; ; attempt++) {
        figures.requests++;
        const status = await api(method, path, { token: owner.access, body }).then(
          (r) => r.status,
          () => 0,
        );
        if (status > 0 && status < 500) return status;
        if (attempt === 5) {
          figures.failed++;
          return status;
        }
        figures.retried++;
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
      }
    };
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const id = `${p.id}-${schema}-1-r${w}-${i}`;
        const status = await call('POST', `project/${p.id}/response/`, {
          sampler_schema: schema,
          response_id: id,
          data: { '0': { [q.id]: i % 50 } },
        });
        figures.uploads++;
        if (status === 201 || status === 200) accepted.add(id);
        else throw new Error(`upload ${id} answered ${status}`);
        if (i % 3 === 0)
          expect(await call('POST', `project/${p.id}/results/schema/${schema}/`, { filters: {} })).toBe(200);
      }
    };
    const load = Array.from({ length: 6 }, (_, w) => worker(w));

    // One replica of each service in turn: SIGKILL, a moment down, started again, serving.
    for (const name of REPLICATED) {
      await new Promise((r) => setTimeout(r, 1500));
      const victim = t.stack.children.get(name)!;
      victim.process.kill('SIGKILL');
      await victim.exited;
      await new Promise((r) => setTimeout(r, 1000));
      const log = join(t.logDir, `${name}.log`);
      const again = startChild(name, victim.command, victim.args, victim.env, (_n, line) =>
        appendFileSync(log, `${line}\n`),
      );
      t.stack.children.set(name, again);
      await waitServing(`127.0.0.1:${t.ports[name]}`, `${name} again`, again);
    }
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await Promise.all(load);

    console.log(
      `replicas under load: ${figures.requests} requests, ${figures.uploads} uploads, ${figures.retried} retried, ${figures.failed} failed`,
    );
    expect(figures.failed).toBe(0);
    expect(accepted.size).toBeGreaterThan(50);
    // Every accepted response once in PostgreSQL, and once in the results.
    const sql = postgres(t.infra.databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      const rows = await sql<
        { response_id: string }[]
      >`select response_id from responses.responses where project_id = ${p.id}`;
      expect(rows.length).toBe(accepted.size);
      expect(new Set(rows.map((r) => r.response_id))).toEqual(accepted);
      const [o] = await sql<
        { u: number }[]
      >`select count(*) filter (where published_at is null)::int as u from responses.response_outbox where project_id = ${p.id}`;
      expect(o!.u, 'outbox rows left unpublished').toBe(0);
    } finally {
      await sql.end();
    }
    await expect
      .poll(
        async () =>
          (
            await api<Json>('POST', `project/${p.id}/results/schema/${schema}/`, {
              token: owner.access,
              body: { filters: {} },
            })
          ).body.levels?.[0]?.total_filtered_responses,
        { timeout: 90_000, interval: 1000 },
      )
      .toBe(accepted.size);
  }, 240_000);
});
