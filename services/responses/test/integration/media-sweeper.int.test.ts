// Uploads never completed expire (issue 18): against a real PostgreSQL and the fs object store, the sweeper deletes
// pending media older than their time to live, object and row, and leaves recent and completed ones alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra, type TestInfra } from '@fieldwork/launcher';
import { createLogger, createPool, FsObjectStore, migrate, type Sql } from '@fieldwork/service-kit';
import { startMediaSweeper } from '../../src/events/media-sweeper.js';
import { ResponseStore } from '../../src/store/response.store.js';

let infra: TestInfra;
let sql: Sql;
const dir = mkdtempSync(join(tmpdir(), 'fw-sweep-'));
const files = new FsObjectStore({ root: dir, publicBaseUrl: 'http://files.test', signingSecret: 'x'.repeat(40) });
const log = createLogger('test', 'silent');

beforeAll(async () => {
  infra = await testInfra();
  sql = createPool(infra.databaseUrl, { schema: 'responses', appName: 'sweeper-test' });
  await migrate(sql, { schema: 'responses', dir: new URL('../../migrations', import.meta.url).pathname, log });
});
afterAll(async () => {
  await sql?.end();
  await infra?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function media(name: string, status: 'pending' | 'uploaded', minutesAgo: number): Promise<string> {
  const key = `images/1/1-1-x/${name}.png`;
  await files.put(key, Buffer.from(name), { contentType: 'image/png' });
  await sql`
    insert into media (media_id, response_id, project_id, kind, object_key, filename, content_type, declared_size, status, created_at, survey_id)
    values (gen_random_uuid(), '1-1-x', 1, 'image', ${key}, ${name}, 'image/png', 10, ${status}, now() - make_interval(mins => ${minutesAgo}), 7)`;
  return key;
}

describe('media sweeper', () => {
  it('deletes uploads never completed after their time to live, object and row, and keeps the rest', async () => {
    const stale = await media('stale', 'pending', 90);
    const recent = await media('recent', 'pending', 5);
    const done = await media('done', 'uploaded', 90);
    const sweeper = startMediaSweeper({ store: new ResponseStore(sql), files, log, ttlSeconds: 3600, everyMs: 50 });
    try {
      await expect
        .poll(async () => (await sql`select 1 from media where object_key = ${stale}`).length, { timeout: 5000 })
        .toBe(0);
    } finally {
      await sweeper.stop();
    }
    expect(await files.stat(stale)).toBeUndefined();
    expect(await files.stat(recent)).toBeDefined();
    expect(await files.stat(done)).toBeDefined();
    expect(
      (await sql<{ filename: string }[]>`select filename from media order by filename`).map((r) => r.filename),
    ).toEqual(['done', 'recent']);
    // What a link asked for counts against its quota until it goes; the recent one still waits for its bytes.
    expect(await new ResponseStore(sql).linkUsage(7)).toEqual({ responses: 0, mediaBytes: 20, pendingMedia: 1 });
  });
});
