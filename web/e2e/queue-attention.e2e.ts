// The device's queue never loses a response and never retries one in a loop: a response the server refuses at sync
// (its form changed while the collector was offline) stays on the device marked as needing attention, with the
// server's message, to be opened, fixed and sent again; a failing server is tried again later with the same
// response_id, and after three failures the response waits for the person. Logging out with unsent responses asks.
import type { Page } from '@playwright/test';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdProject, withMaximumAge } from './support/forms.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { setOffline, setOnline } from './support/network.js';
import { logIn } from './support/ui.js';

type List = {
  results: { response_id: string; version: number; data: Record<string, Record<string, unknown>> }[];
  count: number;
};

/** Response ids of the uploads the server answered (a try without a network never reaches it). */
function watchUploads(page: Page): string[] {
  const ids: string[] = [];
  page.on('response', (r) => {
    const q = r.request();
    if (q.method() === 'POST' && /\/api\/project\/\d+\/response\/(complete\/)?$/.test(q.url()))
      ids.push((q.postDataJSON() as { response_id: string }).response_id);
  });
  return ids;
}

forEachViewport(['phone'], () => {
  test('a response refused at sync waits on the device as needing attention, with the message, and is fixed and sent again', async ({
    page,
    api,
    shot,
  }) => {
    const { form, ids, project, schemaId, collector } = await householdProject(api, 'Changing form');
    await page.goto(`/project/${project.id}/collect/${schemaId}/list`);
    await logIn(page, collector, page.getByTestId('response-list'));
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    // The app says when the project's forms are on the device: only then does the collector leave the network.
    await expect(page.getByTestId('offline-ready')).toBeVisible();
    const uploads = watchUploads(page);

    await setOffline(page);
    await page.getByTestId('new-record').click();
    await page.locator(`#q${ids.age}-input`).fill('80');
    await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('queue-row')).toHaveCount(1);
    // Meanwhile the owner caps the age at 50.
    await api.saveSchema(schemaId, withMaximumAge(form, 50), 2);

    await setOnline(page);
    const row = page.getByTestId('queue-row');
    await expect(row.getByTestId('sync-state')).toHaveText('Needs attention', { timeout: 30_000 });
    await expect(row.getByTestId('queue-error')).toHaveText('Ensure this value is less than or equal to 50.');
    await expectNoHorizontalScroll(page);
    await shot('needs-attention');
    // Never retried by itself: over two more sync rounds, still the one upload.
    await page.waitForTimeout(11_000);
    expect(uploads).toHaveLength(1);
    expect((await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(0);

    await row.getByRole('link', { name: 'Open and fix' }).click();
    await expect(page.locator(`[data-item="${ids.age}"]`).getByTestId('question-error')).toHaveText(
      'Ensure this value is less than or equal to 50.',
    );
    await expect(page.locator(`#q${ids.age}-input`)).toHaveValue('80');
    await shot('fixing');
    await page.locator(`#q${ids.age}-input`).fill('48');
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('notice')).toHaveText('The response is saved on the server.');
    await expect(page.getByTestId('queue-row')).toHaveCount(0);
    const stored = (await api.get<List>(`project/${project.id}/response/`)).body;
    expect(stored.count).toBe(1);
    expect(stored.results[0]!.response_id).toBe(uploads[0]);
    expect(stored.results[0]!.data['0']![String(ids.age)]).toBe(48);
  });
});

test.describe('with a failing server', () => {
  // page.route sees the app's requests only without its service worker.
  test.use({ serviceWorkers: 'block' });

  test('a response the server fails is tried again later with the same id, waits for the person after three failures, and logging out asks first', async ({
    page,
    api,
    shot,
  }) => {
    const { ids, project, collector } = await householdProject(api, 'Flaky server');
    await page.clock.install();
    await page.goto(`/project/${project.id}/collect/newrecord`);
    await logIn(page, collector, page.getByTestId('collect-form'));
    const uploads = watchUploads(page);
    await page.route('**/api/project/*/response/complete/', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error_message: 'Service unavailable.' }),
      }),
    );

    await page.locator(`#q${ids.age}-input`).fill('41');
    await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('notice')).toHaveText(
      'Saved on this device. It will be sent when the network is back.',
    );
    const row = page.getByTestId('queue-row');
    await expect(row.getByTestId('sync-state')).toHaveText('Waiting to upload');
    // Later and later (5 s, then 10 s, with jitter): the clock runs ahead to each try.
    for (const n of [2, 3]) {
      await expect(async () => {
        await page.clock.fastForward('00:20');
        expect(uploads).toHaveLength(n);
      }).toPass({ timeout: 20_000 });
    }
    await expect(row.getByTestId('sync-state')).toHaveText('Needs attention');
    await expect(row.getByTestId('queue-error')).toContainText('could not take this response 3 times in a row');
    expect(new Set(uploads).size, 'every try sends the same response_id').toBe(1);
    await page.clock.fastForward('10:00');
    expect(uploads, 'after three failures it waits for the person').toHaveLength(3);
    await shot('waits-for-the-person');

    // Logging out now would leave it unsent: the app asks first.
    await page.getByTestId('logout').click();
    await expect(page.getByTestId('logout-unsent')).toContainText('One response on this device has not been sent yet.');
    await shot('logout-asks');
    await page.getByTestId('logout-stay').click();
    await expect(page.getByTestId('queue-row')).toHaveCount(1);

    await page.unroute('**/api/project/*/response/complete/');
    await page.getByTestId('resend').click();
    await expect(page.getByTestId('queue-row')).toHaveCount(0);
    const stored = (await api.get<List>(`project/${project.id}/response/`)).body;
    expect(stored.count).toBe(1);
    expect(stored.results[0]!.response_id).toBe(uploads[0]);
  });
});
