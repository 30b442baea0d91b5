// An owner renames a group and a team, edits a site's name and geotag in dialogs (a wrong geotag and the name
// Default are refused with the server's message), finds the import screen saying its feature is off and who turns
// it on, and picks one of 2,001 profiles by typing in the results' profile picker, which the server searches.
import { addBlock, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';
import { VIEWPORTS } from './support/viewports.js';

interface Site {
  id: number;
  name: string;
  geotag: { type: string; coordinates: number[] } | null;
}
interface FullProject {
  id: number;
  sites: Site[];
  groups: { id: number; name: string }[];
  teams: { id: number; name: string }[];
  sampler_schemas: { id: number }[];
}

forEachViewport(['phone', 'desktop'], () => {
  test('an owner renames a group and a team, edits a site in a dialog, and sees why import is closed', async ({
    page,
    owner,
    api,
    shot,
  }) => {
    const project = await api.createProject('Coastal Wells');
    const north = await api.must<Site>('POST', `project/${project.id}/sites/`, {
      name: 'North',
      geotag: { type: 'Point', coordinates: [36.68, -3.37] },
    });

    await page.goto(`/project/${project.id}/settings/sites`);
    await logIn(page, owner, page.getByTestId('sites'));

    // Rename the default group and team in the app's dialog (no browser prompt).
    const group = page.getByTestId('group').filter({ hasText: 'Default Group' });
    await group.getByTestId('rename-group').click();
    const prompt = page.getByTestId('dialog-prompt');
    await expect(prompt.locator('input[name="dialog-value"]')).toHaveValue('Default Group');
    await prompt.locator('input[name="dialog-value"]').fill('Field Group');
    await shot('rename-group');
    await prompt.getByTestId('dialog-submit').click();
    await expect(page.getByTestId('group-name').filter({ hasText: 'Field Group' })).toBeVisible();

    await page.getByTestId('team').filter({ hasText: 'Default Team' }).getByTestId('rename-team').click();
    await prompt.locator('input[name="dialog-value"]').fill('Team Alpha');
    await prompt.getByTestId('dialog-submit').click();
    await expect(page.getByTestId('team-name').filter({ hasText: 'Team Alpha' })).toBeVisible();

    // Edit a site's name and geotag.
    await page.getByTestId('site').filter({ hasText: 'North' }).getByTestId('edit-site').click();
    const dialog = page.getByTestId('site-dialog');
    await dialog.locator('input[name="edit-site-name"]').fill('North Ridge');
    await dialog.locator('input[name="edit-site-lat"]').fill('-33.9');
    await dialog.locator('input[name="edit-site-lng"]').fill('18.4');
    await shot('edit-site');
    await dialog.getByTestId('site-dialog-save').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('site').filter({ hasText: 'North Ridge' })).toBeVisible();

    // A latitude past 90 is refused with the spec's message, and the name Default with the server's; nothing changes.
    await page.getByTestId('site').filter({ hasText: 'North Ridge' }).getByTestId('edit-site').click();
    await dialog.locator('input[name="edit-site-lat"]').fill('95');
    await dialog.getByTestId('site-dialog-save').click();
    await expect(dialog.getByTestId('site-error')).toHaveText('Need Valid Geotag');
    await shot('wrong-geotag');
    await dialog.locator('input[name="edit-site-lat"]').fill('-33.9');
    await dialog.locator('input[name="edit-site-name"]').fill('Default');
    await dialog.getByTestId('site-dialog-save').click();
    await expect(dialog.getByTestId('site-error')).toHaveText(
      'Default is the name of the project’s default site: choose another name.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const saved = await api.must<FullProject>('GET', `project/${project.id}/`);
    expect(saved.sites.find((s) => s.id === north.id)).toMatchObject({
      name: 'North Ridge',
      geotag: { type: 'Point', coordinates: [18.4, -33.9] },
    });
    expect(saved.groups.map((g) => g.name)).toContain('Field Group');
    expect(saved.teams.map((t) => t.name)).toContain('Team Alpha');
    await shot('sites');

    // Import needs the workspace's ingestion feature, which is off: the screen and the API say so, and who turns it on.
    await page.goto(`/project/${project.id}/import`);
    const hint = page.getByTestId('access-hint');
    await expect(hint).toContainText('This feature is off');
    await expect(hint).toContainText(
      `pnpm fieldwork workspace features --id ${owner.organizationId} --enable ingestion`,
    );
    await shot('feature-off');
    const refused = await api.request<{ detail: string }>('POST', `project/${project.id}/postgres/`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('This needs the workspace feature "ingestion", which is off');
  });
});

test('an owner picks one of 2,001 profiles by typing, in natural order', async ({ page, owner, api, shot }) => {
  test.setTimeout(300_000);
  const project = await api.createProject('Households 2001');
  const full = await api.must<FullProject>('GET', `project/${project.id}/`);
  const schemaId = full.sampler_schemas[0]!.id;
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const q = addItem(b.body, b.id, 'open', 'en', 'Household name');
  await api.saveSchema(schemaId, updateItem(q.body, q.id, { options: { isPrimaryKey: true } }));

  // 2,001 households through the API, 25 at a time.
  const COUNT = 2001;
  let next = 1;
  await Promise.all(
    Array.from({ length: 25 }, async () => {
      while (next <= COUNT) {
        const n = next++;
        await api.must('POST', `project/${project.id}/response/`, {
          sampler_schema: schemaId,
          response_id: `${project.id}-${schemaId}-${owner.userId}-e2e-${n}`,
          data: { '0': { [q.id]: `Household ${n}` } },
        });
      }
    }),
  );
  // Results read what ClickHouse has ingested: wait until every profile is there.
  type Lookups = { results: { count: number; responses: unknown[] }[] };
  await expect
    .poll(async () => (await api.must<Lookups>('GET', `project/${project.id}/results/lookups/`)).results[0]?.count, {
      timeout: 120_000,
    })
    .toBe(COUNT);
  // The lookups are a page (50 unless asked, at most 100), searched on the server.
  const found = await api.must<Lookups>('GET', `project/${project.id}/results/lookups/?q=HOUSEHOLD%20200&limit=2`);
  expect([found.results[0]!.count, found.results[0]!.responses.length]).toEqual([3, 2]);
  expect((await api.request('GET', `project/${project.id}/results/lookups/?limit=1000000`)).status).toBe(400);

  await page.goto(`/project/${project.id}/results/schema/${schemaId}`);
  await logIn(page, owner, page.getByTestId('profile'));
  const picker = page.getByTestId('profile');
  const box = picker.getByRole('combobox');
  await box.click();
  const options = picker.getByRole('option');
  // Natural order: 1, 2, 3 … not 1, 10, 100.
  await expect(options.nth(0)).toHaveText('All responses');
  await expect(options.nth(1)).toHaveText('Household 1');
  await expect(options.nth(2)).toHaveText('Household 2');
  await expect(picker).toContainText('Showing the first 50 of 2001: type to narrow the list.');
  await shot('profile-picker');

  await box.fill('household 1999');
  await expect(options).toHaveCount(1);
  await expect(picker).toContainText('1 match');
  await shot('profile-search');
  await box.press('Enter');
  await page.waitForURL(/\/results\/\d+\/profile\//);
  await expect(page.getByTestId('level-summary')).toHaveText(/^1 response\b/);
  await expect(box).toHaveValue('Household 1999');

  // On a phone the picker is as usable.
  await page.setViewportSize(VIEWPORTS.phone.viewport);
  await box.click();
  await box.fill('20');
  await expect(options.first()).toHaveText('Household 20');
  await shot('profile-picker-phone');
});
