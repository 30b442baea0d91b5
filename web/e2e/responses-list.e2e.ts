// The responses list pages from the server (response-chunk/filter), never the whole project: filters by site,
// status and dates, sorts, page sizes, kept in the address; View shows a response and Edit stores a new version.
import { expect, test } from './support/fixtures.js';
import { householdForm } from './support/forms.js';
import { logIn } from './support/ui.js';

type Stored = { response_id: string; version: number; data: Record<string, Record<string, unknown>> };

test('a data manager pages through 130 responses, filters and sorts them, views one and edits it into a new version', async ({
  page,
  api,
  shot,
}) => {
  const form = householdForm();
  const { ids } = form;
  const project = await api.createProject('Big survey');
  const schemaId = project.sampler_schemas[0]!.id;
  await api.saveSchema(schemaId, form.body);
  const north = await api.must<{ id: number }>('POST', `project/${project.id}/sites/`, {
    name: 'North',
    geotag: { type: 'Point', coordinates: [1, 1] },
  });
  // 130 responses: every third completed, every fifth in the North site, one a day from 1 January 2026.
  const made: string[] = [];
  for (let start = 0; start < 130; start += 26) {
    await Promise.all(
      Array.from({ length: 26 }, async (_, k) => {
        const i = start + k;
        const response_id = `${project.id}-${schemaId}-e2e-list-${i}`;
        made[i] = response_id;
        await api.must('POST', `project/${project.id}/response/${i % 3 === 0 ? 'complete/' : ''}`, {
          sampler_schema: schemaId,
          response_id,
          site: i % 5 === 0 ? north.id : project.sites![0]!.id,
          time_created: new Date(Date.UTC(2026, 0, 1 + i, 12)).toISOString(),
          data: { '0': { [ids.age]: 20 + (i % 60), [ids.sick]: [ids.no], [ids.code]: `KE${String(1000 + i)}` } },
        });
      }),
    );
  }
  const manager = await api.addProjectUser(project.id, 'data_manager');
  const pages: string[] = [];
  const wholeProject: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/response-chunk/filter/')) pages.push(new URL(r.url()).search);
    if (/\/response\/(\?|from\/)/.test(r.url())) wholeProject.push(r.url());
  });
  await page.goto(`/project/${project.id}/collect/${schemaId}/list`);
  await logIn(page, manager, page.getByTestId('response-list'));
  await expect(page.getByTestId('list-count')).toHaveText('130 responses');
  await expect(page.getByTestId('response-row')).toHaveCount(50);
  await expect(page.getByTestId('page-of')).toHaveText('Page 1 of 3');
  await shot('first-page');
  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-of')).toHaveText('Page 2 of 3');
  await expect(page).toHaveURL(/page=2/);
  await page.locator('details.filters > summary').click();
  await page.getByTestId('page-size').selectOption('100');
  await expect(page.getByTestId('page-of')).toHaveText('Page 1 of 2');
  await expect(page.getByTestId('response-row')).toHaveCount(100);

  await page.getByTestId('filter-site').selectOption({ label: 'North' });
  await expect(page.getByTestId('list-count')).toHaveText('26 responses');
  await page.getByTestId('filter-status').selectOption('completed');
  // i % 5 == 0 and i % 3 == 0: i = 0, 15, ..., 120
  await expect(page.getByTestId('list-count')).toHaveText('9 responses');
  await page.getByTestId('filter-status').selectOption('any');
  await page.getByTestId('sort').selectOption('time_created');
  await page.getByTestId('filter-from').fill('2026-01-10');
  await page.getByTestId('filter-to').fill('2026-01-31');
  // North (i % 5 == 0) created 10-31 January (i = 9..30): i = 10, 15, 20, 25, 30, newest first.
  await expect(page.getByTestId('list-count')).toHaveText('5 responses');
  await expect(page.getByTestId('response-row').first()).toHaveAttribute('data-response-id', made[30]!);
  await shot('filtered');
  // A reload keeps the filters (they live in the address).
  await page.reload();
  await expect(page.getByTestId('list-count')).toHaveText('5 responses');
  expect(pages.every((q) => /page_size=(50|100)/.test(q))).toBe(true);
  expect(wholeProject, 'the list never fetches the whole project').toEqual([]);

  // View, then Edit: a new version on the server.
  const row = page.locator(`[data-testid="response-row"][data-response-id="${made[30]}"]`);
  await row.getByRole('link', { name: 'View' }).click();
  await expect(page.getByTestId('response-view')).toBeVisible();
  await expect(page.locator(`#q${ids.code}-input`)).toHaveValue('KE1030');
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.locator(`#q${ids.age}-input`).fill('61');
  await page.getByTestId('complete-response').click();
  await expect(page.getByTestId('notice')).toHaveText('The response is saved on the server.');
  const edited = await api.must<Stored>('GET', `project/${project.id}/response/single/${made[30]}/`);
  expect(edited.version).toBe(2);
  expect(edited.data['0']![String(ids.age)]).toBe(61);
});
