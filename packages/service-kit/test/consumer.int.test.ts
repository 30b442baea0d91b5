// The durable pull loop against the real NATS: a handler that throws gets its message nak'ed and redelivered, a slow
// handler never has more than a batch in hand, a stop waits for the batch in hand and leaves nothing unsettled, and
// ensureConsumer creates, keeps and updates the consumer with typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { testInfra, type TestInfra } from '@fieldwork/launcher';
import {
  connectNats,
  connectNatsRetrying,
  consumerLag,
  createLogger,
  ensureConsumer,
  ensureStream,
  startPullLoop,
  type Nats,
} from '../src/index.js';

const log = createLogger('consumer-test', 'silent');
let infra: TestInfra;
let nats: Nats;
let n = 0;

beforeAll(async () => {
  infra = await testInfra();
  nats = await connectNats(infra.natsUrl, { name: 'consumer-test', log });
});
afterAll(async () => {
  await nats?.close();
  await infra?.dispose();
});

/** A fresh stream with a consumer, and `count` messages on it ("0", "1", ...). */
async function fresh(count: number, ackWaitS = 30): Promise<{ stream: string; durable: string; subject: string }> {
  n++;
  const stream = `${infra.natsPrefix}_PULL${n}`;
  const subject = `${infra.natsPrefix}.pull${n}.x`;
  await ensureStream(nats.jsm, { name: stream, subjects: [`${infra.natsPrefix}.pull${n}.>`] });
  await ensureConsumer(nats.jsm, { stream, durable: 'workers', ackWaitS, maxAckPending: 1000 });
  for (let i = 0; i < count; i++) await nats.js.publish(subject, String(i));
  return { stream, durable: 'workers', subject };
}

async function until(ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out: ${String(ok)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ensureConsumer', () => {
  it('creates the consumer once and brings it to the configured ack wait', async () => {
    const { stream, durable } = await fresh(0, 30);
    expect((await nats.jsm.consumers.info(stream, durable)).config.ack_wait).toBe(30_000_000_000);
    await ensureConsumer(nats.jsm, { stream, durable, ackWaitS: 12, maxAckPending: 1000 });
    const info = await nats.jsm.consumers.info(stream, durable);
    expect(info.config.ack_wait).toBe(12_000_000_000);
    expect(info.config.max_ack_pending).toBe(1000);
  });

  it('throws the typed JetStream error when the stream does not exist', async () => {
    const err = await ensureConsumer(nats.jsm, {
      stream: `${infra.natsPrefix}_NONE`,
      durable: 'x',
      ackWaitS: 5,
      maxAckPending: 10,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JetStreamApiError);
    expect((err as JetStreamApiError).code).toBe(JetStreamApiCodes.StreamNotFound);
  });
});

describe(startPullLoop.name, () => {
  it('naks a message whose handler throws, which comes back and is acked once handled', async () => {
    const { stream, durable } = await fresh(3);
    const seen: string[] = [];
    let failedOnce = false;
    let failures = 0;
    const loop = startPullLoop(nats, {
      stream,
      durable,
      batch: 1,
      expiresMs: 1000,
      retryMs: 50,
      log,
      failureMessage: 'failed',
      onFailure: () => void failures++,
      handleMessage: async (m) => {
        seen.push(m.string());
        if (m.string() === '1' && !failedOnce) {
          failedOnce = true;
          throw new Error('boom');
        }
      },
    });
    try {
      await until(() => seen.filter((s) => s === '1').length === 2 && seen.length === 4).catch((e: unknown) => {
        throw new Error(JSON.stringify({ seen, failures }), { cause: e });
      });
      // Redelivered at once (nak), not after the 30 s ack wait.
      expect([...seen].sort()).toEqual(['0', '1', '1', '2']);
      expect(failures).toBe(1);
      await until(async () => (await consumerLag(nats.jsm, stream, durable)) === 0);
    } finally {
      await loop.stop();
    }
  });

  it('keeps at most a batch of messages in flight with a slow handler', async () => {
    const { stream, durable } = await fresh(12);
    let inFlight = 0;
    let most = 0;
    let done = 0;
    const loop = startPullLoop(nats, {
      stream,
      durable,
      batch: 3,
      expiresMs: 1000,
      log,
      failureMessage: 'failed',
      handleMessage: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 100));
        inFlight--;
        done++;
      },
    });
    try {
      await until(() => done === 12);
      expect(most).toBe(3);
      await until(async () => (await consumerLag(nats.jsm, stream, durable)) === 0);
    } finally {
      await loop.stop();
    }
  });

  it('asks a batch function before each pull: a pull of what is waiting is answered before it expires', async () => {
    const { stream, durable, subject } = await fresh(7);
    const batches: { size: number; ms: number }[] = [];
    let asked = 0;
    let pulledAt = 0;
    const loop = startPullLoop(nats, {
      stream,
      durable,
      // What is waiting now (at least one), as the results ingestor asks.
      batch: async () => {
        asked++;
        pulledAt = Date.now();
        return Math.max(1, (await nats.jsm.consumers.info(stream, durable)).num_pending);
      },
      expiresMs: 5000,
      log,
      failureMessage: 'failed',
      handleBatch: async (msgs) => void batches.push({ size: msgs.length, ms: Date.now() - pulledAt }),
    });
    try {
      await until(() => batches.length === 1);
      // The seven waiting in one pull, answered at once rather than after the 5 s a pull of more would wait.
      expect(batches[0]!.size).toBe(7);
      expect(batches[0]!.ms).toBeLessThan(2500);
      // Idle, a pull of one: a message published later is handled at once, alone.
      await new Promise((r) => setTimeout(r, 200));
      await nats.js.publish(subject, 'late');
      await until(() => batches.length === 2);
      expect(batches[1]!.size).toBe(1);
      expect(asked).toBeGreaterThanOrEqual(2);
    } finally {
      await loop.stop();
    }
  });

  it('naks a whole batch when its batch handler throws and acks it when it succeeds', async () => {
    const { stream, durable } = await fresh(5);
    const batches: string[][] = [];
    const loop = startPullLoop(nats, {
      stream,
      durable,
      batch: 10,
      expiresMs: 1000,
      retryMs: 50,
      log,
      failureMessage: 'failed',
      handleBatch: async (msgs) => {
        batches.push(msgs.map((m) => m.string()));
        if (batches.length === 1) throw new Error('insert failed');
      },
    });
    try {
      await until(() => batches.flat().length >= 10);
      expect(batches.flat().sort()).toEqual(['0', '0', '1', '1', '2', '2', '3', '3', '4', '4']);
      await until(async () => (await consumerLag(nats.jsm, stream, durable)) === 0);
    } finally {
      await loop.stop();
    }
  });

  it('stops: a waiting pull ends at once, the batch in hand finishes and is acked', async () => {
    const idle = await fresh(0);
    const idleLoop = startPullLoop(nats, {
      ...idle,
      batch: 1,
      expiresMs: 30_000,
      log,
      failureMessage: 'failed',
      handleMessage: async () => undefined,
    });
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    await idleLoop.stop();
    expect(Date.now() - t0).toBeLessThan(5000);

    const { stream, durable } = await fresh(2);
    let started = 0;
    let finished = 0;
    const loop = startPullLoop(nats, {
      stream,
      durable,
      batch: 2,
      expiresMs: 1000,
      log,
      failureMessage: 'failed',
      handleMessage: async () => {
        started++;
        await new Promise((r) => setTimeout(r, 500));
        finished++;
      },
    });
    await until(() => started === 2);
    await loop.stop();
    expect(finished).toBe(2);
    // Acked (the server applies acks a moment after they arrive: read until it shows them, at most 2 s).
    await until(async () => (await consumerLag(nats.jsm, stream, durable)) === 0, 2000);
  });

  it('pause waits for the batch in hand; nothing is pulled until resume', async () => {
    const { stream, durable, subject } = await fresh(1);
    const seen: string[] = [];
    const loop = startPullLoop(nats, {
      stream,
      durable,
      batch: 1,
      expiresMs: 1000,
      log,
      failureMessage: 'failed',
      handleMessage: async (m) => void seen.push(m.string()),
    });
    try {
      await until(() => seen.length === 1);
      await loop.pause();
      await nats.js.publish(subject, 'later');
      await new Promise((r) => setTimeout(r, 1500));
      expect(seen).toEqual(['0']);
      loop.resume();
      await until(() => seen.length === 2);
    } finally {
      await loop.stop();
    }
  });
});

describe(connectNatsRetrying.name, () => {
  it('prepares on connect, and gives up when stopped while NATS is away', async () => {
    let prepared = 0;
    const ok = await connectNatsRetrying(infra.natsUrl, {
      name: 'retry-test',
      log,
      stopped: () => false,
      waitingMessage: 'waiting',
      prepare: async () => void prepared++,
    });
    expect(prepared).toBe(1);
    await ok?.close();
    let stopped = false;
    setTimeout(() => (stopped = true), 1500);
    // Nothing listens on port 1: it retries until stopped.
    expect(
      await connectNatsRetrying('nats://127.0.0.1:1', {
        name: 'retry-test',
        log,
        stopped: () => stopped,
        waitingMessage: 'waiting',
        prepare: async () => undefined,
      }),
    ).toBeUndefined();
  });
});
