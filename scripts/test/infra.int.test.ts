// The fresh-machine path of the launcher: our own PostgreSQL cluster (initdb as the postgres user when root) and
// our own nats-server with JetStream, started, used, restarted with their data, and stopped.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { ensureNats, ensurePostgres, freePort, jetStreamAnswers, portOpen } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-infra-'));
chmodSync(dir, 0o755);
const log = () => {};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('own PostgreSQL cluster', () => {
  it('creates a cluster, keeps its data across a restart, and stops only what it started', async () => {
    const port = await freePort();
    const first = await ensurePostgres({ dataDir: dir, port, log, own: true });
    expect(first.started).toBe(true);
    const sql = postgres(first.adminUrl, { max: 1, onnotice: () => {} });
    await sql`create table if not exists kept (v text)`;
    await sql`insert into kept values ('survives')`;
    await sql.end();
    await first.stop();
    expect(await portOpen(port)).toBe(false);

    const second = await ensurePostgres({ dataDir: dir, port, log, own: true });
    const again = postgres(second.adminUrl, { max: 1, onnotice: () => {} });
    expect(await again`select v from kept`).toEqual([{ v: 'survives' }]);
    await again.end();
    // A second finder sees the running server and does not own it.
    const third = await ensurePostgres({ dataDir: dir, port, log, own: true });
    expect(third.started).toBe(false);
    await second.stop();
  }, 120_000);
});

describe('own nats-server', () => {
  it('starts nats-server with JetStream on its own port and stops it', async () => {
    const port = await freePort();
    const nats = await ensureNats({ dataDir: dir, port, log, own: true });
    expect(nats).toMatchObject({ url: `nats://127.0.0.1:${port}`, started: true });
    expect(await jetStreamAnswers(nats.url)).toBe(true);
    await nats.stop();
    expect(await jetStreamAnswers(nats.url)).toBe(false);
  }, 60_000);
});
