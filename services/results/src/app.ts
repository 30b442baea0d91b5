// Wiring only: builds the results service from its dependencies.
import { mkdir } from 'node:fs/promises';
import type { BuiltService, ServiceDeps } from '@fieldwork/service-kit';
import type { ResultsConfig } from './config.js';
import { ChdbEngine } from './engine/chdb.engine.js';
import type { Engine } from './engine/engine.js';
import { migrateClickhouse } from './engine/migrate.js';
import { ServerEngine } from './engine/server.engine.js';
import { resultsGrpc } from './grpc/results.grpc.js';
import { Ingestor } from './ingest/consumer.js';
import { IngestService } from './service/ingest.service.js';

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
  return {
    services: [resultsGrpc({ ingest: new IngestService(engine, ingestor, db, log) }, log)],
    checks: [async () => void (await engine.query('SELECT 1'))],
    close: async () => {
      await ingestor.stop();
      await engine.close();
    },
  };
}
