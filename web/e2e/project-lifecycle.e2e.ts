// An owner runs a project's whole life from the projects page: its card counts its responses, it is duplicated into
// a new folder and moved there, deleted (the dialog says what deletion means), then purged from "Deleted projects"
// after a confirmation naming what goes; it is then in no list, and the copy is untouched.
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdForm } from './support/forms.js';
import { logIn } from './support/ui.js';

forEachViewport(['phone', 'desktop'], () => {
  test('an owner duplicates a project into a folder, moves it, deletes it and purges it', async ({
    page,
    api,
    owner,
    shot,
  }) => {
    // Setup: a project with a form and three responses, ingested into the results store.
    const form = householdForm();
    const project = await api.createProject('Boreholes');
    const schemaId = project.sampler_schemas[0]!.id;
    await api.saveSchema(schemaId, form.body);
    for (let i = 0; i < 3; i++)
      await api.must('POST', `project/${project.id}/response/complete/`, {
        sampler_schema: schemaId,
        response_id: `${project.id}-${schemaId}-e2e-life-${i}`,
        site: project.sites![0]!.id,
        data: { '0': { [form.ids.age]: 30 + i, [form.ids.sick]: [form.ids.no], [form.ids.code]: `KE100${i}` } },
      });
    const org = owner.organizationId;
    await expect
      .poll(async () => {
        const o = await api.must<{ project_details: { id: number; total_responses: number }[] }>(
          'GET',
          `organization/${org}/`,
        );
        return o.project_details.find((p) => p.id === project.id)?.total_responses;
      })
      .toBe(3);
    // Ingestion into the results store is asynchronous: the purge's counts below read it, so wait for all three
    // (on a loaded machine it lags the responses table; the dialog then said "0 rows of results").
    await expect
      .poll(
        async () => {
          const r = await api.must<{ levels: { total_filtered_responses: number }[] }>(
            'POST',
            `project/${project.id}/results/schema/${schemaId}/item/`,
            { item_ids: [form.ids.age] },
          );
          return r.levels[0]?.total_filtered_responses;
        },
        { timeout: 60_000 },
      )
      .toBe(3);

    await page.goto('/login-home/login');
    await logIn(page, owner, page.getByTestId('projects-screen'));
    const card = (name: RegExp) => page.getByTestId('project-card').filter({ hasText: name });
    // The card counts the project's responses (it used to say 0).
    await expect(card(/^Boreholes/).first()).toContainText('3 responses');
    await shot('cards');

    // A folder, made in a dialog.
    await page.getByTestId('new-folder').click();
    await page.getByTestId('folder-name').fill('Archive');
    await shot('new-folder');
    await page.getByTestId('confirm-folder').click();
    await expect(page.getByTestId('folder-card').filter({ hasText: 'Archive' })).toBeVisible();

    // Duplicate into the folder (spec 000: project/{id}/duplicate/{folderId}/).
    await card(/^Boreholes/)
      .getByTestId('duplicate-project')
      .click();
    await page.getByTestId('duplicate-into-folder').check();
    await page.getByTestId('folder-select').selectOption({ label: 'Archive' });
    await shot('duplicate');
    await page.getByTestId('confirm-duplicate').click();
    await expect(page.getByTestId('duplicate-dialog')).toBeHidden();

    // Move the original there too.
    await card(/^Boreholes/)
      .getByTestId('move-project')
      .click();
    await page.getByTestId('folder-select').selectOption({ label: 'Archive' });
    await shot('move');
    await page.getByTestId('confirm-move').click();
    await expect(page.getByTestId('move-dialog')).toBeHidden();
    await expect(page.getByTestId('project-card').filter({ hasText: 'Boreholes' })).toHaveCount(0);
    await page
      .getByTestId('folder-card')
      .filter({ hasText: 'Archive' })
      .getByRole('button', { name: /Archive/ })
      .click();
    await expect(page.getByTestId('project-card').filter({ hasText: 'Boreholes' })).toHaveCount(2);
    const copy = card(/copy/i);
    await expect(copy).toContainText('0 responses');
    await shot('folder');

    // Delete the original: the dialog says what deletion means.
    const original = page.getByTestId('project-card').filter({ hasText: 'Boreholes' }).filter({ hasNotText: /copy/i });
    await original.getByTestId('delete-project').click();
    await expect(page.getByTestId('delete-explain')).toContainText('disappears from every list and count');
    await expect(page.getByTestId('delete-explain')).toContainText('takes no more responses');
    await shot('delete-dialog');
    await page.getByTestId('confirm-delete').click();
    await expect(page.getByTestId('project-card').filter({ hasText: 'Boreholes' })).toHaveCount(1);
    // Uploads to it are refused.
    const refused = await api.request('POST', `project/${project.id}/response/complete/`, {
      sampler_schema: schemaId,
      response_id: `${project.id}-${schemaId}-e2e-life-9`,
      data: { '0': { [form.ids.age]: 40 } },
    });
    expect([refused.status, refused.body]).toEqual([404, { detail: 'Invalid Project Id!' }]);

    // Purge it from the deleted projects, after a confirmation naming what goes.
    await page.getByTestId('deleted-projects').click();
    const deleted = page.getByTestId('deleted-project').filter({ hasText: 'Boreholes' });
    await expect(deleted).toHaveCount(1);
    await shot('deleted-projects');
    await deleted.getByTestId('purge-project').click();
    const counts = page.getByTestId('purge-counts');
    await expect(counts.locator('[data-kind="responses"]')).toHaveText('3 responses');
    await expect(counts.locator('[data-kind="results_rows"]')).not.toHaveText('0 rows of results');
    await expect(page.getByTestId('confirm-purge')).toBeDisabled();
    await page.getByTestId('purge-name').fill('Boreholes');
    await shot('purge-confirm');
    await page.getByTestId('confirm-purge').click();
    await expect(page.getByTestId('purge-done')).toBeVisible({ timeout: 60_000 });
    await shot('purged');
    await page.getByTestId('purge-dialog').getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('deleted-project').filter({ hasText: 'Boreholes' })).toContainText('Purged');
    await page.getByTestId('deleted-dialog').getByRole('button', { name: 'Close' }).click();

    // Gone from every list; the copy keeps its place.
    await expect(page.getByTestId('project-card').filter({ hasText: 'Boreholes' })).toHaveCount(1);
    const o = await api.must<{ project_details: { id: number }[] }>('GET', `organization/${org}/`);
    expect(o.project_details.map((p) => p.id)).not.toContain(project.id);
    const purges = await api.must<{ results: { project_id: number; state: string }[] }>(
      'GET',
      `organization/${org}/purges/`,
    );
    expect(purges.results).toEqual([expect.objectContaining({ project_id: project.id, state: 'done' })]);
    expect((await api.request('GET', `project/${project.id}/`)).status).toBe(404);
  });
});
