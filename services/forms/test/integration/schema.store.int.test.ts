// The schema store against a real PostgreSQL: a save answers the JSON it stored without reading it back, lists
// versions with their question counts without their bodies, refuses a stale revision, and prunes old revisions; made
// with a transaction's handle (an import of several levels' forms), its saves are part of that transaction.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra, type TestInfra } from '@fieldwork/launcher';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { createLogger, createPool, migrate, transaction, type Sql } from '@fieldwork/service-kit';
import { REVISIONS_KEPT, SchemaStore } from '../../src/store/schema.store.js';

let infra: TestInfra;
let sql: Sql;
let store: SchemaStore;

beforeAll(async () => {
  infra = await testInfra();
  // The migrations name the forms schema; the run's database is its own.
  const schema = 'forms';
  sql = createPool(infra.databaseUrl, { schema, appName: 'forms-store-test' });
  await sql.unsafe(`create schema if not exists ${schema}`);
  await migrate(sql, { schema, dir: fileURLToPath(new URL('../../migrations', import.meta.url)), log: createLogger('test', 'silent') });
  store = new SchemaStore(sql);
});
afterAll(async () => {
  await sql?.end();
  await infra?.dispose();
});

const formWith = (questions: number) => {
  const b = addBlock(newSchemaBody('S'), { en: 'Block' });
  let body = b.body;
  for (let i = 0; i < questions; i++) body = addItem(body, b.id, 'number', 'en', `Q${i}`).body;
  return body;
};

describe('schema store', () => {
  it('saves, answers the stored JSON, lists versions by question count, refuses stale revisions, prunes old ones', async () => {
    const row = await store.create({ project_id: 1, name: 'Store', level: 0, body: newSchemaBody('S') });
    const first = formWith(2);
    const saved = await store.save(row.id, first, 'Named', row.revision, 7);
    expect(saved).toMatchObject({ id: row.id, revision: row.revision + 1, name: 'Named' });
    expect(JSON.parse(saved!.body_json)).toEqual(first);
    expect((await store.byId(row.id))!.body).toEqual(first);
    // A save over a revision someone else has moved past is refused, and changes nothing.
    expect(await store.save(row.id, formWith(5), undefined, row.revision, 7)).toBeUndefined();
    expect((await store.byId(row.id))!.revision).toBe(row.revision + 1);

    let revision = saved!.revision;
    for (let i = 0; i < REVISIONS_KEPT + 5; i++) revision = (await store.save(row.id, formWith(i % 4), undefined, revision, 7))!.revision;
    const [{ count, oldest }] = (await sql<{ count: number; oldest: number }[]>`
      select count(*)::int as count, min(revision) as oldest from schema_revisions where schema_id = ${row.id}`) as unknown as [{ count: number; oldest: number }];
    // The newest REVISIONS_KEPT before the current one, and the current one.
    expect(count).toBe(REVISIONS_KEPT + 1);
    expect(oldest).toBe(revision - REVISIONS_KEPT);
    const listed = await store.versions(row.id, revision, 3);
    expect(listed.map((v) => [v.revision, v.questions])).toEqual([
      [revision - 1, (REVISIONS_KEPT + 3) % 4],
      [revision - 2, (REVISIONS_KEPT + 2) % 4],
      [revision - 3, (REVISIONS_KEPT + 1) % 4],
    ]);
    expect(listed[0]).not.toHaveProperty('body');
  });

  it("saves within a caller's transaction, undone with it", async () => {
    const row = await store.create({ project_id: 2, name: 'Levels', level: 1, body: newSchemaBody('S') });
    const failed = transaction(sql, async (tx) => {
      const inner = new SchemaStore(tx);
      await inner.keepCurrent(row);
      expect(await inner.save(row.id, formWith(3), 'Members', row.revision, 7)).toMatchObject({ revision: row.revision + 1 });
      throw new Error('the hierarchy was refused');
    });
    await expect(failed).rejects.toThrow('the hierarchy was refused');
    expect(await store.byId(row.id)).toMatchObject({ revision: row.revision, name: 'Levels', body: newSchemaBody('S') });
    expect(await store.versions(row.id, row.revision + 1, 10)).toEqual([]);
    const kept = await transaction(sql, async (tx) => new SchemaStore(tx).save(row.id, formWith(3), 'Members', row.revision, 7));
    expect(kept).toMatchObject({ revision: row.revision + 1, name: 'Members' });
    expect((await store.byId(row.id))!.body).toEqual(formWith(3));
  });
});
