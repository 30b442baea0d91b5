// Publishes the revocation outbox to the revocation list (NATS KV): on a NOTIFY from the writer, and every interval
// as a sweep, so a revocation written while NATS was away reaches the gateways once it is back.
import type { Logger, Revocation } from '@fieldwork/service-kit';
import type { RevocationStore } from '../store/revocation.store.js';
import { startRelay } from './relay.js';

export async function startRevocationRelay(
  outbox: RevocationStore,
  publish: (r: Revocation) => Promise<void>,
  log: Logger,
  intervalMs = 2_000,
): Promise<() => Promise<void>> {
  return startRelay({
    drain: () => outbox.drain(publish),
    listen: (wake) => outbox.listen(wake),
    intervalMs,
    log,
    sent: 'revocations published',
    failed: 'revocation relay failed; retrying',
  });
}
