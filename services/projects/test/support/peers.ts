// Shared by every service's *.service.test.ts (it sits with the projects service, whose access every other one asks).
// Our services in-process for the *.service.test.ts files: one test database and NATS prefix (testInfra), each
// service on a free port, built by its own buildX (app.ts) and served by startService as its main.ts serves it. The
// service under test is built from its classes on a migrated pool (migratedPool); the services it calls are these
// real ones, never fakes (CONTRIBUTING.md, tests by layer).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  freePort,
  serviceEnv,
  testInfra,
  SERVICES,
  type ServiceName,
  type StackPorts,
  type TestInfra,
} from '@fieldwork/launcher';
import { auth, common, projects } from '@fieldwork/proto';
import {
  createClient,
  createLogger,
  createPool,
  migrate,
  startService,
  type ServiceOptions,
  type Sql,
  type StartedService,
} from '@fieldwork/service-kit';

export interface Peers {
  infra: TestInfra;
  dataDir: string;
  /** Shared by every service of the run: signs the gateway's project grants (service-kit grant.ts). */
  contextSecret: string;
  /** The environment a service of this run starts with (pass it to its loadXConfig). */
  env(name: ServiceName): Record<string, string>;
  address(name: ServiceName): string;
  /** Also stops the pools made by migratedPool. */
  stop(): Promise<void>;
}

const migrations = (name: ServiceName) => new URL(`../../../${name}/migrations`, import.meta.url);

/** Starts `names` (in that order: a service's peers it checks at start first) on a fresh database. */
export async function startPeers(names: ServiceName[]): Promise<Peers> {
  const infra = await testInfra();
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldwork-service-test-'));
  const ports = { gateway: 0 } as StackPorts;
  for (const s of SERVICES) ports[s] = await freePort();
  const contextSecret = randomBytes(32).toString('hex');
  const objectStoreSecret = randomBytes(32).toString('hex');
  const env = (name: ServiceName) => ({
    ...serviceEnv(name, {
      dataDir,
      databaseUrl: infra.databaseUrl,
      natsUrl: infra.natsUrl,
      natsPrefix: infra.natsPrefix,
      jwtSecret: 'j'.repeat(40),
      objectStoreSecret,
      contextSecret,
      ports,
      gatewayHost: '127.0.0.1',
      publicUrl: 'http://fieldwork.test',
      logLevel: 'silent',
      sink: () => undefined,
    }),
    EXIT_WITH_PARENT: 'false',
  });
  const started: StartedService[] = [];
  const pools: Sql[] = [];
  const stop = async () => {
    for (const s of started.reverse()) await s.stop();
    for (const p of pools) await p.end({ timeout: 5 });
    await infra.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const name of names) started.push(await startService(await options(name, env(name), ports[name])));
  } catch (err) {
    await stop();
    throw err;
  }
  const peers: Peers = {
    infra,
    dataDir,
    contextSecret,
    env,
    address: (name) => `127.0.0.1:${ports[name]}`,
    stop,
  };
  poolsOf.set(peers, pools);
  return peers;
}

const poolsOf = new WeakMap<Peers, Sql[]>();

/** A pool on the run's database in `name`'s schema, migrated with its migrations, ended by peers.stop(). */
export async function migratedPool(peers: Peers, name: ServiceName): Promise<Sql> {
  const sql = createPool(peers.infra.databaseUrl, { schema: name, appName: `${name}-service-test` });
  poolsOf.get(peers)!.push(sql);
  await sql.unsafe(`create schema if not exists ${name}`);
  await migrate(sql, { schema: name, dir: fileURLToPath(migrations(name)), log: createLogger('test', 'silent') });
  return sql;
}

/** How `name`'s main.ts starts it, on this run's environment. */
async function options(name: ServiceName, env: Record<string, string>, port: number): Promise<ServiceOptions> {
  const base = { name, grpcPort: port, migrations: migrations(name) };
  switch (name) {
    case 'auth': {
      const [{ buildAuth }, { loadAuthConfig }] = await Promise.all([
        import('../../../auth/src/app.js'),
        import('../../../auth/src/config.js'),
      ]);
      const config = loadAuthConfig(env);
      return { ...base, config, nats: true, build: (deps) => buildAuth(config, deps) };
    }
    case 'projects': {
      const [{ buildProjects }, { loadProjectsConfig }] = await Promise.all([
        import('../../../projects/src/app.js'),
        import('../../../projects/src/config.js'),
      ]);
      const config = loadProjectsConfig(env);
      return { ...base, config, build: (deps) => buildProjects(config, deps) };
    }
    case 'forms': {
      const [{ buildForms }, { loadFormsConfig }] = await Promise.all([
        import('../../../forms/src/app.js'),
        import('../../../forms/src/config.js'),
      ]);
      const config = loadFormsConfig(env);
      return { ...base, config, build: (deps) => buildForms(config, deps) };
    }
    case 'responses': {
      const [{ buildResponses }, { loadResponsesConfig }] = await Promise.all([
        import('../../../responses/src/app.js'),
        import('../../../responses/src/config.js'),
      ]);
      const config = loadResponsesConfig(env);
      return { ...base, config, build: (deps) => buildResponses(config, deps) };
    }
    case 'results': {
      const [{ buildResults, migrateResults, openEngine }, { loadResultsConfig }] = await Promise.all([
        import('../../../results/src/app.js'),
        import('../../../results/src/config.js'),
      ]);
      const config = loadResultsConfig(env);
      const engine = await openEngine(config);
      return {
        ...base,
        config,
        migrate: (log) => migrateResults(engine, config, log),
        build: (deps) => buildResults(config, deps, engine),
      };
    }
    case 'exports': {
      const [{ buildExports }, { loadExportsConfig }] = await Promise.all([
        import('../../../exports/src/app.js'),
        import('../../../exports/src/config.js'),
      ]);
      const config = loadExportsConfig(env);
      return { ...base, config, nats: true, build: (deps) => buildExports(config, deps) };
    }
  }
}

let counter = 0;

/** A new user owning a new workspace, made through the real auth service (as the demo seed does). */
export async function newOwner(peers: Peers, label = 'owner'): Promise<{ caller: common.Caller; username: string }> {
  const client = createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret });
  try {
    counter++;
    const user = await client.adminCreateUser({
      email: `${label}${counter}.${peers.infra.runId}@example.org`,
      password: 'correct horse 42',
      username: `${label}${counter}`,
      first_name: 'Ana',
      last_name: `Lopez${counter}`,
      is_staff: false,
      is_superuser: false,
      if_not_exists: false,
    });
    const org = await client.adminCreateOrganization({
      name: `Workspace ${counter}`,
      description: '',
      owner_username: user.username,
      if_not_exists: false,
    });
    return {
      caller: common.Caller.fromPartial({ user_id: user.id, organization_id: org.id }),
      username: user.username,
    };
  } finally {
    client.close();
  }
}

/** A user of no workspace (a caller who may see nothing of the others'). */
export async function newUser(peers: Peers, label = 'user'): Promise<common.Caller> {
  const client = createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret });
  try {
    counter++;
    const user = await client.adminCreateUser({
      email: `${label}${counter}.${peers.infra.runId}@example.org`,
      password: 'correct horse 42',
      username: `${label}${counter}`,
      first_name: 'Ben',
      last_name: `Okoth${counter}`,
      is_staff: false,
      is_superuser: false,
      if_not_exists: false,
    });
    return common.Caller.fromPartial({ user_id: user.id, organization_id: 0 });
  } finally {
    client.close();
  }
}

/** A project of the caller's workspace, made through the real projects service. */
export async function newProject(
  peers: Peers,
  caller: common.Caller,
  name = 'Household Survey',
): Promise<projects.Project> {
  const client = createClient(projects.ProjectsServiceClient, peers.address('projects'), {
    secret: peers.contextSecret,
  });
  try {
    return await client.createProject({
      caller,
      organization_pk: caller.organization_id,
      name,
      description: '',
      frontend_color: '5da83d',
      frontend_icon: 'place',
      geotag: { latitude: -1.29, longitude: 36.82 },
      geotag_given: true,
      folder_id: 0,
      logo: '',
    });
  } finally {
    client.close();
  }
}

/**
 * What a person added by email does (issue 30 item 2): opens the invitation mailed to them and chooses `password`
 * with its link, which makes them a member (and so a project user).
 */
export async function acceptInvitation(peers: Peers, email: string, password = 'correct horse 42'): Promise<void> {
  const sql = createPool(peers.infra.databaseUrl, { schema: 'auth', appName: 'invitation-test', max: 1 });
  const client = createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret });
  try {
    const [mail] = await sql<{ body: string }[]>`
      select body from auth.mail_outbox where lower(to_address) = ${email.toLowerCase()} and subject like '%invitation%'
      order by id desc limit 1`;
    const nonce = /\/set-password\/[^/\s]+\/([\w-]+)/.exec(mail?.body ?? '')?.[1];
    if (!nonce) throw new Error(`no invitation link was mailed to ${email}`);
    await client.resetPassword({ email, nonce, password });
  } finally {
    client.close();
    await sql.end();
  }
}
