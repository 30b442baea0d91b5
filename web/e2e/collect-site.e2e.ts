// A response goes to the collector's site; a collector with several sites picks one, and the choice is remembered
// for the project on this device.
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdProject } from './support/forms.js';
import { expectNoHorizontalScroll, expectTouchTargets } from './support/layout.js';
import { logIn } from './support/ui.js';

type Listed = { results: { site_id: number; data: Record<string, Record<string, unknown>> }[] };

forEachViewport(['phone'], () => {
  test('a collector with two sites files a response under the one they choose, and finds it chosen next time', async ({
    page,
    api,
    shot,
  }) => {
    const { ids, project, collector } = await householdProject(api, 'Two districts');
    const geotag = { type: 'Point', coordinates: [36.8, -1.3] };
    const north = await api.must<{ id: number }>('POST', `project/${project.id}/sites/`, {
      name: 'North district',
      geotag,
    });
    const south = await api.must<{ id: number }>('POST', `project/${project.id}/sites/`, {
      name: 'South district',
      geotag,
    });
    const group = await api.must<{ id: number }>('POST', `project/${project.id}/groups/`, {
      name: 'North group',
      site: north.id,
    });
    const team = await api.must<{ id: number }>('POST', `project/${project.id}/teams/`, {
      name: 'North team',
      group: group.id,
    });
    await api.must('PUT', `project/${project.id}/users/${collector.userId}/`, {
      team: team.id,
      read_sites: [south.id],
    });

    await page.goto(`/project/${project.id}/collect/newrecord`);
    await logIn(page, collector, page.getByTestId('collect-form'));
    const picker = page.getByTestId('collect-site');
    await expect(picker.locator('option')).toHaveText(['North district', 'South district']);
    await expect(picker).toHaveValue(String(north.id));
    await expectNoHorizontalScroll(page);
    await expectTouchTargets(page, '.site-picker select');
    await picker.selectOption({ label: 'South district' });
    await shot('site-chosen');
    await page.locator(`#q${ids.age}-input`).fill('29');
    await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('notice')).toHaveText('The response is saved on the server.');
    const stored = await api.must<Listed>(
      'POST',
      `project/${project.id}/response-chunk/filter/?page=1&page_size=10`,
      {},
    );
    expect(stored.results.map((r) => r.site_id)).toEqual([south.id]);

    await page.getByTestId('new-record').click();
    await expect(page.getByTestId('collect-site')).toHaveValue(String(south.id));
  });
});
