// Backups and restores for operators (docs/operations.md), behind `pnpm fieldwork backup ...` and
// `pnpm fieldwork results republish`:
// - a backup is a folder: postgres.dump (pg_dump's custom format of the whole database: every service's schema),
//   objects/ (every object of the store, in the fs adapter's layout, so the folder is itself an object store) and
//   manifest.json. The database is dumped first and the objects copied after: object keys are never reused, so every
//   object a dumped row names is in the folder.
// - restoring one project puts it back as it was in the backup while everything else goes on: the dump is restored
//   into a scratch database, the project's rows in the projects, forms and responses schemas replace the live ones in
//   one transaction, the files its rows name are copied back, and the latest version of each of its responses is
//   queued on the outbox again so that the results are rebuilt from PostgreSQL.
// - republishing queues the latest version of every response (or of one project's) again: the results store is
//   rebuilt from PostgreSQL, the system of record, whatever the stream still holds.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import { FsObjectStore, type ObjectStore } from '@fieldwork/service-kit';
import { createDatabaseIfMissing, databaseUrl, dropDatabase, postgresBinary, redact } from '../infra/postgres.js';
import { run } from '../infra/system.js';

type Log = (message: string) => void;

export interface BackupManifest {
  format: 1;
  created_at: string;
  database: string;
  objects: number;
  object_bytes: number;
}

/** The backup folder's objects as an object store (only put, get, stat and list are used). */
function folderStore(dir: string): FsObjectStore {
  return new FsObjectStore({
    root: join(dir, 'objects'),
    signingSecret: 'backup-folder-is-never-served-'.padEnd(32, '-'),
    publicBaseUrl: 'http://backup.invalid',
  });
}

async function copyObject(from: ObjectStore, to: ObjectStore, key: string): Promise<number> {
  const info = await from.stat(key);
  if (!info) return 0;
  await to.put(key, await from.get(key), { contentType: info.contentType, size: info.size });
  return info.size;
}

export async function createBackup(options: {
  databaseUrl: string;
  store: ObjectStore;
  out: string;
  log: Log;
}): Promise<BackupManifest> {
  const { out, log } = options;
  await mkdir(out, { recursive: true });
  log(`dumping ${redact(options.databaseUrl)}`);
  await run(postgresBinary('pg_dump'), [
    '--format=custom',
    '--no-owner',
    '--file',
    join(out, 'postgres.dump'),
    options.databaseUrl,
  ]);
  const folder = folderStore(out);
  await folder.ensureReady();
  let objects = 0;
  let bytes = 0;
  for await (const key of options.store.list()) {
    bytes += await copyObject(options.store, folder, key);
    objects++;
  }
  log(`copied ${objects} objects (${bytes} bytes)`);
  const manifest: BackupManifest = {
    format: 1,
    created_at: new Date().toISOString(),
    database: redact(options.databaseUrl),
    objects,
    object_bytes: bytes,
  };
  await writeFile(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Tables of one project, in the order they can be inserted (parents first); the rows of each are selected by `where`. */
interface Part {
  table: string;
  where: string;
}

/** The project's parts: every table of the three schemas with a project_id, and the few keyed otherwise. */
async function partsOf(sql: postgres.Sql, projectId: number): Promise<Part[]> {
  const tables = await sql<{ t: string }[]>`
    select c.table_schema || '.' || c.table_name as t
    from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
    where c.column_name = 'project_id' and t.table_type = 'BASE TABLE'
      and c.table_schema in ('projects', 'forms', 'responses')
      -- SQL access belongs with a PostgreSQL role of the cluster: granted again by the owner, not restored.
      and c.table_schema || '.' || c.table_name <> 'responses.sql_access'`;
  const first = ['projects.sites', 'projects.groups', 'projects.teams', 'forms.sampler_schemas'];
  const rest = tables.map((r) => r.t).filter((t) => !first.includes(t));
  const id = Number(projectId);
  return [
    { table: 'projects.projects', where: `id = ${id}` },
    ...first.filter((t) => tables.some((r) => r.t === t)).map((table) => ({ table, where: `project_id = ${id}` })),
    ...rest.sort().map((table) =>
      // A logo is uploaded before its project exists: its file row is the project's by the project's logo column.
      table === 'projects.project_files'
        ? {
            table,
            where: `project_id = ${id} or file_id::text = (select logo from projects.projects where id = ${id})`,
          }
        : { table, where: `project_id = ${id}` },
    ),
    {
      table: 'forms.schema_revisions',
      where: `schema_id in (select id from forms.sampler_schemas where project_id = ${id})`,
    },
  ];
}

export interface RestoreReport {
  rows: Record<string, number>;
  objects: number;
  republished: number;
}

export async function restoreProject(options: {
  databaseUrl: string;
  store: ObjectStore;
  from: string;
  projectId: number;
  log: Log;
}): Promise<RestoreReport> {
  const { log, projectId } = options;
  if (!Number.isSafeInteger(projectId) || projectId <= 0) throw new Error('--id must be a project id');
  const manifest = JSON.parse(await readFile(join(options.from, 'manifest.json'), 'utf8')) as BackupManifest;
  log(`restoring project ${projectId} from the backup of ${manifest.created_at}`);
  const scratchName = `fw_restore_${Date.now().toString(36)}`;
  const scratchUrl = databaseUrl(options.databaseUrl, scratchName);
  await createDatabaseIfMissing(options.databaseUrl, scratchName);
  const src = postgres(scratchUrl, { max: 1, onnotice: () => undefined });
  const dst = postgres(options.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await run(postgresBinary('pg_restore'), [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--dbname',
      scratchUrl,
      join(options.from, 'postgres.dump'),
    ]);
    const [found] = await src<{ name: string }[]>`select name from projects.projects where id = ${projectId}`;
    if (!found) throw new Error(`project ${projectId} is not in the backup of ${manifest.created_at}`);
    const parts = await partsOf(src, projectId);
    const report: RestoreReport = { rows: {}, objects: 0, republished: 0 };
    const keys = new Set<string>();
    await dst.begin(async (tx) => {
      await keepLiveState(tx, projectId);
      // What the live database holds of the project goes first (children before parents), then the backup's rows.
      for (const { table, where } of [...parts].reverse()) await tx.unsafe(`delete from ${table} where ${where}`);
      for (const { table, where } of parts) {
        let n = 0;
        for await (const batch of src
          .unsafe<{ r: Record<string, unknown> }[]>(`select to_jsonb(t) as r from ${table} t where ${where}`)
          .cursor(500)) {
          const rows = batch.map((b) => b.r);
          for (const row of rows)
            for (const [column, value] of Object.entries(row))
              if (/(^|_)key$|^logo$/.test(column) && typeof value === 'string' && value !== '') keys.add(value);
          await tx.unsafe(
            `insert into ${table} overriding system value select * from jsonb_populate_recordset(null::${table}, $1::jsonb) on conflict do nothing`,
            [tx.json(rows as never)],
          );
          n += rows.length;
        }
        report.rows[table] = n;
      }
      report.republished = await supersede(tx, projectId);
    });
    // The files the rows name, where the live store lacks them.
    const folder = folderStore(options.from);
    for (const key of keys) {
      const valid = await folder.stat(key).catch(() => undefined);
      if (valid && !(await options.store.stat(key).catch(() => undefined))) {
        await copyObject(folder, options.store, key);
        report.objects++;
      }
    }
    log(
      `restored ${Object.entries(report.rows)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}; ${report.objects} files; ${report.republished} responses queued for the results`,
    );
    return report;
  } finally {
    await src.end();
    await dst.end();
    await dropDatabase(options.databaseUrl, scratchName);
  }
}

/**
 * Keeps the live state of the project's responses (version, answers, latest event) in a temporary table for
 * `supersede`, in PostgreSQL rather than in this process: a project may hold millions of responses.
 */
async function keepLiveState(tx: postgres.TransactionSql, projectId: number): Promise<void> {
  await tx`
    create temp table restore_before on commit drop as
    select r.response_id, r.version, r.data, o.payload
    from responses.responses r
    left join lateral (select payload from responses.response_outbox where response_id = r.response_id order by id desc limit 1) o on true
    where r.project_id = ${projectId}`;
}

/**
 * A restore is a change like any other: every restored response gets a version above both its backup and its live
 * one, with an event that names the answers that went (present live, absent restored); a response that exists only
 * live (made after the backup) is gone from PostgreSQL and gets a deleting event. The results then follow, as for any
 * upload. All of it in SQL over the live state kept by `keepLiveState`.
 */
async function supersede(tx: postgres.TransactionSql, projectId: number): Promise<number> {
  await tx`
    create temp table restore_events on commit drop as
    with restored as (
      select r.response_id, r.data, o.payload, greatest(r.version, coalesce(b.version, 0)) + 1 as version, b.data as was
      from responses.responses r
      join lateral (select payload from responses.response_outbox where response_id = r.response_id order by id desc limit 1) o on true
      left join restore_before b using (response_id)
      where r.project_id = ${projectId}
    )
    select response_id, version, payload || jsonb_build_object('version', version, 'removed', coalesce((
             select jsonb_agg(w.repeat || '.' || a.item order by w.n, a.n)
             from jsonb_each(coalesce(was, '{}'::jsonb)) with ordinality as w(repeat, answers, n),
                  jsonb_each(w.answers) with ordinality as a(item, value, n)
             where not coalesce((data -> w.repeat) ? a.item, false)), '[]'::jsonb)) as payload, false as deleted
    from restored
    union all
    select b.response_id, b.version + 1, b.payload || jsonb_build_object('version', b.version + 1, 'deleted', true, 'removed', '[]'::jsonb), true
    from restore_before b
    where b.payload is not null and not exists (select 1 from responses.responses r where r.response_id = b.response_id and r.project_id = ${projectId})`;
  await tx`
    update responses.responses r set version = e.version
    from restore_events e where r.response_id = e.response_id and not e.deleted`;
  const queued = await tx`
    insert into responses.response_outbox (response_id, project_id, version, payload)
    select response_id, ${projectId}, version, payload from restore_events order by response_id`;
  return queued.count;
}

/** Queues the latest version of each response (of one project, or all) on the outbox again; answers how many. */
async function queueLatest(sql: postgres.Sql | postgres.TransactionSql, projectId?: number): Promise<number> {
  const rows = await sql`
    update responses.response_outbox set published_at = null, attempts = 0
    where id in (
      select max(id) from responses.response_outbox
      where ${projectId === undefined ? sql`true` : sql`project_id = ${projectId}`}
      group by response_id)
    returning id`;
  return rows.length;
}

/** Rebuilds the results from PostgreSQL: the responses service's relay publishes what is queued here. */
export async function republish(options: { databaseUrl: string; projectId?: number }): Promise<number> {
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    return await queueLatest(sql, options.projectId);
  } finally {
    await sql.end();
  }
}
