// The response outbox against a real PostgreSQL: pruning keeps every response's latest event and every unpublished
// or recent one, and deletes only superseded published events older than the retention.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra, type TestInfra } from '@fieldwork/launcher';
import { createLogger, createPool, migrate, type Sql } from '@fieldwork/service-kit';
import { ResponseStore } from '../../src/store/response.store.js';

let infra: TestInfra;
let sql: Sql;
let store: ResponseStore;

beforeAll(async () => {
  infra = await testInfra();
  sql = createPool(infra.databaseUrl, { schema: 'responses', appName: 'outbox-test' });
  await migrate(sql, {
    schema: 'responses',
    dir: new URL('../../migrations', import.meta.url).pathname,
    log: createLogger('test', 'silent'),
  });
  store = new ResponseStore(sql);
});

afterAll(async () => {
  await sql?.end();
  await infra?.dispose();
});

/** Adds an outbox row; `publishedHoursAgo` undefined leaves it unpublished. */
async function event(responseId: string, version: number, publishedHoursAgo?: number): Promise<void> {
  await sql`
    insert into response_outbox (response_id, project_id, version, payload, published_at)
    values (${responseId}, 1, ${version}, ${sql.json({ version })},
            ${publishedHoursAgo === undefined ? null : sql`now() - make_interval(hours => ${publishedHoursAgo})`})`;
}

const left = async () =>
  (
    await sql<
      { response_id: string; version: number }[]
    >`select response_id, version from response_outbox order by response_id, version`
  ).map((r) => `${r.response_id}:${r.version}`);

describe('outbox pruning', () => {
  it('deletes superseded published events past the retention and keeps the latest, unpublished and recent ones', async () => {
    for (const v of [1, 2, 3]) await event('1-1-old', v, 300); // three old published versions: only the last stays
    await event('1-1-single', 1, 300); // the only event of its response: stays however old
    await event('1-1-pending', 1, 300);
    await event('1-1-pending', 2); // superseded by an unpublished one: the old published one goes, the pending stays
    await event('1-1-recent', 1, 2);
    await event('1-1-recent', 2, 1); // within the retention: both stay
    await event('1-1-unpublished', 1);
    await event('1-1-unpublished', 2); // never published: both stay

    expect(await store.pruneOutbox(168, 10_000)).toBe(3);
    expect(await left()).toEqual([
      '1-1-old:3',
      '1-1-pending:2',
      '1-1-recent:1',
      '1-1-recent:2',
      '1-1-single:1',
      '1-1-unpublished:1',
      '1-1-unpublished:2',
    ]);
    expect(await store.pruneOutbox(168, 10_000)).toBe(0);
    expect(await store.unpublishedCount()).toBe(3);
  });

  it('works in batches of the limit, and only one replica prunes at a time', async () => {
    await sql`delete from response_outbox`;
    for (let v = 1; v <= 7; v++) await event('1-1-many', v, 200);
    expect(await store.pruneOutbox(168, 4)).toBe(4);
    expect(await store.pruneOutbox(168, 4)).toBe(2);
    expect(await left()).toEqual(['1-1-many:7']);

    for (let v = 8; v <= 9; v++) await event('1-1-many', v, 200);
    const other = await sql.reserve();
    try {
      await other`begin`;
      await other`select pg_advisory_xact_lock(hashtext('fieldwork.response_outbox.prune'))`;
      expect(await store.pruneOutbox(168, 10)).toBe(0); // another replica holds the lock: skip, do not wait
      await other`commit`;
    } finally {
      other.release();
    }
    expect(await store.pruneOutbox(168, 10)).toBe(2);
    expect(await left()).toEqual(['1-1-many:9']);
  });
});
