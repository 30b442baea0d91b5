#!/usr/bin/env node
// Operator CLI (`pnpm fieldwork ...`): create users and workspaces, reset a password, seed the demo.
// Talks to a running auth service over gRPC (AUTH_GRPC_ADDR, default 127.0.0.1:50051).
import { parseArgs } from 'node:util';
import { auth, results } from '@fieldwork/proto';
import {
  createClient,
  createObjectStore,
  FsObjectStore,
  isProblem,
  loadConfig,
  objectStoreVars,
  vars,
  type ObjectStore,
} from '@fieldwork/service-kit';
import { createBackup, republish, restoreProject } from './ops/backup.js';
import { seedDemo } from './seed.js';
import { localSecrets } from './secrets.js';
import { repoPath } from './paths.js';

const USAGE = `Usage: pnpm fieldwork <command> [options]

  user create --email E --password P [--username U] [--first-name F] [--last-name L] [--staff] [--superuser]
  user set-password --username U --password P
  workspace create --name N --owner USERNAME [--description D]
  workspace features --id ID [--enable F,...] [--disable F,...]   (feature flags, e.g. ingestion)
  demo seed [--username U] [--email E] [--password P] [--workspace W]
  results rebuild     (empties the ClickHouse tables and replays the response stream into them, aggregates included)
  results time-zone --id PROJECT_ID --time-zone ZONE   (the days of the project's aggregates in ZONE, counted again)
  results republish [--id PROJECT_ID]   (rebuilds the results from PostgreSQL: each response's latest version is
                      queued on the outbox again and published by the responses service)
  results status [--id PROJECT_ID]
  backup create --out DIR   (pg_dump of the database and a copy of every object, see docs/operations.md)
  backup restore-project --from DIR --id PROJECT_ID   (one project back as it was in the backup)

Environment: AUTH_GRPC_ADDR (default 127.0.0.1:50051), PROJECTS_GRPC_ADDR (default 127.0.0.1:50052),
RESULTS_GRPC_ADDR (default 127.0.0.1:50055), CONTEXT_SIGNING_SECRET (the deployment's; default: the one npm start keeps
in FIELDWORK_DATA_DIR); for backups and republishing DATABASE_URL and the object store's
variables (OBJECT_STORE=fs|s3, OBJECT_STORE_DIR or S3_*), as the services have them.`;

const config = loadConfig({
  ...objectStoreVars,
  DATABASE_URL: vars.string(''),
  AUTH_GRPC_ADDR: vars.string('127.0.0.1:50051'),
  PROJECTS_GRPC_ADDR: vars.string('127.0.0.1:50052'),
  RESULTS_GRPC_ADDR: vars.string('127.0.0.1:50055'),
  CONTEXT_SIGNING_SECRET: vars.string(''),
  FIELDWORK_DATA_DIR: vars.string(repoPath('.data')),
});
/** The deployment's CONTEXT_SIGNING_SECRET, else the one `npm start` keeps in its data directory. */
const sealed = () => ({
  secret: config.CONTEXT_SIGNING_SECRET || localSecrets(config.FIELDWORK_DATA_DIR).contextSecret,
});

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      staff: { type: 'boolean' },
      superuser: { type: 'boolean' },
      name: { type: 'string' },
      owner: { type: 'string' },
      description: { type: 'string' },
      workspace: { type: 'string' },
      id: { type: 'string' },
      enable: { type: 'string' },
      disable: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      'time-zone': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  const need = (key: keyof typeof values): string => {
    const v = values[key];
    if (typeof v !== 'string' || v === '') throw new UsageError(`--${key} is required for "${command}"`);
    return v;
  };
  const client = createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR, sealed());
  try {
    switch (command) {
      case 'user create': {
        const user = await client.adminCreateUser({
          email: need('email'),
          password: need('password'),
          username: values.username ?? '',
          first_name: values['first-name'] ?? '',
          last_name: values['last-name'] ?? '',
          is_staff: values.staff === true,
          is_superuser: values.superuser === true,
          if_not_exists: false,
        });
        console.log(`created user ${user.username} (id ${user.id})`);
        return 0;
      }
      case 'user set-password': {
        const user = await client.adminSetPassword({ username: need('username'), password: need('password') });
        console.log(`password of ${user.username} set`);
        return 0;
      }
      case 'workspace create': {
        const org = await client.adminCreateOrganization({
          name: need('name'),
          owner_username: need('owner'),
          description: values.description ?? '',
          if_not_exists: false,
        });
        console.log(`created workspace "${org.name}" (id ${org.id}) owned by ${values.owner}`);
        return 0;
      }
      case 'workspace features': {
        const list = (v: string | undefined) =>
          (v ?? '')
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean);
        const org = await client.adminSetFeatures({
          organization_id: Number(need('id')),
          enable: list(values.enable),
          disable: list(values.disable),
        });
        console.log(`workspace ${org.id} features: ${org.flagged_features.join(', ') || '(none)'}`);
        return 0;
      }
      case 'demo seed': {
        const r = await seedDemo(
          { auth: config.AUTH_GRPC_ADDR, projects: config.PROJECTS_GRPC_ADDR, secret: sealed().secret },
          {
            username: values.username ?? 'demo',
            email: values.email ?? 'demo@example.com',
            password: values.password ?? 'fieldwork-demo',
            workspace: values.workspace ?? 'Demo Workspace',
          },
        );
        console.log(
          `demo workspace ${r.organizationId} ready for user ${r.userId} (${r.projectsCreated} projects created)`,
        );
        return 0;
      }
      case 'results time-zone': {
        const r = createClient(results.ResultsServiceClient, config.RESULTS_GRPC_ADDR, sealed());
        try {
          const out = await r.setTimeZone({ project_id: Number(need('id')), time_zone: need('time-zone') });
          console.log(`project ${out.project_id}: aggregates counted in ${out.time_zone} (${out.ms} ms)`);
          return 0;
        } finally {
          r.close();
        }
      }
      case 'results rebuild':
      case 'results status': {
        const r = createClient(results.ResultsServiceClient, config.RESULTS_GRPC_ADDR, sealed());
        try {
          if (command === 'results rebuild') {
            const { messages } = await r.rebuild({});
            console.log(`rebuilding the results store: replaying ${messages} stream messages`);
          } else {
            const st = await r.ingestStatus({ project_id: Number(values.id ?? 0) });
            console.log(
              `responses ${st.responses} (deleted ${st.deleted}), answers ${st.answers}, pending on the stream ${st.pending}`,
            );
          }
          return 0;
        } finally {
          r.close();
        }
      }
      case 'results republish': {
        const n = await republish({
          databaseUrl: database(),
          projectId: values.id === undefined ? undefined : Number(values.id),
        });
        console.log(`${n} responses queued for the results; the responses service publishes them`);
        return 0;
      }
      case 'backup create': {
        const m = await createBackup({
          databaseUrl: database(),
          store: objectStore(),
          out: need('out'),
          log: console.log,
        });
        console.log(`backup written to ${values.out}: the database and ${m.objects} objects (${m.object_bytes} bytes)`);
        return 0;
      }
      case 'backup restore-project': {
        const r = await restoreProject({
          databaseUrl: database(),
          store: objectStore(),
          from: need('from'),
          projectId: Number(need('id')),
          log: console.log,
        });
        console.log(
          `project ${values.id} restored: ${r.rows['responses.responses'] ?? 0} responses, ${r.objects} files, ${r.republished} result updates queued`,
        );
        return 0;
      }
      default:
        console.log(USAGE);
        return values.help === true || command === '' ? 0 : 64;
    }
  } finally {
    client.close();
  }
}

function database(): string {
  if (config.DATABASE_URL === '') throw new UsageError('DATABASE_URL is required for this command');
  return config.DATABASE_URL;
}

/** The services' object store; with the fs adapter nothing is signed here, so no signing secret is needed. */
function objectStore(): ObjectStore {
  if (config.OBJECT_STORE === 'fs')
    return new FsObjectStore({
      root: config.OBJECT_STORE_DIR,
      signingSecret: 'the-cli-signs-no-url'.padEnd(32, '-'),
      publicBaseUrl: 'http://cli.invalid',
    });
  return createObjectStore(config);
}

class UsageError extends Error {
  override name = 'UsageError';
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) console.error(`${err.message}\n\n${USAGE}`);
    else if (isProblem(err))
      console.error(`refused: ${err.message}${err.fields ? ` ${JSON.stringify(err.fields)}` : ''}`);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(err instanceof UsageError ? 64 : 1);
  },
);
