// An outbox relay: drains on a NOTIFY from the writer and every interval as a sweep (what was written while the
// destination was away goes out once it is back), one drain at a time, a request during a drain running it again.
import type { Logger } from '@fieldwork/service-kit';

export async function startRelay(opts: {
  /** Sends what is waiting; the number sent. */
  drain: () => Promise<number>;
  /** Calls `wake` on each NOTIFY; resolves to what stops listening. */
  listen: (wake: () => void) => Promise<() => Promise<void>>;
  intervalMs: number;
  log: Logger;
  /** Log messages: after a drain that sent something, and after a failed one. */
  sent: string;
  failed: string;
}): Promise<() => Promise<void>> {
  let running: Promise<void> | undefined;
  let again = false;
  const drain = () => {
    if (running) {
      again = true;
      return;
    }
    running = opts
      .drain()
      .then((n) => {
        if (n > 0) opts.log.debug({ count: n }, opts.sent);
      })
      .catch((err: unknown) => opts.log.error({ err }, opts.failed))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          drain();
        }
      });
  };
  const unlisten = await opts.listen(drain);
  const timer = setInterval(drain, opts.intervalMs);
  timer.unref();
  drain();
  return async () => {
    clearInterval(timer);
    await unlisten();
    await running;
  };
}
