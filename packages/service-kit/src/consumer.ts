// Durable pull consumers (docs/architecture.md, nats.js example 07): the consumer made or brought to the
// configured ack wait, then a loop that pulls bounded batches, hands them to the service, acks what succeeded and
// naks what failed, and on stop lets the batch in hand finish. The results ingestion and the export workers both run
// on it.
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type Consumer,
  type ConsumerMessages,
  type JsMsg,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { Logger } from './logger.js';
import { metrics } from './metrics.js';
import type { Nats } from './nats.js';

export type { JsMsg };

/** A durable pull consumer with explicit acks that starts at the beginning of its stream. */
export interface DurableConsumerSpec {
  stream: string;
  durable: string;
  /** Seconds before a message delivered and not acknowledged is delivered again. */
  ackWaitS: number;
  /** Messages delivered and not acknowledged at most, across every puller of the consumer. */
  maxAckPending: number;
}

/**
 * Creates the durable consumer when it does not exist; one made with another ack wait (an older default) takes the
 * configured one. Other JetStream errors (no such stream, NATS away) are thrown.
 */
export async function ensureConsumer(jsm: JetStreamManager, spec: DurableConsumerSpec): Promise<void> {
  const ackWait = spec.ackWaitS * 1_000_000_000;
  try {
    const info = await jsm.consumers.info(spec.stream, spec.durable);
    if (info.config.ack_wait !== ackWait) await jsm.consumers.update(spec.stream, spec.durable, { ack_wait: ackWait });
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
    await jsm.consumers.add(spec.stream, {
      durable_name: spec.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: ackWait,
      max_ack_pending: spec.maxAckPending,
    });
  }
}

/** Reads the consumer's lag into the JetStream metrics; answers messages pending plus delivered and not acknowledged. */
export async function consumerLag(jsm: JetStreamManager, stream: string, durable: string): Promise<number> {
  const info = await jsm.consumers.info(stream, durable);
  metrics.jetstreamPending.set({ stream, consumer: durable }, info.num_pending);
  metrics.jetstreamAckPending.set({ stream, consumer: durable }, info.num_ack_pending);
  return info.num_pending + info.num_ack_pending;
}

interface PullOptionsBase {
  stream: string;
  durable: string;
  /**
   * Messages per pull at most: the bound on messages in the service's hands at once. A function is asked before each
   * pull: a pull is answered when it is full or when it expires, so asking for the messages waiting now (at least one)
   * answers as soon as they are delivered rather than at `expiresMs`.
   */
  batch: number | (() => Promise<number>);
  /** How long one pull waits for messages (ms); a stop waits for no pull, only for the batch being handled. */
  expiresMs: number;
  log: Logger;
  /** The log line of a failed pull or handler (constant text, the error in a field). */
  failureMessage: string;
  /** Pause after a failure before pulling again (ms, default 1000). */
  retryMs?: number;
  /** Told of every failure (a pull that failed or a handler that threw). */
  onFailure?: (err: unknown) => void;
}

export type PullOptions = PullOptionsBase &
  (
    | {
        /**
         * Handles the batch as a whole: when it resolves, every message it left unsettled is acked; when it throws,
         * every one it left unsettled is nak'ed (redelivered at once) and the loop pauses.
         */
        handleBatch: (msgs: JsMsg[]) => Promise<void>;
      }
    | {
        /**
         * Handles each message of a batch, all of them at once (so at most `batch` in flight): a message it left
         * unsettled is acked when it resolves, nak'ed when it throws (and the loop pauses after the batch).
         */
        handleMessage: (m: JsMsg) => Promise<void>;
      }
  );

export interface PullLoop {
  /** Lets the batch in hand finish, then pulls no more until `resume`. */
  pause(): Promise<void>;
  /** Pulls again after `pause`; looks the consumer up afresh (it may have been recreated meanwhile). */
  resume(): void;
  /** Ends a pull that is waiting and lets the batch in hand finish (its messages settled); resolves when done. */
  stop(): Promise<void>;
}

/** Pulls `options.durable` of `options.stream` (made with `ensureConsumer`) in a loop until stopped. */
export function startPullLoop(nats: Nats, options: PullOptions): PullLoop {
  const retryMs = options.retryMs ?? 1000;
  let stopped = false;
  let paused = false;
  let consumer: Consumer | undefined;
  let pull: ConsumerMessages | undefined;
  let current: Promise<void> = Promise.resolve();
  let wake: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        wake = undefined;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(t);
        wake = undefined;
        resolve();
      };
    });

  const failed = async (err: unknown) => {
    options.onFailure?.(err);
    if (!stopped) options.log.warn({ err }, options.failureMessage);
    await sleep(retryMs);
  };

  const handle = async (msgs: JsMsg[]): Promise<unknown> => {
    if ('handleBatch' in options) {
      try {
        await options.handleBatch(msgs);
      } catch (err) {
        for (const m of msgs) m.nak(); // a settled message ignores it
        return err;
      }
      for (const m of msgs) m.ack();
      return undefined;
    }
    const outcomes = await Promise.allSettled(
      msgs.map(async (m) => {
        try {
          await options.handleMessage(m);
        } catch (err) {
          m.nak();
          throw err;
        }
        m.ack();
      }),
    );
    const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    return rejected?.reason;
  };

  const once = async (): Promise<void> => {
    let msgs: JsMsg[];
    try {
      consumer ??= await nats.js.consumers.get(options.stream, options.durable);
      const max = typeof options.batch === 'number' ? options.batch : await options.batch();
      pull = await consumer.fetch({ max_messages: Math.max(1, Math.floor(max)), expires: options.expiresMs });
      msgs = [];
      for await (const m of pull) msgs.push(m);
    } catch (err) {
      consumer = undefined;
      return failed(err);
    } finally {
      pull = undefined;
    }
    if (msgs.length === 0) return;
    const err = await handle(msgs);
    if (err !== undefined) await failed(err);
  };

  const loop = (async () => {
    while (!stopped) {
      if (paused) {
        await sleep(100);
        continue;
      }
      current = once();
      await current;
    }
  })();

  return {
    pause: async () => {
      paused = true;
      await current;
    },
    resume: () => {
      consumer = undefined;
      paused = false;
    },
    stop: async () => {
      stopped = true;
      pull?.stop();
      wake?.();
      await loop;
      // Acks are published without waiting: a flush has them at the server before the stop is over.
      await nats.nc.flush().catch(() => undefined);
    },
  };
}
