// NATS JetStream for a service: one connection per process, idempotent stream set-up.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import type { Logger } from './logger.js';

export type { NatsConnection, JetStreamClient, JetStreamManager, StreamConfig };

export interface Nats {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** Drains subscriptions and closes. */
  close(): Promise<void>;
}

/** Connects to `servers` (comma-separated URLs) and opens JetStream. Reconnects forever while the process lives. */
export async function connectNats(servers: string, options: { name: string; log: Logger }): Promise<Nats> {
  const nc = await connect({
    servers: servers.split(',').map((s) => s.trim().replace(/^nats:\/\//, '')),
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // No stack captured for every request and publish "in case it fails": an outbox of thousands of rows spent a
    // tenth of the responses service's time making errors never thrown (bench/import --profile).
    noAsyncTraces: true,
  });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') {
        options.log.warn({ nats: s.type }, 'nats connection status');
      }
    }
  })();
  const jsm = await jetstreamManager(nc);
  return {
    nc,
    js: jetstream(nc),
    jsm,
    close: async () => {
      if (!nc.isClosed()) await nc.drain();
    },
  };
}

/**
 * `connectNats`, then `prepare` (make the streams and consumers the caller needs), retried every second while NATS is
 * away or refuses, with a warning every tenth attempt; a connection whose `prepare` failed is closed. Resolves
 * undefined when `stopped()` turns true before it succeeds. For work that must not hold up a service's start.
 */
export async function connectNatsRetrying(
  servers: string,
  options: {
    name: string;
    log: Logger;
    prepare: (nats: Nats) => Promise<void>;
    stopped: () => boolean;
    waitingMessage: string;
  },
): Promise<Nats | undefined> {
  for (let attempt = 0; !options.stopped(); attempt++) {
    let nats: Nats | undefined;
    try {
      nats = await connectNats(servers, options);
      await options.prepare(nats);
      return nats;
    } catch (err) {
      await nats?.close().catch(() => undefined);
      if (attempt % 10 === 0) options.log.warn({ err }, options.waitingMessage);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return undefined;
}

/** Creates `config.name`, or updates it when it exists with other settings. */
export async function ensureStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string; subjects: string[] },
): Promise<void> {
  try {
    await jsm.streams.info(config.name);
  } catch (err) {
    if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound) {
      await jsm.streams.add(config);
      return;
    }
    throw err;
  }
  await jsm.streams.update(config.name, config);
}
