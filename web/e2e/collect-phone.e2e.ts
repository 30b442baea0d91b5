// Collecting on a phone: every collect screen fits 360 and 390 px wide screens without sideways scrolling, what a
// finger taps is at least 44 px high, number questions bring up the number keyboard and dates the native picker.
import { addItem } from '@fieldwork/sampler';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdForm } from './support/forms.js';
import { expectNoHorizontalScroll, expectTouchTargets, INTERACTIVE } from './support/layout.js';
import { setOffline, setOnline } from './support/network.js';
import { logIn } from './support/ui.js';

forEachViewport(['smallPhone', 'phone'], () => {
  test('every collect screen fits the phone, with touch targets a finger can hit', async ({ page, api, shot }) => {
    const form = householdForm();
    const { ids } = form;
    // Every other kind of question too, with long labels.
    const block = form.body.form[0]!;
    let body = form.body;
    for (const type of ['currency', 'geotag', 'barcode', 'image', 'signature', 'reference_project'] as const) {
      const q = addItem(
        body,
        block,
        type,
        'en',
        `A ${type} question whose label is long enough to need two lines on a phone`,
      );
      body = q.body;
    }
    const project = await api.createProject('A project with a rather long name for a small screen');
    const schemaId = project.sampler_schemas[0]!.id;
    await api.saveSchema(schemaId, body);
    const collector = await api.addProjectUser(project.id, 'collector');
    const content = (selector = INTERACTIVE) => `main ${selector.split(', ').join(', main ')}`;
    const check = async (name: string) => {
      await expectNoHorizontalScroll(page);
      await expectTouchTargets(page, content());
      await shot(name);
    };

    await page.goto('/login-home/login');
    await expectNoHorizontalScroll(page);
    await expectTouchTargets(page);
    await page.goto(`/project/${project.id}/collect`);
    await logIn(page, collector, page.getByTestId('collect-home'));
    await check('collect-home');

    await page.getByRole('link', { name: 'New record' }).click();
    await expect(page.getByTestId('collect-form')).toBeVisible();
    await expect(page.locator(`#q${ids.age}-input`)).toHaveAttribute('inputmode', 'numeric');
    await expect(page.locator(`#q${ids.age}-input`)).toHaveAttribute('type', 'number');
    await expect(page.locator(`#q${ids.visit}-input`)).toHaveAttribute('type', 'date');
    await check('form');
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('problem-count')).toBeVisible();
    await check('form-with-problems');

    // A response waiting on the device, and one on the server.
    await setOffline(page);
    await page.locator(`#q${ids.age}-input`).fill('38');
    await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('queue-row')).toHaveCount(1);
    await check('queue');
    await setOnline(page);
    await expect(page.getByTestId('queue-row')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('response-row')).toHaveCount(1, { timeout: 15_000 });
    await page.locator('details.filters > summary').click();
    await check('list-with-filters');

    await page.getByTestId('response-row').getByRole('link', { name: 'View' }).click();
    await expect(page.getByTestId('response-view')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await shot('view');
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByTestId('collect-form')).toBeVisible();
    await expect(page.locator(`#q${ids.age}-input`)).toHaveValue('38');
    await check('edit');
  });
});
