// Publishes the revocation outbox to the revocation list (NATS KV): on a NOTIFY from the writer, and every interval
// as a sweep, so a revocation written while NATS was away reaches the gateways once it is back.
import type { Logger, Revocation } from '@fieldwork/service-kit';
import type { RevocationStore } from '../store/revocation.store.js';

export async function startRevocationRelay(
  outbox: RevocationStore,
  publish: (r: Revocation) => Promise<void>,
  log: Logger,
  intervalMs = 2_000,
): Promise<() => Promise<void>> {
  let running: Promise<void> | undefined;
  let again = false;
  const drain = () => {
    if (running) {
      again = true;
      return;
    }
    running = outbox
      .drain(publish)
      .then((n) => {
        if (n > 0) log.debug({ published: n }, 'revocations published');
      })
      .catch((err: unknown) => log.error({ err }, 'revocation relay failed; retrying'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          drain();
        }
      });
  };
  const unlisten = await outbox.listen(drain);
  const timer = setInterval(drain, intervalMs);
  timer.unref();
  drain();
  return async () => {
    clearInterval(timer);
    await unlisten();
    await running;
  };
}
