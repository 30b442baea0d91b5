// `npm start`: find or start the infrastructure, start every service and the gateway, seed the demo workspace,
// print the URL and the login. Ctrl-C stops what this launcher started, and nothing else.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@fieldwork/service-kit';
import { createDatabaseIfMissing, databaseUrl, ensurePostgres, redact, type PostgresHandle } from './infra/postgres.js';
import { ensureNats, type NatsHandle } from './infra/nats.js';
import { portOpen } from './infra/net.js';
import { loadLauncherConfig } from './launcher-config.js';
import { formatLine } from './processes.js';
import { localSecrets } from './secrets.js';
import { seedDemo } from './seed.js';
import { seedDemoData } from './demo-data.js';
import { SERVICES, startStack, type ServiceName, type Stack, type StackPorts } from './stack.js';

const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
const say = (msg: string) => console.log(formatLine('launcher', msg, color));

async function main() {
  const config = loadLauncherConfig();
  const dataDir = config.FIELDWORK_DATA_DIR;
  for (const d of ['', 'chdb', 'objects']) mkdirSync(join(dataDir, d), { recursive: true });

  const ports: StackPorts = {
    gateway: config.GATEWAY_PORT,
    auth: config.AUTH_GRPC_PORT,
    projects: config.PROJECTS_GRPC_PORT,
    forms: config.FORMS_GRPC_PORT,
    responses: config.RESPONSES_GRPC_PORT,
    results: config.RESULTS_GRPC_PORT,
    exports: config.EXPORTS_GRPC_PORT,
  };
  const replicaPorts: Partial<Record<ServiceName, number[]>> = {};
  for (const name of SERVICES) {
    if (name === 'results' || config.FIELDWORK_REPLICAS <= 1) continue;
    replicaPorts[name] = Array.from({ length: config.FIELDWORK_REPLICAS - 1 }, (_, i) => ports[name] + 100 * (i + 1));
  }
  const busy = [];
  for (const [name, port] of [
    ...Object.entries(ports),
    ...Object.entries(replicaPorts).flatMap(([n, list]) => list.map((p, i) => [`${n}-${i + 2}`, p] as const)),
  ]) {
    if (await portOpen(port)) busy.push(`${name} port ${port}`);
  }
  if (busy.length > 0) {
    throw new Error(
      `already in use: ${busy.join(', ')}. Is Fieldwork already running? Set GATEWAY_PORT or the *_GRPC_PORT variables to move it.`,
    );
  }

  let pg: PostgresHandle | undefined;
  let nats: NatsHandle | undefined;
  let stack: Stack | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping');
    await stack?.stop();
    await nats?.stop();
    await pg?.stop();
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    pg = await ensurePostgres({
      url: config.DATABASE_URL || undefined,
      dataDir,
      port: config.FIELDWORK_PG_PORT,
      log: say,
      own: config.FIELDWORK_INFRA === 'own',
    });
    await createDatabaseIfMissing(pg.adminUrl, config.DATABASE_NAME);
    const dbUrl = databaseUrl(pg.adminUrl, config.DATABASE_NAME);
    nats = await ensureNats({
      url: config.NATS_URL || undefined,
      dataDir,
      port: config.FIELDWORK_NATS_PORT,
      log: say,
      own: config.FIELDWORK_INFRA === 'own',
    });
    const publicUrl = config.PUBLIC_URL || `http://localhost:${config.GATEWAY_PORT}`;
    say(`database ${redact(dbUrl)}, NATS ${nats.url}, data in ${dataDir}`);

    const contextSecret = config.CONTEXT_SIGNING_SECRET || localSecrets(dataDir).contextSecret;
    stack = await startStack({
      dataDir,
      databaseUrl: dbUrl,
      natsUrl: nats.url,
      natsPrefix: '',
      jwtSecret: config.JWT_SECRET || localSecrets(dataDir).jwtSecret,
      objectStoreSecret: config.OBJECT_STORE_SIGNING_SECRET || localSecrets(dataDir).objectStoreSecret,
      contextSecret,
      ports,
      replicaPorts,
      gatewayHost: config.GATEWAY_HOST,
      publicUrl,
      logLevel: config.LOG_LEVEL,
      // A service that exits or hangs is restarted with backoff; the others keep running.
      supervise: { log: say },
      sink: (name, line) => {
        if (!stopping || config.LOG_FORMAT === 'json')
          console.log(config.LOG_FORMAT === 'json' ? line : formatLine(name, line, color));
        else console.log(formatLine(name, line, color));
      },
    });
    let login = '';
    if (config.DEMO_SEED) {
      const seeded = await seedDemo(
        { auth: `127.0.0.1:${ports.auth}`, projects: `127.0.0.1:${ports.projects}`, secret: contextSecret },
        {
          username: config.DEMO_USERNAME,
          email: config.DEMO_EMAIL,
          password: config.DEMO_PASSWORD,
          workspace: config.DEMO_WORKSPACE,
        },
      );
      say(`demo workspace "${config.DEMO_WORKSPACE}" ready (${seeded.projectsCreated} projects created)`);
      login = `\n  Log in as ${config.DEMO_USERNAME} / ${config.DEMO_PASSWORD}`;
      // Once, in the background: a form with every question type, sites and a year of responses.
      void seedDemoData(
        {
          projects: `127.0.0.1:${ports.projects}`,
          forms: `127.0.0.1:${ports.forms}`,
          responses: `127.0.0.1:${ports.responses}`,
          secret: contextSecret,
        },
        seeded,
        say,
      ).then(
        (n) => n > 0 && say(`demo data ready: ${n.toLocaleString('en')} responses in "Household Survey"`),
        (err: unknown) => say(`demo data failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
    console.log(
      `\n  Fieldwork is running: ${publicUrl}${login}\n  Services: ${SERVICES.join(', ')}; Ctrl-C stops everything.\n`,
    );
  } catch (err) {
    say(`start failed: ${err instanceof Error ? err.message : String(err)}`);
    await stopAll(1);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
