// Reads that may finish out of order deliver only the newest answer. IndexedDB runs read-only transactions side by
// side, so two reads of the local store started one after the other can resolve in either order: a screen that
// took each answer as it came could keep an older state (a response still "sending") after the newer one, and with
// no further change to read again it stayed so.

/** Wraps `read` so that each call's answer reaches `deliver` only if no later call was made meanwhile. */
export function latestOnly<T>(read: () => Promise<T>, deliver: (value: T) => void): () => void {
  let seq = 0;
  return () => {
    const mine = ++seq;
    void read().then((value) => {
      if (mine === seq) deliver(value);
    });
  };
}
