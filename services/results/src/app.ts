// Wiring only: builds the results service from its dependencies.
import { mkdir } from 'node:fs/promises';
import { auth, forms, projects } from '@fieldwork/proto';
import { createClient, type BuiltService, type Logger, type ServiceDeps } from '@fieldwork/service-kit';
import type { ResultsConfig } from './config.js';
import { ChdbEngine } from './engine/chdb.engine.js';
import type { Engine } from './engine/engine.js';
import { migrateClickhouse } from './engine/migrate.js';
import { ServerEngine } from './engine/server.engine.js';
import { resultsGrpc } from './grpc/results.grpc.js';
import { ViewsService } from './service/views.service.js';
import { ViewsStore } from './store/views.store.js';
import { ViewAggregatesStore } from './store/view-aggregates.store.js';
import { Ingestor } from './ingest/consumer.js';
import { CountService } from './service/count.service.js';
import { IngestService } from './service/ingest.service.js';
import { PurgeService } from './service/purge.service.js';
import { CachedResultsService } from './service/cached-results.service.js';
import { CountStore } from './store/count.store.js';
import { IngestStore } from './store/ingest.store.js';
import { PurgeStore } from './store/purge.store.js';
import { ResultsStore } from './store/results.store.js';
import { AggregatesStore } from './store/aggregates.store.js';
import { MarkStore } from './store/marks.store.js';

export async function openEngine(config: ResultsConfig): Promise<Engine> {
  if (config.CLICKHOUSE_URL !== '') return new ServerEngine(config.CLICKHOUSE_URL);
  await mkdir(config.CLICKHOUSE_PATH, { recursive: true });
  return new ChdbEngine(config.CLICKHOUSE_PATH);
}

/**
 * The ClickHouse migrations (run by startService with the PostgreSQL ones, unless MIGRATE=skip), on the engine the
 * service then keeps: a chDB path is opened once per process.
 */
export async function migrateResults(engine: Engine, config: ResultsConfig, log: Logger): Promise<void> {
  const applied = await migrateClickhouse(
    engine,
    config.CLICKHOUSE_DATABASE,
    log,
    undefined,
    config.CLICKHOUSE_CLUSTER,
  );
  // A migration may change what the results read: every project's cached answers go (docs/results.md).
  if (applied.length > 0) await new MarkStore(engine, config.CLICKHOUSE_DATABASE, config.CLICKHOUSE_CLUSTER).touchAll();
}

/** Builds the service on `opened` (migrated by startService's hook), or on an engine it opens and migrates itself. */
export async function buildResults(
  config: ResultsConfig,
  { log }: ServiceDeps,
  opened?: Engine,
): Promise<BuiltService> {
  // Every call to another service is sealed with the deployment's secret (service-kit call-seal.ts).
  const sealed = { secret: config.CONTEXT_SIGNING_SECRET ?? '' };
  const engine = opened ?? (await openEngine(config));
  if (!opened && config.MIGRATE !== 'skip') await migrateResults(engine, config, log);
  const db = config.CLICKHOUSE_DATABASE;
  const writer = config.RESULTS_INGEST;
  const ingestor = new Ingestor(engine, {
    natsUrl: config.NATS_URL ?? 'nats://127.0.0.1:4222',
    prefix: config.NATS_PREFIX,
    db,
    log,
    cluster: config.CLICKHOUSE_CLUSTER,
  });
  // With a ClickHouse server, query replicas leave the stream and the aggregates to the one writer.
  if (writer) ingestor.start();
  log.info(
    { writer, cluster: config.CLICKHOUSE_CLUSTER || undefined },
    writer ? 'results: writer and queries' : 'results: queries only',
  );
  const marks = new MarkStore(engine, db, config.CLICKHOUSE_CLUSTER);
  const projectsClient = createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR, sealed);
  const formsClient = createClient(forms.FormsServiceClient, config.FORMS_GRPC_ADDR, sealed);
  const authClient = createClient(auth.AuthServiceClient, config.AUTH_GRPC_ADDR, sealed);
  // With chDB the writer is this process: it knows its projects' aggregates without a query.
  const aggregates = new AggregatesStore(
    engine,
    db,
    writer && engine.name === 'chdb' ? (p) => ingestor.aggregator.known(p) : undefined,
  );
  return {
    services: [
      resultsGrpc(
        {
          ingest: new IngestService(engine, new IngestStore(engine, db), ingestor, db, log, {
            cluster: config.CLICKHOUSE_CLUSTER,
            writer,
          }),
          results: new CachedResultsService(
            new ResultsStore(engine, db),
            marks,
            Math.max(0, config.RESULTS_CACHE_MB) * 2 ** 20,
            aggregates,
            projectsClient,
            formsClient,
            config.CONTEXT_SIGNING_SECRET ?? '',
          ),
          counts: new CountService(new CountStore(engine, db)),
          purge: new PurgeService(new PurgeStore(engine, db, config.CLICKHOUSE_CLUSTER), marks),
          views: new ViewsService(
            new ViewsStore(engine, db),
            new ViewAggregatesStore(engine, db),
            aggregates,
            projectsClient,
            formsClient,
            authClient,
            config.CONTEXT_SIGNING_SECRET ?? '',
          ),
        },
        log,
      ),
    ],
    checks: [async () => void (await engine.query('SELECT 1'))],
    close: async () => {
      projectsClient.close();
      formsClient.close();
      authClient.close();
      await ingestor.stop();
      await engine.close();
    },
  };
}
