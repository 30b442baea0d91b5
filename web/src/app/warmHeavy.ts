// Once the first screen is usable and the browser idle, the service worker fetches the heavy chunks (plotly,
// deck.gl) for offline use: sw-heavy.js, written by the build (vite.config.ts). Not on a data-saving connection:
// there they are kept on first use only.

/** How long after the page's load event to wait before asking: the first screen's API calls come first. */
const AFTER_LOAD_MS = 3000;

export function warmHeavyChunksWhenIdle(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  if ((navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData) return;
  const ask = () =>
    void navigator.serviceWorker.ready.then((registration) => {
      const post = () => registration.active?.postMessage({ type: 'FW_WARM_HEAVY' });
      if ('requestIdleCallback' in window) window.requestIdleCallback(post, { timeout: 10_000 });
      else setTimeout(post, 0);
    });
  const later = () => setTimeout(ask, AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
