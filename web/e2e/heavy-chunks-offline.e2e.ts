// The chart and map libraries (plotly, deck.gl) are not part of the first screen nor of the service worker's
// install-time precache; once the first screen is usable the worker keeps them, and the map then draws offline.
import { expect, test } from './support/fixtures.js';
import { setOffline, setOnline } from './support/network.js';
import { logIn } from './support/ui.js';

const HEAVY = /\/assets\/(plotly|MapView)[^/]*\.js$/;

/** The URLs in the service worker's caches whose name starts with `prefix` (runs in the page). */
function cached(prefix: string): Promise<string[]> {
  return caches.keys().then(async (names) => {
    const urls: string[] = [];
    for (const name of names)
      if (name.startsWith(prefix)) urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
    return urls;
  });
}

test('the chart and map libraries stay out of the first screen and the install-time precache, then are kept for offline use', async ({
  page,
  owner,
  shot,
}) => {
  const early: string[] = [];
  const onRequest = (r: { url(): string }) => void (HEAVY.test(new URL(r.url()).pathname) && early.push(r.url()));
  page.context().on('request', onRequest);
  await page.goto('/login-home/login');
  await logIn(page, owner, page.getByTestId('project-card').first());
  page.context().off('request', onRequest);
  expect(early, 'no plotly or deck.gl chunk before the first screen is usable').toEqual([]);

  // Once the service worker is in control, a reload keeps the API answers for offline use (as a collector does).
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  const precached = await page.evaluate(cached, 'workbox-precache');
  expect(
    precached.some((u) => /\/assets\/index-[^/]+\.js/.test(u)),
    'the app shell is precached',
  ).toBe(true);
  expect(
    precached.filter((u) => HEAVY.test(new URL(u).pathname)),
    'not in the install-time precache',
  ).toEqual([]);
  await expect
    .poll(
      async () =>
        (await page.evaluate(cached, 'fw-heavy')).map((u) => new URL(u).pathname.replace(/-[\w-]+\.js$/, '')).sort(),
      {
        timeout: 60_000,
        message: 'kept once the first screen is usable',
      },
    )
    .toEqual(expect.arrayContaining(['/assets/MapView', '/assets/plotly-cartesian.min']));
  const plotly = (await page.evaluate(cached, 'fw-heavy')).find((u) => /plotly/.test(u))!;

  // Offline: the app reloads, the map view draws from the kept deck.gl chunks, plotly answers from the cache.
  await setOffline(page);
  await page.reload();
  await expect(page.getByTestId('project-card').first()).toBeVisible();
  await page.getByTestId('view-mode').selectOption('map');
  await expect(page.getByTestId('map')).toBeVisible();
  await shot('offline-map');
  expect(await page.evaluate(async (u) => (await fetch(u)).status, plotly), 'plotly is served offline').toBe(200);
  await setOnline(page);
});
