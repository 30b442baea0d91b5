// A collector on a phone, on a slow link, fills a form offline, reloads, comes back online, and the response
// uploads by itself: it is in the list and in the API.
import { addBlock, addChoice, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { FIELD_3G, setOffline, setOnline, throttle } from './support/network.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { logIn } from './support/ui.js';

forEachViewport(['phone'], () => {
  test('a collector fills a form offline, reloads, goes back online, and finds the response in the list and in the API', async ({
    page,
    api,
    shot,
  }) => {
    // The project, its form and its collector, through the API.
    const project = await api.createProject('Offline Survey');
    const schemaId = project.sampler_schemas[0]!.id;
    const b = addBlock(newSchemaBody('S'), { en: 'Household' });
    const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
    const fuel = addItem(adults.body, b.id, 'choice', 'en', 'Fuel');
    const wood = addChoice(fuel.body, fuel.id, 'en', 'Wood');
    const gas = addChoice(wood.body, fuel.id, 'en', 'Gas');
    const double = addItem(gas.body, b.id, 'calculated', 'en', 'Double');
    const body = updateItem(double.body, double.id, {
      options: { ...double.body.entities.items[double.id]!.options, formula: `Q${b.id}_${adults.id} * 2` },
    });
    await api.saveSchema(schemaId, body);
    const collector = await api.addProjectUser(project.id, 'collector');

    // Online once, at the office: the app installs itself (its service worker keeps the app, the form and the
    // project on the device). Installing over 3G would download every screen's code, tens of seconds.
    await page.goto(`/login-home/login?next=${encodeURIComponent(`/project/${project.id}/collect/${schemaId}/list`)}`);
    await logIn(page, collector, page.getByTestId('response-list'));
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));

    // In the field, on a slow link.
    await throttle(page, FIELD_3G);
    await page.reload();
    await expect(page.getByTestId('response-list')).toBeVisible();
    await page.getByRole('link', { name: 'New record' }).first().click();
    await expect(page.getByTestId('collect-form')).toBeVisible();

    // Offline: fill and complete; the calculation follows the answer; validity first.
    await setOffline(page);
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('validity-message')).toContainText(
      'At least one question must be answered to save this record.',
    );
    await page.locator(`[data-item="${adults.id}"] input`).fill('4');
    await expect(page.getByTestId('calculated')).toHaveText('8');
    await page.locator(`[data-item="${fuel.id}"] label`, { hasText: 'Gas' }).locator('input').check();
    await shot('offline-form');
    await page.getByTestId('complete-response').click();
    // Told honestly where it is: on this device, waiting.
    await expect(page.getByTestId('notice')).toHaveText(
      'Saved on this device. It will be sent when the network is back.',
    );
    await expect(page.getByTestId('response-list')).toBeVisible();
    const row = page.getByTestId('queue-row').first();
    await expect(row.getByText('Waiting to upload')).toBeVisible();
    const responseId = (await row.getAttribute('data-response-id'))!;
    await expectNoHorizontalScroll(page);

    // Still offline: a reload keeps everything, and nothing reached the server.
    await page.reload();
    await expect(page.getByTestId('queue-row').filter({ hasText: 'Waiting to upload' })).toHaveCount(1);
    await shot('offline-after-reload');
    expect((await api.get(`project/${project.id}/response/single/${responseId}/`)).status).toBe(404);

    // Online again (still slow): it uploads by itself, leaves the device's queue and is in the server's list.
    await setOnline(page);
    await expect(page.getByTestId('queue-row')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator(`[data-testid="response-row"][data-response-id="${responseId}"]`)).toHaveCount(1, {
      timeout: 15_000,
    });
    await shot('synced');
    const stored = await api.get<{ completed: boolean; data: unknown }>(
      `project/${project.id}/response/single/${responseId}/`,
    );
    expect(stored.status).toBe(200);
    expect(stored.body.completed).toBe(true);
    expect(stored.body.data).toEqual({ '0': { [adults.id]: 4, [fuel.id]: [gas.id], [double.id]: 8 } });
  });
});
