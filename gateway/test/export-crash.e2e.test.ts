// A worker killed in the middle of an export job: after EXPORT_ACK_WAIT_S the job goes to another worker process,
// which writes the whole file again; the file has every response once, nothing duplicated or cut.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { parse } from 'csv-parse/sync';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { startChild, startTestStack, waitServing, type Child, type TestStack } from '@fieldwork/launcher';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;
let replacement: Child | undefined;

beforeAll(async () => {
  // Small pages with a pause between them make the job last a few seconds; a dead worker is noticed after 2 s.
  t = await startTestStack({
    extraEnv: { EXPORT_PAGE_SIZE: '25', EXPORT_PAGE_DELAY_MS: '150', EXPORT_ACK_WAIT_S: '2' },
  });
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await replacement?.stop(5000);
  await t?.stop();
});

describe('export worker crash', () => {
  it('finishes a job whose worker was killed, in another worker, with every row once', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
    const q = addItem(b.body, b.id, 'number', 'en', 'Area');
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Crash', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...q.body, revision: 1 } })).status,
    ).toBe(200);
    const N = 500;
    for (let start = 0; start < N; start += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, k) =>
          api('POST', `project/${p.id}/response/`, {
            token: owner.access,
            body: {
              sampler_schema: schema,
              response_id: `${p.id}-${schema}-1-c-${start + k}`,
              data: { '0': { [q.id]: (start + k) % 100 } },
            },
          }),
        ),
      );
    }
    const started = await api<Json>('GET', `project/${p.id}/named_csv/?wait=0`, { token: owner.access });
    const jobId = started.body.job.id as string;
    let job: Json = started.body.job;
    for (let i = 0; i < 100 && !(job.status === 'running' && job.rows_done >= 100); i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await api<Json>('GET', `exports/jobs/${jobId}/`, { token: owner.access })).body;
    }
    expect(job).toMatchObject({ status: 'running' });
    expect(job.rows_done).toBeLessThan(N);

    // kill -9 the only worker in the middle of the job, then start another process in its place.
    const worker = t.stack.children.get('exports')!;
    worker.process.kill('SIGKILL');
    await worker.exited;
    const log = join(t.logDir, 'exports-2.log');
    replacement = startChild('exports-2', worker.command, worker.args, worker.env, (_n, line) =>
      appendFileSync(log, `${line}\n`),
    );
    await waitServing(`127.0.0.1:${t.ports.exports}`, 'the second exports worker', replacement);

    for (let i = 0; i < 200 && job.status !== 'done' && job.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const r = await api<Json>('GET', `exports/jobs/${jobId}/`, { token: owner.access });
      if (r.status === 200) job = r.body;
    }
    expect(job).toMatchObject({ status: 'done', rows_done: N, rows_total: N });
    const res = await fetch(job.url.startsWith('http') ? job.url : `${t.baseUrl}${job.url}`);
    const rows = parse((await res.text()).replace(/^\uFEFF/, '')) as string[][];
    const ids = rows.slice(1).map((r) => r[0]);
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    const sql = postgres(t.infra.databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      const [row] = await sql<{ attempts: number }[]>`select attempts from exports.jobs where id = ${jobId}`;
      expect(row!.attempts).toBe(2);
    } finally {
      await sql.end();
    }
  }, 180_000);
});
