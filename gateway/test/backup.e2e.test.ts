// Backup and recovery (docs/operations.md) through the operator CLI, as an operator runs it: a backup of the
// database and the object store; then a project is damaged (its rows dropped by a mistaken statement, a response
// edited and another added after the backup, a file deleted from the store) while another project goes on; the
// project is restored from the backup and is as it was, in PostgreSQL, in the files and in the results, and the
// other project is untouched. Then the results are rebuilt from PostgreSQL (results republish).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
const CLI = fileURLToPath(new URL('../../scripts/dist/cli.js', import.meta.url));
const backupDir = mkdtempSync(join(tmpdir(), 'fieldwork-backup-'));
let t: TestStack;
let api: Api;
let owner: Session;
let db: postgres.Sql;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => undefined });
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
  rmSync(backupDir, { recursive: true, force: true });
});

function cli(...args: string[]): string {
  const objects = t.stack.children.get('responses')!.env.OBJECT_STORE_DIR!;
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: t.infra.databaseUrl, OBJECT_STORE: 'fs', OBJECT_STORE_DIR: objects },
  });
  if (r.status !== 0) throw new Error(`fieldwork ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

describe('backup and recovery', () => {
  it('restores a damaged project from a backup, in PostgreSQL, the files and the results, leaving the others alone', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
    const count = addItem(b.body, b.id, 'number', 'en', 'Count');
    const note = addItem(count.body, b.id, 'open', 'en', 'Note');
    const q = { id: count.id, body: note.body };
    const noteId = note.id;
    const make = async (name: string) => {
      const p = (
        await api<Json>('POST', 'project/', {
          token: owner.access,
          body: { name, organization_pk: owner.organization.id, geotag: point(1, 2) },
        })
      ).body;
      const schema = p.sampler_schemas[0].id as number;
      expect(
        (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...q.body, revision: 1 } }))
          .status,
      ).toBe(200);
      return { id: p.id as number, schema };
    };
    const upload = (p: { id: number; schema: number }, i: number, value: number, at = Date.now()) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: p.schema,
          response_id: `${p.id}-${p.schema}-1-b${i}`,
          time_updated: new Date(at).toISOString(),
          data: { '0': { [q.id]: value } },
        },
      });
    const total = async (p: { id: number; schema: number }) =>
      (
        await api<Json>('POST', `project/${p.id}/results/schema/${p.schema}/`, {
          token: owner.access,
          body: { filters: {} },
        })
      ).body.levels?.[0]?.total_filtered_responses;
    const values = async (p: { id: number }) =>
      Object.fromEntries(
        (await api<Json>('GET', `project/${p.id}/response/?limit=5000`, { token: owner.access })).body.results.map(
          (r: Json) => [r.response_id, r.data['0'][String(q.id)]],
        ),
      );

    const kept = await make('Backed up');
    const other = await make('Goes on');
    for (let i = 0; i < 20; i++) expect((await upload(kept, i, i, Date.now() - 60_000)).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await upload(other, 100 + i, i)).status).toBe(201);
    // One response without a count: counted after the backup, the restore must make the results forget that count.
    const unanswered = await api<Json>('POST', `project/${kept.id}/response/`, {
      token: owner.access,
      body: {
        sampler_schema: kept.schema,
        response_id: `${kept.id}-${kept.schema}-1-b21`,
        time_updated: new Date(Date.now() - 60_000).toISOString(),
        data: { '0': { [noteId]: 'no count yet' } },
      },
    });
    expect(unanswered.status, JSON.stringify(unanswered.body)).toBe(201);
    const site = await api<Json>('POST', `project/${kept.id}/sites/`, {
      token: owner.access,
      body: { name: 'North', geotag: point(3, 4) },
    });
    expect(site.status).toBe(201);
    const form = new FormData();
    form.append('file', new Blob(['a project document']), 'protocol.txt');
    const file = await api<Json>('POST', `project/${kept.id}/upload/`, { token: owner.access, form });
    expect(file.status).toBe(201);
    await expect.poll(() => total(kept), { timeout: 60_000 }).toBe(21);
    const projectBefore = (await api<Json>('GET', `project/${kept.id}/`, { token: owner.access })).body;
    const valuesBefore = await values(kept);

    const out = cli('backup', 'create', '--out', backupDir);
    expect(out).toMatch(/backup written to .*: the database and \d+ objects/);
    expect(existsSync(join(backupDir, 'postgres.dump'))).toBe(true);

    // The damage: edits and a new response after the backup, a file lost, and the project's rows dropped by mistake.
    expect((await upload(kept, 0, 99)).body.upload_status).toBe('stored');
    expect((await upload(kept, 21, 50)).body.upload_status).toBe('stored');
    expect((await upload(kept, 20, 7)).status).toBe(201);
    expect((await upload(other, 105, 5)).status).toBe(201);
    await expect.poll(() => total(kept), { timeout: 60_000 }).toBe(22);
    const statsOf = async (p: { id: number; schema: number }) =>
      (
        await api<Json>('POST', `project/${p.id}/results/schema/${p.schema}/`, {
          token: owner.access,
          body: { filters: {} },
        })
      ).body.items?.[0]?.stats;
    await expect.poll(() => statsOf(kept), { timeout: 30_000 }).toMatchObject({ max: 99 });
    const fileKey = (
      await db<
        { object_key: string }[]
      >`select object_key from projects.project_files where file_id = ${file.body.file_id}`
    )[0]!.object_key;
    rmSync(join(t.stack.children.get('projects')!.env.OBJECT_STORE_DIR!, fileKey));
    await db`delete from responses.responses where project_id = ${kept.id} and response_id like ${'%-b1%'}`;
    await db`delete from projects.projects where id = ${kept.id}`;
    expect((await api('GET', `project/${kept.id}/`, { token: owner.access })).status).toBe(404);

    const restored = cli('backup', 'restore-project', '--from', backupDir, '--id', String(kept.id));
    expect(restored).toMatch(
      new RegExp(`project ${kept.id} restored: 21 responses, 1 files, 22 result updates queued`),
    );

    // As it was: the project, its site, its file, its responses and their answers; the later response is gone.
    const projectAfter = (await api<Json>('GET', `project/${kept.id}/`, { token: owner.access })).body;
    expect(projectAfter.name).toBe('Backed up');
    expect(projectAfter.sampler_schemas).toEqual(projectBefore.sampler_schemas);
    expect(JSON.stringify(projectAfter)).toContain('"North"');
    expect(await values(kept)).toEqual(valuesBefore);
    expect(existsSync(join(t.stack.children.get('projects')!.env.OBJECT_STORE_DIR!, fileKey))).toBe(true);
    // The results follow: 21 responses, response 0 back to 0 (its restored version supersedes the later edit), and
    // response 21's later answer (50) forgotten: it had none in the backup.
    await expect.poll(() => total(kept), { timeout: 60_000 }).toBe(21);
    const stats = async () =>
      (
        await api<Json>('POST', `project/${kept.id}/results/schema/${kept.schema}/`, {
          token: owner.access,
          body: { filters: {} },
        })
      ).body.items?.[0]?.stats;
    await expect.poll(stats, { timeout: 30_000 }).toMatchObject({ max: 19, min: 0 });
    // The whole project as the API shows it (counts come from the results) is what it was.
    expect((await api<Json>('GET', `project/${kept.id}/`, { token: owner.access })).body).toEqual(projectBefore);
    // The other project went on and is untouched.
    expect(Object.keys(await values(other))).toHaveLength(6);
    expect(await total(other)).toBe(6);

    // Rebuilding the results from PostgreSQL changes nothing that is right.
    expect(cli('results', 'republish', '--id', String(kept.id))).toMatch(/^22 responses queued/); // the 21, and the tombstone of the one made after the backup
    await expect
      .poll(
        async () =>
          (
            await db<
              { n: number }[]
            >`select count(*)::int as n from responses.response_outbox where published_at is null`
          )[0]!.n,
        { timeout: 30_000 },
      )
      .toBe(0);
    expect(await total(kept)).toBe(21);
    expect(await stats()).toMatchObject({ max: 19, min: 0 });
  }, 180_000);
});
