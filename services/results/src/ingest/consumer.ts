// The RESPONSES stream into ClickHouse (docs/results.md): a durable pull consumer read in batches; each batch is
// folded into the aggregates (Aggregator), inserted (responses, then answers), marked for the results cache, and
// acknowledged only after ClickHouse has it all. A failed insert naks the batch for redelivery; a re-delivered
// version collapses into itself in the ReplacingMergeTree tables and changes nothing in the aggregates.
import {
  connectNatsRetrying,
  consumerLag,
  ensureConsumer,
  ensureStream,
  metrics,
  responsesStream,
  startPullLoop,
  type DurableConsumerSpec,
  type JsMsg,
  type Logger,
  type Nats,
  type PullLoop,
} from '@fieldwork/service-kit';
import type { Engine } from '../engine/engine.js';
import { IngestStore } from '../store/ingest.store.js';
import { MarkStore } from '../store/marks.store.js';
import { rowsOf, type ResponseEvent } from '../domain/rows.js';
import { StateStore } from '../store/state.store.js';
import { Aggregator } from './aggregator.js';

/** Seconds before an unacknowledged message is delivered again. */
const ACK_WAIT_S = 10;
export const BATCH_MAX = 5000;
const FETCH_EXPIRES_MS = 1000;
/**
 * Pulls begin at least this far apart (ms): under load a batch holds what arrived in that time, or more. 250 ms gave a
 * slightly fresher p99 at twice the results process's CPU (docs/benchmarks.md, "Freshness").
 */
const PULL_INTERVAL_MS = 500;

export interface IngestStats {
  batches: number;
  lastBatchSize: number;
  messages: number;
  failures: number;
  /** When the last batch was written (ms since the epoch; 0 before the first). */
  lastBatchAt: number;
}

export class Ingestor {
  private nats: Nats | undefined;
  private running: Promise<void> | undefined;
  private pulling: PullLoop | undefined;
  private stopped = false;
  readonly stats: IngestStats = { batches: 0, lastBatchSize: 0, messages: 0, failures: 0, lastBatchAt: 0 };
  private readonly store: IngestStore;
  /** Keeps the aggregates exact; also what a time zone change or a rebuild goes through. */
  readonly aggregator: Aggregator;
  /** The results cache's per-project marks, written after each batch's data. */
  private readonly marks: MarkStore;
  /** When the last pull began (ms since the epoch). */
  private lastPullAt = 0;

  constructor(
    engine: Engine,
    private readonly options: { natsUrl: string; prefix: string; db: string; log: Logger; cluster?: string },
  ) {
    this.store = new IngestStore(engine, options.db);
    this.aggregator = new Aggregator(new StateStore(engine, options.db, options.cluster ?? ''), options.log);
    this.marks = new MarkStore(engine, options.db, options.cluster);
  }

  get stream(): string {
    return responsesStream(this.options.prefix).name;
  }

  get durable(): string {
    return 'results-clickhouse';
  }

  /**
   * The durable consumer. Its ack wait is short: a message delivered to a fetch that expired just before it arrived
   * is dropped by the client and comes back only after the ack wait (it was 120 s, and responses showed up in the
   * results two minutes late under load); a redelivery while a slow insert is still running only inserts the same
   * version again, which the ReplacingMergeTree tables collapse.
   */
  private get spec(): DurableConsumerSpec {
    return { stream: this.stream, durable: this.durable, ackWaitS: ACK_WAIT_S, maxAckPending: BATCH_MAX * 4 };
  }

  /** Connects (retrying while NATS is away) and runs the loop in the background; reads the lag every 15 s. */
  start(): void {
    this.running = this.run();
    setInterval(() => void this.pending().catch(() => undefined), 15_000).unref();
  }

  private connect(): Promise<Nats | undefined> {
    return connectNatsRetrying(this.options.natsUrl, {
      name: 'fieldwork-results',
      log: this.options.log,
      stopped: () => this.stopped,
      waitingMessage: 'NATS not reachable; results wait',
      prepare: async (n) => {
        await ensureStream(n.jsm, responsesStream(this.options.prefix));
        await ensureConsumer(n.jsm, this.spec);
      },
    });
  }

  private async run(): Promise<void> {
    this.nats = await this.connect();
    if (!this.nats || this.stopped) return;
    this.pulling = startPullLoop(this.nats, {
      stream: this.stream,
      durable: this.durable,
      batch: () => this.nextBatch(),
      expiresMs: FETCH_EXPIRES_MS,
      log: this.options.log,
      failureMessage: 'results ingestion failed; retrying',
      onFailure: () => void this.stats.failures++,
      // A failed insert naks the batch: redelivered at once, the loop waits a second before it pulls again.
      handleBatch: (msgs) => this.write(msgs),
    });
  }

  /**
   * How many messages the next pull asks for: those waiting now, at least one and at most BATCH_MAX. The server
   * answers a pull when it is full or expires, so a pull of BATCH_MAX under a steady load of fewer than BATCH_MAX a
   * second held every message until FETCH_EXPIRES_MS (a second): asking for what is waiting answers at once, and the
   * batches grow with the load (what arrived while the last one was written). Pulls begin at least PULL_INTERVAL_MS
   * apart, so a steady load makes at most two batches (inserts per table) a second, not one per message. Idle, a pull
   * of one waits for the next message. Issue 29 item 6, docs/benchmarks.md "Freshness".
   */
  private async nextBatch(): Promise<number> {
    const wait = this.lastPullAt + PULL_INTERVAL_MS - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    this.lastPullAt = Date.now();
    try {
      const info = await this.nats!.jsm.consumers.info(this.stream, this.durable);
      return Math.min(BATCH_MAX, Math.max(1, info.num_pending));
    } catch {
      return BATCH_MAX;
    }
  }

  private async write(msgs: JsMsg[]): Promise<void> {
    const responses: object[] = [];
    const answers: object[] = [];
    const events: ResponseEvent[] = [];
    const good: JsMsg[] = [];
    for (const m of msgs) {
      let event: ResponseEvent;
      try {
        event = m.json<ResponseEvent>();
      } catch {
        // Not a response event: nothing to write, never to retry.
        this.options.log.error({ seq: m.seq }, 'unreadable message on the responses stream');
        m.term();
        continue;
      }
      const rows = rowsOf(event);
      events.push(event);
      responses.push(rows.response);
      answers.push(...rows.answers);
      good.push(m);
    }
    // Acked by the pull loop once all are in; nak'ed by it when one throws. The aggregates first: a project seen for
    // the first time is counted from the answers' tables as they were before this batch.
    await this.aggregator.write(events);
    await this.store.insertBatch(responses, answers);
    // The results cache's marks of the projects this batch touched (docs/results.md, "The results cache"): after the
    // batch's last data insert, never before, so that no cached entry is keyed fresher than its data.
    await this.marks.touchRows(responses);
    metrics.clickhouseInsertRows.observe({ table: 'responses' }, responses.length);
    metrics.clickhouseInsertRows.observe({ table: 'answers' }, answers.length);
    metrics.clickhouseInsertedRows.inc({ table: 'responses' }, responses.length);
    metrics.clickhouseInsertedRows.inc({ table: 'answers' }, answers.length);
    this.stats.batches++;
    this.stats.lastBatchSize = good.length;
    this.stats.messages += good.length;
    this.stats.lastBatchAt = Date.now();
  }

  /** Messages not acknowledged yet (0 before the consumer exists); also the consumer's lag for the metrics. */
  async pending(): Promise<number> {
    if (!this.nats) return 0;
    return consumerLag(this.nats.jsm, this.stream, this.durable);
  }

  /**
   * Counts a project's aggregates again with their days in `tz` (its whole-day filters and periods then come from
   * the aggregates), between two batches: reading pauses meanwhile.
   */
  async setTimeZone(projectId: number, tz: string): Promise<void> {
    await this.pulling?.pause();
    try {
      await this.aggregator.count(projectId, tz, false);
      // Its answers say which path served them: the project's cached ones go.
      await this.marks.touch([projectId]);
    } finally {
      this.pulling?.resume();
    }
  }

  /** Stops reading, lets `reset` run, and starts again from the beginning of the stream. */
  async replay(reset: () => Promise<void>): Promise<number> {
    // Let a batch in flight finish before the tables go.
    await this.pulling?.pause();
    try {
      await reset();
      this.aggregator.reset();
      const n = this.nats ?? (await this.connect());
      if (!n) throw new Error('stopped');
      await n.jsm.consumers.delete(this.stream, this.durable).catch(() => false);
      await ensureConsumer(n.jsm, this.spec);
      const info = await n.jsm.streams.info(this.stream);
      this.stats.messages = 0;
      return info.state.messages;
    } finally {
      this.pulling?.resume();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    await this.pulling?.stop();
    await this.nats?.close();
  }
}
