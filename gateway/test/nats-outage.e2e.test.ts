// The outbox (docs/architecture.md): NATS stops in the middle of a run of uploads and starts again; every accepted response
// change is then on the stream exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { ensureNats, freePort, startTestStack, type NatsHandle, type TestStack } from '@fieldwork/launcher';
import { client, login, point, type Api, type Session } from './helpers.js';

let t: TestStack;
let api: Api;
let owner: Session;
let nats: NatsHandle;
let natsPort: number;
const natsDir = mkdtempSync(join(tmpdir(), 'fieldwork-outage-'));
const log = (m: string) => process.stderr.write(`[outage] ${m}\n`);

beforeAll(async () => {
  natsPort = await freePort();
  nats = await ensureNats({ dataDir: natsDir, port: natsPort, own: true, log });
  t = await startTestStack({ natsUrl: nats.url });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await t?.stop();
  await nats?.stop();
  rmSync(natsDir, { recursive: true, force: true });
});

async function streamIds(stream: string): Promise<string[]> {
  const nc = await connect({ servers: nats.url.replace(/^nats:\/\//, ''), reconnect: false });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream);
    const ids: string[] = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (m) ids.push(m.header?.get('Nats-Msg-Id') ?? '');
    }
    return ids;
  } finally {
    await nc.close();
  }
}

it('publishes every response accepted while NATS was down once it is back, exactly once', async () => {
  const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
  const q = addItem(b.body, b.id, 'number', 'en', 'Count');
  const p = (
    await api<Record<string, any>>('POST', 'project/', {
      token: owner.access,
      body: { name: 'Outage', organization_pk: owner.organization.id, geotag: point(0, 0) },
    })
  ).body;
  const schema = p.sampler_schemas[0].id as number;
  expect(
    (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...q.body, revision: 1 } })).status,
  ).toBe(200);

  const accepted = new Set<string>();
  let sent = 0;
  const upload = async (i: number, version: number) => {
    const response_id = `${p.id}-${schema}-1-outage-${i}`;
    sent++;
    const r = await api<Record<string, any>>('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: {
        sampler_schema: schema,
        response_id,
        time_updated: new Date(Date.now() - 60_000 + version * 1000).toISOString(),
        data: { '0': { [q.id]: version } },
      },
    });
    if (r.status === 201 || (r.status === 200 && r.body.upload_status === 'stored'))
      accepted.add(`${response_id}:${r.body.version}`);
    else throw new Error(`upload ${i} answered ${r.status}: ${JSON.stringify(r.body)}`);
  };
  const run = async (from: number, to: number, version: number) => {
    for (let i = from; i < to; i += 8)
      await Promise.all(Array.from({ length: Math.min(8, to - i) }, (_, k) => upload(i + k, version)));
  };

  await run(0, 60, 1);
  log('stopping NATS');
  await nats.stop();
  // While NATS is down: new responses and edits of earlier ones are all accepted.
  await run(60, 160, 1);
  await run(0, 30, 2);
  log('starting NATS again');
  nats = await ensureNats({ dataDir: natsDir, port: natsPort, own: true, log });
  await run(160, 200, 1);

  expect(accepted.size).toBe(230);
  expect(sent).toBe(230);
  const stream = `${t.infra.natsPrefix}_RESPONSES`;
  let ids: string[] = [];
  for (let i = 0; i < 120; i++) {
    ids = await streamIds(stream).catch(() => []);
    if (ids.length >= accepted.size) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  // Exactly once: no duplicate ids, nothing missing, nothing extra.
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids)).toEqual(accepted);
  log(`sent ${sent}, accepted ${accepted.size}, on the stream ${ids.length}`);
}, 180_000);
