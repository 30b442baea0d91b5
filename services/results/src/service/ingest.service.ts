// What ClickHouse holds, and the rebuild from the stream.
import type { results } from '@fieldwork/proto';
import { problems, type Logger } from '@fieldwork/service-kit';
import type { Engine } from '../engine/engine.js';
import { dropClickhouse, migrateClickhouse } from '../engine/migrate.js';
import type { Ingestor } from '../ingest/consumer.js';

export class IngestService {
  constructor(
    private readonly engine: Engine,
    private readonly ingestor: Ingestor,
    private readonly db: string,
    private readonly log: Logger,
    private readonly options: { cluster: string; writer: boolean } = { cluster: '', writer: true },
  ) {}

  async status(req: results.IngestStatusRequest): Promise<results.IngestStatusReply> {
    const where = req.project_id > 0 ? 'WHERE project_id = {p:UInt64}' : '';
    const params = { p: req.project_id };
    const [r] = await this.engine.query<{ responses: string; deleted: string; lag: number[] }>(
      `SELECT count() AS responses, countIf(deleted = 1) AS deleted,
              quantiles(0.5, 0.99)(toUnixTimestamp64Milli(ingested_at) - toUnixTimestamp64Milli(time_uploaded)) AS lag
       FROM ${this.db}.responses FINAL ${where}`,
      params,
    );
    const [a] = await this.engine.query<{ answers: string }>(
      `SELECT count() AS answers FROM ${this.db}.answers FINAL ${where === '' ? 'WHERE' : `${where} AND`} removed = 0 AND deleted = 0`,
      params,
    );
    return {
      responses: Number(r?.responses ?? 0),
      deleted: Number(r?.deleted ?? 0),
      answers: Number(a?.answers ?? 0),
      pending: await this.ingestor.pending().catch(() => -1),
      batches: this.ingestor.stats.batches,
      last_batch_size: this.ingestor.stats.lastBatchSize,
      visible_p50_ms: Number(r?.lag?.[0] ?? 0) || 0,
      visible_p99_ms: Number(r?.lag?.[1] ?? 0) || 0,
    };
  }

  async rebuild(): Promise<results.RebuildReply> {
    // Only the writer reads the stream; a query replica (RESULTS_INGEST=false) refuses.
    if (!this.options.writer) throw problems.invalid('This results replica serves queries only; run the rebuild on the results writer.');
    const messages = await this.ingestor.replay(async () => {
      await dropClickhouse(this.engine, this.db, this.options.cluster);
      await migrateClickhouse(this.engine, this.db, this.log, undefined, this.options.cluster);
    });
    this.log.info({ messages }, 'results rebuild: replaying the stream');
    return { messages };
  }
}
