// The RESPONSES stream into ClickHouse (DESIGN.md §2): a durable pull consumer read in batches; each batch is
// inserted (responses, then answers) and acknowledged only after ClickHouse has it. A failed insert naks the batch
// for redelivery; a re-delivered version collapses into itself in the ReplacingMergeTree tables.
import { AckPolicy, DeliverPolicy, type Consumer, type JsMsg } from '@nats-io/jetstream';
import { connectNats, ensureStream, metrics, responsesStream, type Logger, type Nats } from '@fieldwork/service-kit';
import type { Engine } from '../engine/engine.js';
import { rowsOf, type ResponseEvent } from '../domain/rows.js';

/** Seconds before an unacknowledged message is delivered again. */
const ACK_WAIT_S = 10;
export const BATCH_MAX = 5000;
const FETCH_EXPIRES_MS = 1000;

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
  private current: Promise<void> = Promise.resolve();
  /** The durable consumer, looked up once (again after a replay recreates it or a failure). */
  private consumer: Consumer | undefined;
  private stopped = false;
  private paused = false;
  readonly stats: IngestStats = { batches: 0, lastBatchSize: 0, messages: 0, failures: 0, lastBatchAt: 0 };

  constructor(
    private readonly engine: Engine,
    private readonly options: { natsUrl: string; prefix: string; db: string; log: Logger },
  ) {}

  get stream(): string {
    return responsesStream(this.options.prefix).name;
  }

  get durable(): string {
    return 'results-clickhouse';
  }

  /** Connects (retrying while NATS is away) and runs the loop in the background; reads the lag every 15 s. */
  start(): void {
    this.running = this.loop();
    setInterval(() => void this.pending().catch(() => undefined), 15_000).unref();
  }

  private async connect(): Promise<Nats> {
    for (let attempt = 0; ; attempt++) {
      if (this.stopped) throw new Error('stopped');
      try {
        const n = await connectNats(this.options.natsUrl, { name: 'fieldwork-results', log: this.options.log });
        await ensureStream(n.jsm, responsesStream(this.options.prefix));
        await this.ensureConsumer(n);
        return n;
      } catch (err) {
        if (attempt % 10 === 0) this.options.log.warn({ err }, 'NATS not reachable; results wait');
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /**
   * The durable consumer. Its ack wait is short: a message delivered to a fetch that expired just before it arrived
   * is dropped by the client and comes back only after the ack wait (it was 120 s, and responses showed up in the
   * results two minutes late under load); a redelivery while a slow insert is still running only inserts the same
   * version again, which the ReplacingMergeTree tables collapse.
   */
  private async ensureConsumer(n: Nats): Promise<void> {
    const ackWait = ACK_WAIT_S * 1_000_000_000;
    try {
      const info = await n.jsm.consumers.info(this.stream, this.durable);
      if (info.config.ack_wait !== ackWait) await n.jsm.consumers.update(this.stream, this.durable, { ack_wait: ackWait });
    } catch {
      await n.jsm.consumers.add(this.stream, {
        durable_name: this.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        max_ack_pending: BATCH_MAX * 4,
        ack_wait: ackWait,
      });
    }
  }

  private async loop(): Promise<void> {
    try {
      this.nats = await this.connect();
    } catch {
      return;
    }
    while (!this.stopped) {
      if (this.paused) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      this.current = this.once(this.nats);
      await this.current;
    }
  }

  private async once(n: Nats): Promise<void> {
    try {
      this.consumer ??= await n.js.consumers.get(this.stream, this.durable);
      const batch = await this.consumer.fetch({ max_messages: BATCH_MAX, expires: FETCH_EXPIRES_MS });
      const msgs: JsMsg[] = [];
      for await (const m of batch) msgs.push(m);
      if (msgs.length > 0) await this.write(msgs);
    } catch (err) {
      this.consumer = undefined;
      this.stats.failures++;
      this.options.log.warn({ err }, 'results ingestion failed; retrying');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  private async write(msgs: JsMsg[]): Promise<void> {
    const responses: object[] = [];
    const answers: object[] = [];
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
      responses.push(rows.response);
      answers.push(...rows.answers);
      good.push(m);
    }
    try {
      await this.engine.insert(`${this.options.db}.responses`, responses);
      await this.engine.insert(`${this.options.db}.answers`, answers);
    } catch (err) {
      // Redelivered at once; the loop waits a second before it fetches again.
      for (const m of good) m.nak();
      throw err;
    }
    for (const m of good) m.ack();
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
    const info = await this.nats.jsm.consumers.info(this.stream, this.durable);
    metrics.jetstreamPending.set({ stream: this.stream, consumer: this.durable }, info.num_pending);
    metrics.jetstreamAckPending.set({ stream: this.stream, consumer: this.durable }, info.num_ack_pending);
    return info.num_pending + info.num_ack_pending;
  }

  /** Stops reading, lets `reset` run, and starts again from the beginning of the stream. */
  async replay(reset: () => Promise<void>): Promise<number> {
    this.paused = true;
    try {
      // Let a batch in flight finish before the tables go.
      await this.current;
      await reset();
      const n = this.nats ?? (await this.connect());
      await n.jsm.consumers.delete(this.stream, this.durable).catch(() => false);
      this.consumer = undefined;
      await this.ensureConsumer(n);
      const info = await n.jsm.streams.info(this.stream);
      this.stats.messages = 0;
      return info.state.messages;
    } finally {
      this.paused = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    await this.nats?.close();
  }
}
