// An offline collector keeps their session: a refresh that fails for a network reason keeps the session and every
// response on the device. Only the server refusing the refresh token ends the session, and even then the waiting
// responses stay on the device, bound to their user, and go up when that user logs in again.
import type { Page } from '@playwright/test';
import type { Api } from './support/api.js';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdProject } from './support/forms.js';
import { setOffline, setOnline } from './support/network.js';
import { logIn } from './support/ui.js';

type List = { count: number };
type Household = Awaited<ReturnType<typeof householdProject>>;

/** A collector of a new household project, logged in on its response list; the page's clock is Playwright's. */
async function collectorOnList(page: Page, api: Api, name: string): Promise<Household> {
  const household = await householdProject(api, name);
  const list = `/project/${household.project.id}/collect/${household.schemaId}/list`;
  await page.clock.install();
  await page.goto(`/login-home/login?next=${encodeURIComponent(list)}`);
  await logIn(page, household.collector, page.getByTestId('response-list'));
  return household;
}

/** Fills a new household response (age, not sick) and completes it, back on the list. */
async function completeResponse(page: Page, ids: Household['ids'], age: string): Promise<void> {
  await page.getByTestId('new-record').click();
  await page.locator(`#q${ids.age}-input`).fill(age);
  await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
  await page.getByTestId('complete-response').click();
  await expect(page.getByTestId('response-list')).toBeVisible();
}

/** The responses this device keeps (IndexedDB), as the app stored them. */
function onDevice(page: Page): Promise<{ response_id: string; sync: string; user: number }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('fieldwork-collect');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const all = open.result.transaction('responses').objectStore('responses').getAll();
          all.onsuccess = () => {
            resolve(
              (all.result as { response_id: string; sync: string; user: number }[]).map(
                ({ response_id, sync, user }) => ({ response_id, sync, user }),
              ),
            );
            open.result.close();
          };
        };
      }),
  );
}

forEachViewport(['phone'], () => {
  test('an offline collector stays logged in through a failed refresh; only a refused refresh ends the session, and the queue survives it', async ({
    page,
    api,
    shot,
  }) => {
    const { ids, project, collector } = await collectorOnList(page, api, 'Long day offline');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    // Once with the network: the page is read from the server, and kept by the service worker.
    await page.reload();
    await expect(page.getByTestId('list-count')).toBeVisible();
    await expect(page.getByTestId('offline-ready')).toBeVisible();

    // Offline, and 31 minutes later: the next call must refresh first, and cannot reach the server.
    await setOffline(page);
    await page.clock.fastForward('31:00');
    const refreshTried = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/api-token-refresh/'));
    await page.reload();
    await refreshTried;
    await expect(page.getByTestId('response-list')).toBeVisible();
    await expect(page).not.toHaveURL(/login-home/);
    expect(
      await page.evaluate(() => [
        localStorage.getItem('fw.access') !== null,
        localStorage.getItem('fw.refresh') !== null,
      ]),
    ).toEqual([true, true]);
    await completeResponse(page, ids, '44');
    await expect(page.getByTestId('queue-row')).toHaveCount(1);
    await shot('offline-after-failed-refresh');

    // The network comes back: the session refreshes and the response goes up.
    await setOnline(page);
    await expect(page.getByTestId('queue-row')).toHaveCount(0, { timeout: 30_000 });
    expect((await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(1);

    // The session is revoked elsewhere (a logout on another device, an administrator): the server refuses the
    // refresh token. A response made offline in the meantime waits on the device.
    const tokens = await page.evaluate(() => ({
      access: localStorage.getItem('fw.access')!,
      refresh: localStorage.getItem('fw.refresh')!,
    }));
    const revoked = await fetch(new URL('/api/accounts/logout/', page.url()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${tokens.access}` },
      body: JSON.stringify({ refresh: tokens.refresh }),
    });
    expect(revoked.status).toBeLessThan(300);
    await setOffline(page);
    await completeResponse(page, ids, '52');
    await expect(page.getByTestId('queue-row')).toHaveCount(1);
    await page.clock.fastForward('31:00');
    await setOnline(page);
    await page.reload();
    await expect(page).toHaveURL(/login-home\/login/);
    await shot('session-ended');
    const kept = await onDevice(page);
    expect(kept.filter((r) => r.sync !== 'uploaded')).toEqual([expect.objectContaining({ user: collector.userId })]);
    expect(
      (await api.get<List>(`project/${project.id}/response/`)).body.count,
      'nothing was sent without a session',
    ).toBe(1);

    // The same collector logs in again: the waiting response goes up.
    await logIn(page, collector, page.getByTestId('response-list'));
    await expect(page.getByTestId('queue-row')).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(2);
  });
  // The network is cut by routing the refresh, which Playwright does not see behind a service worker: none here.
  test.describe(() => {
    test.use({ serviceWorkers: 'block' });
    test('a refresh whose answer is lost on the way keeps the session: the next try gets a new pair', async ({
      page,
      api,
      shot,
    }) => {
      const { ids, project } = await collectorOnList(page, api, 'Patchy signal');

      // 31 minutes later the app refreshes first. The server rotates the refresh token, but its answer never reaches
      // the phone (the network drops on the way back): the phone still holds the token it just spent.
      const answered: number[] = [];
      await page.route('**/api/api-token-refresh/', async (route) => {
        const res = await route.fetch();
        answered.push(res.status());
        // The first answer is lost (the page may have moved on meanwhile); the others arrive.
        if (answered.length === 1) await route.abort('internetdisconnected').catch(() => undefined);
        else await route.fulfill({ response: res });
      });
      await page.clock.fastForward('31:00');
      await page.reload();
      await expect(page.getByTestId('response-list')).toBeVisible();
      // The next try presents the same token again, and gets a new pair instead of ending the session.
      await expect.poll(() => answered, { timeout: 30_000 }).toEqual([200, 200]);
      await page.unroute('**/api/api-token-refresh/');

      await completeResponse(page, ids, '37');
      await expect(page.getByTestId('queue-row')).toHaveCount(0, { timeout: 30_000 });
      await expect.poll(async () => (await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(1);
      await page.reload();
      await expect(page.getByTestId('response-list')).toBeVisible();
      await expect(page).not.toHaveURL(/login-home/);
      await shot('lost-refresh-answer');
    });
  });
});
