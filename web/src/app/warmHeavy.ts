// Once the first screen is usable, the service worker fetches the heavy chunks (plotly, deck.gl) for offline use:
// sw-heavy.js, written by the build (vite.config.ts). "Usable" is read from the network: the page has fetched
// nothing for QUIET_MS after its load event (its chunks, API answers and the screen's own libraries are in), then
// the browser is idle. A chunk the screen already fetched comes from the HTTP cache (immutable), not the network.
// Not on a data-saving connection: there they are kept on first use only.

/** No resource finished for this long: the first screen is done with the network. */
const QUIET_MS = 4000;

function whenNetworkQuiet(then: () => void): void {
  let timer: ReturnType<typeof setTimeout>;
  const observer = typeof PerformanceObserver === 'undefined' ? null : new PerformanceObserver(() => arm());
  const done = () => {
    observer?.disconnect();
    then();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(done, QUIET_MS);
  };
  observer?.observe({ type: 'resource' });
  arm();
}

export function warmHeavyChunksWhenIdle(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if ((navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData) return;
  const ask = () =>
    void navigator.serviceWorker.ready.then((registration) => {
      const post = () => registration.active?.postMessage({ type: 'FW_WARM_HEAVY' });
      if ('requestIdleCallback' in window) window.requestIdleCallback(post, { timeout: 10_000 });
      else setTimeout(post, 0);
    });
  const start = () => whenNetworkQuiet(ask);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
