// What ClickHouse holds, and the rebuild from the stream.
import type { results } from '@fieldwork/proto';
import { problems, type Logger } from '@fieldwork/service-kit';
import type { Engine } from '../engine/engine.js';
import { dropClickhouse, migrateClickhouse } from '../engine/migrate.js';
import type { Ingestor } from '../ingest/consumer.js';
import type { IngestStore } from '../store/ingest.store.js';
import { MarkStore } from '../store/marks.store.js';
import { TIME_ZONE } from '../domain/query.js';

/** Whether the IANA database (the one Intl reads) knows the zone. */
function knownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export class IngestService {
  constructor(
    private readonly engine: Engine,
    private readonly store: IngestStore,
    private readonly ingestor: Ingestor,
    private readonly db: string,
    private readonly log: Logger,
    private readonly options: { cluster: string; writer: boolean } = { cluster: '', writer: true },
  ) {}

  async status(req: results.IngestStatusRequest): Promise<results.IngestStatusReply> {
    const r = await this.store.responseStatus(req.project_id);
    const answers = await this.store.answerCount(req.project_id);
    return {
      responses: Number(r?.responses ?? 0),
      deleted: Number(r?.deleted ?? 0),
      answers,
      pending: await this.ingestor.pending().catch(() => -1),
      batches: this.ingestor.stats.batches,
      last_batch_size: this.ingestor.stats.lastBatchSize,
      visible_p50_ms: Number(r?.lag?.[0] ?? 0) || 0,
      visible_p99_ms: Number(r?.lag?.[1] ?? 0) || 0,
    };
  }

  async setTimeZone(req: results.TimeZoneRequest): Promise<results.TimeZoneReply> {
    if (!this.options.writer)
      throw problems.invalid('This results replica serves queries only; set the time zone on the results writer.');
    if (req.project_id <= 0) throw problems.invalidProjectId();
    if (!TIME_ZONE.test(req.time_zone) || !knownTimeZone(req.time_zone))
      throw problems.invalidFields({ time_zone: ['Enter a time zone such as UTC or Europe/Paris.'] });
    const t0 = Date.now();
    await this.ingestor.setTimeZone(req.project_id, req.time_zone);
    this.log.info({ project: req.project_id, tz: req.time_zone }, 'aggregates counted again in a new time zone');
    return { project_id: req.project_id, time_zone: req.time_zone, ms: Date.now() - t0 };
  }

  async rebuild(): Promise<results.RebuildReply> {
    // Only the writer reads the stream; a query replica (RESULTS_INGEST=false) refuses.
    if (!this.options.writer)
      throw problems.invalid('This results replica serves queries only; run the rebuild on the results writer.');
    const messages = await this.ingestor.replay(async () => {
      await dropClickhouse(this.engine, this.db, this.options.cluster);
      await migrateClickhouse(this.engine, this.db, this.log, undefined, this.options.cluster);
      // The tables are empty and new: every cached answer is dropped (the marks table is kept, its counts only grow).
      await new MarkStore(this.engine, this.db, this.options.cluster).touchAll();
    });
    this.log.info({ messages }, 'results rebuild: replaying the stream');
    return { messages };
  }
}
