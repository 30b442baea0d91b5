// One validation everywhere: the collector's form checks every answer with packages/sampler (the responses service's
// own check) before anything is queued or sent, says at each question what is wrong in the spec's words, counts
// what needs attention and jumps to the first; the builder's preview says the same.
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdForm, householdProject } from './support/forms.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { logIn } from './support/ui.js';

forEachViewport(['phone'], () => {
  test('a collector is told at each question what is wrong before anything is sent, fixes it, and the response is saved on the server', async ({
    page,
    api,
    shot,
  }) => {
    const { ids, project, collector } = await householdProject(api, 'Household visits');
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/project\/\d+\/response\//.test(r.url())) uploads.push(r.url());
    });

    await page.goto(`/project/${project.id}/collect/newrecord`);
    await logIn(page, collector, page.getByTestId('collect-form'));
    await page.locator(`#q${ids.age}-input`).fill('150');
    await page.locator(`#q${ids.code}-input`).fill('ke42');
    await page.locator(`#q${ids.visit}-input`).fill('2019-06-30');
    const fuels = page.locator(`[data-item="${ids.fuel}"]`);
    for (const f of ['Wood', 'Gas', 'Coal']) await fuels.getByText(f, { exact: true }).click();
    await page.locator(`[data-item="${ids.sick}"]`).getByText('Yes', { exact: true }).click();
    await page.getByTestId('complete-response').click();

    // Each problem at its question; the count; the first problem has the focus; nothing left the device.
    const problemAt = (id: number) => page.locator(`[data-item="${id}"]`).getByTestId('question-error');
    await expect(problemAt(ids.age)).toHaveText('Ensure this value is less than or equal to 100.');
    await expect(problemAt(ids.code)).toHaveText('Two capital letters then four digits, like KE0042.');
    await expect(problemAt(ids.visit)).toHaveText('Ensure this value is greater than or equal to 2020-01-01.');
    await expect(problemAt(ids.fuel)).toHaveText('Choose at most 2 answers.');
    await expect(problemAt(ids.who)).toHaveText('This question is required.');
    await expect(page.getByTestId('validity-message')).toHaveText(
      'All required questions must be answered to save this record.',
    );
    await expect(page.getByTestId('problem-count')).toHaveText('5 answers need attention');
    await expect(page.locator(`#q${ids.age}-input`)).toBeFocused();
    await expectNoHorizontalScroll(page);
    await shot('problems');
    expect(uploads, 'nothing is sent while answers need attention').toEqual([]);

    // Fixed one by one; "No": the illness question is hidden, so it is no longer required.
    await page.locator(`#q${ids.age}-input`).fill('45');
    await page.locator(`#q${ids.code}-input`).fill('KE0042');
    await page.locator(`#q${ids.visit}-input`).fill('2026-03-02');
    await fuels.getByText('Coal', { exact: true }).click();
    await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
    await expect(page.locator(`[data-item="${ids.who}"]`)).toHaveCount(0);
    await expect(page.getByTestId('question-error')).toHaveCount(0);
    await page.getByTestId('complete-response').click();

    // Told it is saved only once the server has it.
    await expect(page.getByTestId('notice')).toHaveText('The response is saved on the server.');
    await expect(page.getByTestId('response-list')).toBeVisible();
    await expect(page.getByTestId('response-row')).toHaveCount(1);
    await shot('saved');
    type Listed = { results: { data: Record<string, Record<string, unknown>>; completed: boolean; site_id: number }[] };
    const stored = await api.must<Listed>(
      'POST',
      `project/${project.id}/response-chunk/filter/?page=1&page_size=10`,
      {},
    );
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0]!.completed).toBe(true);
    expect(stored.results[0]!.data['0']).toEqual({
      [ids.age]: 45,
      [ids.code]: 'KE0042',
      [ids.visit]: '2026-03-02',
      [ids.fuel]: [ids.wood, ids.gas],
      [ids.sick]: [ids.no],
    });
    expect(uploads).toHaveLength(1);
  });
});

test("the builder's preview checks answers as the collector's form does", async ({ page, api, owner, shot }) => {
  const form = householdForm();
  const project = await api.createProject('Preview check');
  await api.saveSchema(project.sampler_schemas[0]!.id, form.body);
  await page.goto(`/project/${project.id}/builder`);
  await logIn(page, owner, page.getByTestId('builder'));
  await page.getByTestId('panel-preview').click();
  const preview = page.getByTestId('preview');
  await preview.locator(`#q${form.ids.age}-input`).fill('150');
  await expect(preview.locator(`[data-item="${form.ids.age}"]`).getByTestId('question-error')).toHaveText(
    'Ensure this value is less than or equal to 100.',
  );
  await expect(page.getByTestId('preview-validity')).not.toHaveText('This record can be saved.');
  await expect(page.getByTestId('preview-validity')).toContainText('1 answer needs attention');
  await shot('preview-refuses');
  await preview.locator(`#q${form.ids.age}-input`).fill('45');
  await expect(page.getByTestId('preview-validity')).toHaveText('This record can be saved.');
});
