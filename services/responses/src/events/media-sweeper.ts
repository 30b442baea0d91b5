// Uploads never completed expire: an image or signature asked for and not completed within MEDIA_PENDING_TTL_S (its
// upload URL lasted 15 minutes) is deleted, object and row, so nobody can fill the store with files never attached.
import type { Logger, ObjectStore } from '@fieldwork/service-kit';
import type { ResponseStore } from '../store/response.store.js';

const BATCH = 500;

export function startMediaSweeper(options: {
  store: ResponseStore;
  files: ObjectStore;
  log: Logger;
  ttlSeconds: number;
  everyMs: number;
}): { stop: () => Promise<void> } {
  const { store, files, log } = options;
  let running: Promise<void> | undefined;
  const sweep = () => {
    running ??= (async () => {
      try {
        let gone = 0;
        for (let n = BATCH; n === BATCH; gone += n) {
          n = await store.sweepPendingMedia(options.ttlSeconds, BATCH, async (m) => {
            await files
              .delete(m.object_key)
              .catch((err: unknown) =>
                log.warn({ err, key: m.object_key }, 'expired upload not deleted from the object store'),
              );
          });
        }
        if (gone > 0) log.info({ gone }, 'uploads never completed deleted');
      } catch (err) {
        log.warn({ err }, 'media sweep failed; next time');
      } finally {
        running = undefined;
      }
    })();
  };
  const timer = setInterval(sweep, options.everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
