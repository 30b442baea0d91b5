// Wiring only: builds the results service from its dependencies.
import { mkdir } from 'node:fs/promises';
import { forms, projects } from '@fieldwork/proto';
import { createClient, type BuiltService, type ServiceDeps } from '@fieldwork/service-kit';
import type { ResultsConfig } from './config.js';
import { ChdbEngine } from './engine/chdb.engine.js';
import type { Engine } from './engine/engine.js';
import { migrateClickhouse } from './engine/migrate.js';
import { ServerEngine } from './engine/server.engine.js';
import { resultsGrpc } from './grpc/results.grpc.js';
import { Compactor } from './ingest/compactor.js';
import { Ingestor } from './ingest/consumer.js';
import { CountService } from './service/count.service.js';
import { IngestService } from './service/ingest.service.js';
import { ResultsService } from './service/results.service.js';

export async function openEngine(config: ResultsConfig): Promise<Engine> {
  if (config.CLICKHOUSE_URL !== '') return new ServerEngine(config.CLICKHOUSE_URL);
  await mkdir(config.CLICKHOUSE_PATH, { recursive: true });
  return new ChdbEngine(config.CLICKHOUSE_PATH);
}

export async function buildResults(config: ResultsConfig, { log }: ServiceDeps): Promise<BuiltService> {
  const engine = await openEngine(config);
  const db = config.CLICKHOUSE_DATABASE;
  await migrateClickhouse(engine, db, log);
  const ingestor = new Ingestor(engine, { natsUrl: config.NATS_URL ?? 'nats://127.0.0.1:4222', prefix: config.NATS_PREFIX, db, log });
  ingestor.start();
  const compactor = new Compactor(engine, { db, idleMs: config.CLICKHOUSE_COMPACT_IDLE_S * 1000, log, lastWriteAt: () => ingestor.stats.lastBatchAt });
  compactor.start();
  const projectsClient = createClient(projects.ProjectsServiceClient, config.PROJECTS_GRPC_ADDR);
  const formsClient = createClient(forms.FormsServiceClient, config.FORMS_GRPC_ADDR);
  return {
    services: [resultsGrpc({ ingest: new IngestService(engine, ingestor, db, log), results: new ResultsService(engine, db, projectsClient, formsClient), counts: new CountService(engine, db) }, log)],
    checks: [async () => void (await engine.query('SELECT 1'))],
    close: async () => {
      projectsClient.close();
      formsClient.close();
      compactor.stop();
      await ingestor.stop();
      await engine.close();
    },
  };
}
