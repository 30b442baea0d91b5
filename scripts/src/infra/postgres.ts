// PostgreSQL for the single machine and for tests: the URL given, else the local server if one answers, else a
// throwaway cluster of our own from the machine's PostgreSQL binaries (installing Debian's postgresql if needed).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import { aptInstall, isRoot, run } from './system.js';
import { waitFor } from './net.js';

export interface PostgresHandle {
  /** URL of the `postgres` maintenance database (creating databases goes through it). */
  adminUrl: string;
  /** True when this process started the server (and stop() stops it). */
  started: boolean;
  stop(): Promise<void>;
  /** Restarts a server this process started; `immediate` aborts every server process as a crash would. */
  restart?(mode: 'fast' | 'immediate'): Promise<void>;
}

const LOCAL_CANDIDATES = [
  'postgres://postgres@127.0.0.1:5432/postgres',
  'postgres://postgres@localhost/postgres?host=/var/run/postgresql',
];

export async function canConnect(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

function findBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], 'bin');
}

/** A PostgreSQL client program (pg_dump, pg_restore, ...): on PATH, else the newest of the machine's versions. */
export function postgresBinary(name: string): string {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  const dir = findBinDir();
  // Debian's wrappers on PATH pick a version by cluster; the newest binary reads dumps of every older server.
  if (dir && existsSync(join(dir, name))) return join(dir, name);
  if (onPath) return onPath;
  throw new Error(`${name} not found: install PostgreSQL's client programs (apt-get install -y postgresql-client)`);
}

/** Runs a PostgreSQL binary as the `postgres` user when we are root (initdb refuses root). */
function pgRun(bin: string, args: string[]): Promise<string> {
  return isRoot() ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
}

export async function ensurePostgres(options: {
  url?: string;
  dataDir: string;
  port: number;
  log: (msg: string) => void;
  /** Always run our own cluster, even when a local server answers. */
  own?: boolean;
}): Promise<PostgresHandle> {
  const { log } = options;
  const none = { started: false, stop: async () => {} };
  if (options.url) {
    if (!(await canConnect(options.url)))
      throw new Error(`PostgreSQL at DATABASE_URL does not answer: ${redact(options.url)}`);
    return { adminUrl: options.url, ...none };
  }
  for (const url of options.own ? [] : LOCAL_CANDIDATES) {
    if (await canConnect(url)) {
      log(`using the local PostgreSQL server (${redact(url)})`);
      return { adminUrl: url, ...none };
    }
  }
  const ownUrl = `postgres://postgres@127.0.0.1:${options.port}/postgres`;
  if (await canConnect(ownUrl)) {
    log(`using PostgreSQL on port ${options.port}`);
    return { adminUrl: ownUrl, ...none };
  }

  let bin = findBinDir();
  if (!bin) {
    await aptInstall(['postgresql'], log);
    // The package may have started its own cluster on 5432.
    if (!options.own && (await canConnect(LOCAL_CANDIDATES[0]!))) return { adminUrl: LOCAL_CANDIDATES[0]!, ...none };
    bin = findBinDir();
    if (!bin) throw new Error('PostgreSQL binaries not found after installing the postgresql package');
  }

  const dir = join(options.dataDir, 'postgres');
  mkdirSync(dir, { recursive: true });
  if (isRoot()) {
    const ids = await run('id', ['-u', 'postgres'])
      .then((u) => Number(u.trim()))
      .catch(() => undefined);
    const gid = await run('id', ['-g', 'postgres'])
      .then((g) => Number(g.trim()))
      .catch(() => undefined);
    if (ids === undefined || gid === undefined) throw new Error('no postgres system user to run the cluster as');
    chownSync(dir, ids, gid);
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log(`creating a PostgreSQL cluster in ${dir}`);
    await pgRun(join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  }
  log(`starting PostgreSQL on port ${options.port}`);
  const start = async () => {
    await pgRun(join(bin, 'pg_ctl'), [
      '-D',
      dir,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${options.port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300`,
      'start',
    ]);
    await waitFor('PostgreSQL', async () => ((await canConnect(ownUrl)) ? true : undefined), 30_000);
  };
  await start();
  return {
    adminUrl: ownUrl,
    started: true,
    restart: async (mode) => {
      log(`restarting PostgreSQL (${mode})`);
      await pgRun(join(bin, 'pg_ctl'), ['-D', dir, '-m', mode, '-w', 'stop']);
      await start();
    },
    stop: async () => {
      await pgRun(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']).catch((err: unknown) =>
        log(`stopping PostgreSQL: ${String(err)}`),
      );
    },
  };
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) await sql.unsafe(`create database ${name}`);
  } finally {
    await sql.end();
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await sql.end();
  }
}

export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}
