// An analyst reads a project's summary (responses per site, an advanced result against its thresholds), its
// performance (per collector with durations, and over time) and its tracking (each site against its target), at
// phone and desktop widths, each screen readable without sideways scrolling of the page.
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdForm } from './support/forms.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { logIn } from './support/ui.js';

forEachViewport(['phone', 'desktop'], (size) => {
  test(`an analyst reads the summary, performance and tracking of a project (${size})`, async ({
    page,
    api,
    owner,
    shot,
  }) => {
    const form = householdForm();
    const { ids } = form;
    const project = await api.createProject(`Views ${size}`);
    const schemaId = project.sampler_schemas[0]!.id;
    await api.saveSchema(schemaId, form.body);
    const north = await api.must<{ id: number }>('POST', `project/${project.id}/sites/`, {
      name: 'North',
      geotag: { type: 'Point', coordinates: [1, 1] },
      goal_count: 4,
    });
    await api.must('POST', `project/${project.id}/advanced_results/`, {
      name: 'Visits',
      formula: '2+3',
      threshold_value_upper: 4,
      show_on_project_summary: true,
    });
    // Six responses: three in North (two completed after 10 minutes), three in the default site, over two days.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const created = Date.UTC(2026, 0, 5 + (i % 2), 9 + i);
        const done = i < 2;
        return api.must('POST', `project/${project.id}/response/${done ? 'complete/' : ''}`, {
          sampler_schema: schemaId,
          response_id: `${project.id}-${schemaId}-e2e-views-${i}`,
          site: i < 3 ? north.id : project.sites![0]!.id,
          time_created: new Date(created).toISOString(),
          ...(done ? { time_completed: new Date(created + 600_000).toISOString() } : {}),
          data: { '0': { [ids.age]: 30 + i, [ids.sick]: [ids.no], [ids.code]: `KE${1000 + i}` } },
        });
      }),
    );

    await page.goto(`/project/${project.id}/summary`);
    await logIn(page, owner, page.getByTestId('summary-view'));
    // Ingestion into ClickHouse is asynchronous: reload until the six responses are counted.
    const total = page.getByTestId('summary-figures').locator('dd').first();
    for (let i = 0; i < 30 && (await total.innerText().catch(() => '')) !== '6'; i++) {
      await page.waitForTimeout(300);
      await page.reload();
    }
    await expect(total).toHaveText('6');
    await expect(page.getByTestId('summary-by-site')).toContainText('North');
    await expect(page.getByTestId('summary-advanced-result')).toContainText('Above the upper threshold');
    await page.getByTestId('view-filter-site').selectOption({ label: 'North' });
    await expect(total).toHaveText('3');
    await expectNoHorizontalScroll(page);
    await shot('summary');

    await page.getByTestId('nav-performance').click();
    const collectors = page.getByTestId('performance-by-collector');
    // The owner filed all six, two completed after 10 minutes each.
    await expect(collectors.locator('tbody tr')).toHaveCount(1);
    await expect(collectors.locator('tbody tr')).toContainText('10 min');
    await expect(page.locator('[data-testid="performance-chart"] .main-svg').first()).toBeVisible();
    // The collector filter searches the people with responses on the server as one types.
    const picker = page.getByTestId('view-filter-collector');
    await picker.getByRole('combobox').fill('zzz-nobody');
    await expect(picker.getByRole('option')).toHaveCount(0);
    // The demo's owner is named Demo User.
    await picker.getByRole('combobox').fill('demo us');
    await picker.getByRole('option', { name: 'Demo User' }).click();
    await expect(picker.getByRole('combobox')).toHaveValue('Demo User');
    await expect(collectors.locator('tbody tr')).toHaveCount(1);
    await expect(collectors.locator('tbody tr')).toContainText('Demo User');
    await expectNoHorizontalScroll(page);
    await shot('performance');

    await page.getByTestId('nav-tracking').click();
    const north4 = page.getByTestId('tracking-by-site').locator('tbody tr').filter({ hasText: 'North' });
    // 3 of 4: 75 %.
    await expect(north4).toContainText('75 %');
    await page.getByTestId('tracking-start').fill('2026-01-06');
    // From 6 January: the responses of odd i (1 in North, 2 elsewhere).
    await expect(north4).toContainText('25 %');
    await expectNoHorizontalScroll(page);
    await shot('tracking');
  });
});
