// Publishes the response outbox to JetStream (docs/architecture.md): kicked after each commit, and swept every second so
// that rows written while NATS was down, or by a replica that died, go out when it is back. Each message carries
// Nats-Msg-Id <response_id>:<version>, so a retry after a lost ack is dropped by the stream's duplicate window.
import {
  connectNatsRetrying,
  ensureStream,
  metrics,
  responseSubject,
  responsesStream,
  type Logger,
  type Nats,
} from '@fieldwork/service-kit';
import type { ResponseStore } from '../store/response.store.js';

export const OUTBOX_BATCH = 500;
const PRUNE_BATCH = 10_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const PUBLISH_TIMEOUT_MS = 3000;

export interface OutboxRelay {
  kick: () => void;
  /** The NATS connection, once made (it may come up after the service). */
  nats: () => Nats | undefined;
  stop: () => Promise<void>;
}

export function startOutboxRelay(options: {
  store: ResponseStore;
  natsUrl: string;
  prefix: string;
  log: Logger;
  sweepMs?: number;
  /** Superseded published events older than this are pruned, every hour (and a minute after start). */
  retentionHours?: number;
}): OutboxRelay {
  const { store, prefix, log } = options;
  let nats: Nats | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  // NATS may be down when the service starts: uploads are accepted meanwhile and wait in the outbox.
  const connecting = (async () => {
    const n = await connectNatsRetrying(options.natsUrl, {
      name: 'fieldwork-responses',
      log,
      stopped: () => stopped,
      waitingMessage: 'NATS not reachable; responses wait in the outbox',
      prepare: (c) => ensureStream(c.jsm, responsesStream(prefix)),
    });
    if (!n) return;
    nats = n;
    log.info('outbox relay connected to NATS');
    drain();
  })();

  const publishBatch = async (
    rows: { id: number; response_id: string; project_id: number; version: number; payload_json: string }[],
  ) => {
    const n = nats!;
    const results = await Promise.allSettled(
      rows.map((r) =>
        n.js.publish(responseSubject(prefix, r.project_id), r.payload_json, {
          msgID: `${r.response_id}:${r.version}`,
          timeout: PUBLISH_TIMEOUT_MS,
        }),
      ),
    );
    const done = rows.filter((_, i) => results[i]!.status === 'fulfilled').map((r) => r.id);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed)
      log.warn(
        { err: (failed as PromiseRejectedResult).reason, failed: rows.length - done.length },
        'publish failed; will retry',
      );
    return done;
  };

  function drain(): void {
    if (stopped || !nats) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      for (;;) {
        const n = await store.drainOutbox(publishBatch, OUTBOX_BATCH);
        if (n < OUTBOX_BATCH || stopped) break;
      }
    })()
      .catch((err: unknown) => log.warn({ err }, 'outbox drain failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          drain();
        }
      });
  }

  const timer = setInterval(drain, options.sweepMs ?? 1000);
  timer.unref();
  // Pruning: superseded published events go after the retention, in batches, so the table stays about one row per response.
  const prune = async () => {
    try {
      let total = 0;
      for (let n = PRUNE_BATCH; n === PRUNE_BATCH && !stopped; total += n)
        n = await store.pruneOutbox(options.retentionHours ?? 168, PRUNE_BATCH);
      if (total > 0) log.info({ pruned: total }, 'outbox pruned');
    } catch (err) {
      log.warn({ err }, 'outbox pruning failed; will try again');
    }
  };
  const firstPrune = setTimeout(() => void prune(), 60_000);
  firstPrune.unref();
  const pruner = setInterval(() => void prune(), PRUNE_EVERY_MS);
  pruner.unref();

  // The outbox backlog, for the metrics (a growing one means NATS is away or slow).
  const gauge = setInterval(
    () =>
      void options.store.unpublishedCount().then(
        (n) => metrics.outboxUnpublished.set(n),
        () => undefined,
      ),
    15_000,
  );
  gauge.unref();

  return {
    kick: drain,
    nats: () => nats,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      clearInterval(gauge);
      clearTimeout(firstPrune);
      clearInterval(pruner);
      await connecting;
      await running;
      await nats?.close();
    },
  };
}
