// Faults under load (issue 9 §2): while clients upload responses at a steady pace, each of these happens in turn —
// kill -9 of every service and of the gateway (started again after two seconds), kill -9 of NATS (started again on
// the same store), an immediate (crash-like) restart of PostgreSQL, and the results writer stalled for 20 s, twice
// its consumer's ack wait (SIGSTOP: its chDB inserts and acknowledgements stop, as with a ClickHouse server that
// hangs) — and afterwards every accepted response is in PostgreSQL once and in the results once, and every 2xx answer
// was durable.
// Clients behave as the offline-first web client does: a 5xx or a broken connection is retried (same response_id).
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureNats,
  ensurePostgres,
  freePort,
  startChild,
  startTestStack,
  waitServing,
  type NatsHandle,
  type PostgresHandle,
  type TestStack,
} from '@fieldwork/launcher';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-faults-'));
const log = (m: string) => process.stderr.write(`[faults] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let pg: PostgresHandle;
let nats: NatsHandle;
let natsPort: number;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  chmodSync(dir, 0o755); // the cluster runs as the postgres user, who must reach its directory
  pg = await ensurePostgres({ dataDir: dir, port: await freePort(), own: true, log });
  natsPort = await freePort();
  nats = await ensureNats({ dataDir: dir, port: natsPort, own: true, log });
  t = await startTestStack({ natsUrl: nats.url, postgresAdminUrl: pg.adminUrl });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await nats?.stop();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a killed child again with the same command and environment, and waits until it serves. */
async function restart(name: string): Promise<void> {
  const victim = t.stack.children.get(name)!;
  const file = join(t.logDir, `${name}.log`);
  const again = startChild(name, victim.command, victim.args, victim.env, (_n, line) =>
    appendFileSync(file, `${line}\n`),
  );
  t.stack.children.set(name, again);
  if (name === 'gateway') {
    await expect
      .poll(async () => (await fetch(`${t.baseUrl}/readyz`).catch(() => undefined))?.status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(200);
  } else {
    await waitServing(`127.0.0.1:${t.ports[name as keyof typeof t.ports]}`, `${name} again`, again);
  }
}

async function kill9(name: string): Promise<void> {
  const victim = t.stack.children.get(name)!;
  victim.process.kill('SIGKILL');
  await victim.exited;
}

describe('faults under load', () => {
  it('keeps every accepted response, once, through kill -9 of each part, a PostgreSQL crash restart and a stalled results writer', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
    const q = addItem(b.body, b.id, 'number', 'en', 'Count');
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Faults', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...q.body, revision: 1 } })).status,
    ).toBe(200);

    const figures = { sent: 0, accepted: 0, requests: 0, retried: 0, failed: 0 };
    const accepted = new Set<string>();
    const sent = new Set<string>();
    const failures: string[] = [];
    const upload = async (id: string, value: number): Promise<void> => {
      const began = Date.now();
      for (let attempt = 0; ; attempt++) {
        figures.requests++;
        const r = await api<Json>('POST', `project/${p.id}/response/`, {
          token: owner.access,
          body: { sampler_schema: schema, response_id: id, data: { '0': { [q.id]: value } } },
        }).catch(() => undefined);
        if (r && (r.status === 201 || r.status === 200)) {
          accepted.add(id);
          return;
        }
        if (r && r.status < 500) throw new Error(`upload ${id} answered ${r.status}: ${JSON.stringify(r.body)}`);
        if (Date.now() - began > 120_000) {
          figures.failed++;
          failures.push(`${id}: ${r ? r.status : 'no answer'}`);
          return;
        }
        figures.retried++;
        await sleep(Math.min(2000, 100 * 2 ** attempt));
      }
    };
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const id = `${p.id}-${schema}-1-f${w}-${i}`;
        sent.add(id);
        await upload(id, i % 100);
        await sleep(20);
      }
    };
    const load = Array.from({ length: 4 }, (_, w) => worker(w));
    const faults: string[] = [];
    const step = async (what: string, fault: () => Promise<void>) => {
      await sleep(1500);
      const before = accepted.size;
      const began = Date.now();
      log(what);
      await fault();
      faults.push(
        `${what} (${((Date.now() - began) / 1000).toFixed(1)} s, ${accepted.size - before} accepted meanwhile)`,
      );
    };

    for (const name of ['auth', 'projects', 'forms', 'responses', 'results', 'exports', 'gateway']) {
      await step(`kill -9 ${name}`, async () => {
        await kill9(name);
        await sleep(2000);
        await restart(name);
      });
    }
    await step('kill -9 NATS', async () => {
      process.kill(nats.pid!, 'SIGKILL');
      await nats.stop();
      await sleep(2000);
      nats = await ensureNats({ dataDir: dir, port: natsPort, own: true, log });
    });
    await step('PostgreSQL restarted in immediate mode (crash recovery)', async () => {
      await pg.restart!('immediate');
    });
    // 20 s: twice the results consumer's ack wait (10 s), so its unacknowledged batches are redelivered meanwhile.
    await step('results writer stalled for 20 s', async () => {
      const results = t.stack.children.get('results')!;
      results.process.kill('SIGSTOP');
      await sleep(20_000);
      results.process.kill('SIGCONT');
    });
    await sleep(3000);
    stop = true;
    await Promise.all(load);
    figures.sent = sent.size;
    figures.accepted = accepted.size;

    const sql = postgres(t.infra.databaseUrl, { max: 1, onnotice: () => undefined });
    let stored: string[];
    try {
      stored = (
        await sql<{ response_id: string }[]>`select response_id from responses.responses where project_id = ${p.id}`
      ).map((r) => r.response_id);
      await expect
        .poll(
          async () =>
            (
              await sql<
                { n: number }[]
              >`select count(*)::int as n from responses.response_outbox where project_id = ${p.id} and published_at is null`
            )[0]!.n,
          { timeout: 60_000 },
        )
        .toBe(0);
    } finally {
      await sql.end();
    }
    let inResults = 0;
    await expect
      .poll(
        async () =>
          (inResults =
            (
              await api<Json>('POST', `project/${p.id}/results/schema/${schema}/`, {
                token: owner.access,
                body: { filters: {} },
              })
            ).body.levels?.[0]?.total_filtered_responses ?? -1),
        { timeout: 180_000, interval: 1000 },
      )
      .toBe(accepted.size);

    const report = `faults under load: ${figures.sent} responses sent, ${figures.accepted} accepted (2xx), ${stored.length} stored in PostgreSQL, ${inResults} in the results; ${figures.requests} requests, ${figures.retried} retried, ${figures.failed} given up\n  ${faults.join('\n  ')}`;
    console.log(report);
    appendFileSync(join(t.logDir, 'faults-figures.txt'), `${report}\n`);
    expect(failures).toEqual([]);
    expect(accepted.size).toBeGreaterThan(500);
    // Every response sent was accepted (clients retry), stored exactly once, and counted once in the results.
    expect(new Set(stored)).toEqual(accepted);
    expect(stored.length).toBe(accepted.size);
    expect(accepted).toEqual(sent);
  }, 900_000);
});
