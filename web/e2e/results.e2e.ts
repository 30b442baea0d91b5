// A manager sees charts of a project with 400 responses, switches to tables, exports, filters by site, opens a
// profile, adds an advanced result, and opens a shared item logged out.
import { readFileSync } from 'node:fs';
import { seedDemoData } from '@fieldwork/launcher';
import { expect, test } from './support/fixtures.js';
import { grpcAddress } from './support/stack.js';
import { logIn } from './support/ui.js';
import { VIEWPORTS } from './support/viewports.js';

const RESPONSES = 400;

test('a manager sees charts of the seeded project, switches to tables, filters by site, and opens a shared item logged out', async ({
  page,
  owner,
  api,
  stack,
  shot,
}) => {
  // The longest journey (seed, charts, tables, an export, filters, a profile, an advanced result, three shared
  // links): about a minute on a quiet machine; room for a CI machine at half speed.
  test.setTimeout(240_000);
  // The demo's generated responses, in the owner's own "Household Survey".
  const addresses = {
    projects: grpcAddress(stack, 'projects'),
    forms: grpcAddress(stack, 'forms'),
    responses: grpcAddress(stack, 'responses'),
    secret: stack.contextSecret,
  };
  expect(
    await seedDemoData(
      addresses,
      { userId: owner.userId, organizationId: owner.organizationId },
      () => undefined,
      RESPONSES,
    ),
  ).toBe(RESPONSES);

  await page.goto('/projects');
  await logIn(page, owner, page.getByTestId('projects-screen'));
  await page.getByTestId('project-card').filter({ hasText: 'Household Survey' }).first().click();
  await page.getByTestId('nav-results').click();
  // Ingestion into ClickHouse is asynchronous: reload until all responses are counted (the screen does not poll).
  const summary = page.getByTestId('level-summary');
  const all = new RegExp(`^${RESPONSES} responses`);
  for (let i = 0; i < 40 && !all.test(await summary.innerText()); i++) {
    await page.waitForTimeout(500);
    await page.reload();
  }
  await expect(summary).toHaveText(all);

  // Charts: plotly draws SVG; a choice question with more than 2 options is a bar chart, the binary one a pie,
  // numbers histograms with a box plot of their quartiles, dates a timeline (line).
  const cards = page.locator('[data-testid^="result-"][data-kind]');
  await expect(page.locator('.chart .main-svg').first()).toBeVisible({ timeout: 30_000 });
  // The queue loads the items six at a time, and the first chart can come before the later items (tables).
  await expect
    .poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))), { timeout: 30_000 })
    .toEqual(expect.arrayContaining(['bar', 'pie', 'line', 'histogram']));
  const histogram = page.locator('[data-kind="histogram"]').first();
  await expect(histogram.locator('.chart .main-svg').first()).toBeVisible();
  await expect(histogram.locator('[data-testid^="box-"] .main-svg').first()).toBeVisible();
  await expect(histogram.locator('.bars .point').first(), 'histogram bars drawn').toBeAttached();
  // Stat tiles: the count as a whole number with the language's grouping.
  await expect(histogram.locator('.stat-tiles dd').first()).toHaveText(/^\d{1,3}(,\d{3})*$/);
  await expect(page.getByTestId('results-map')).toBeVisible();
  await shot('charts');

  await page.getByTestId('mode-table').click();
  await expect(page.locator('.result-table').first()).toBeVisible();
  await expect(page.locator('.chart .main-svg'), 'no charts in table mode').toHaveCount(0);
  const firstCount = page.locator('.result-card .muted').first();
  const before = (await firstCount.innerText()).trim();
  await page.locator('.export-toggle input').first().check();
  await expect(page.getByTestId('export-list')).toHaveText(/^1 question in the export list/);
  await shot('table');

  // Export: a job with a progress bar, then the browser downloads the file and says so.
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByTestId('export-kind').selectOption('named_csv'),
  ]);
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n');
  expect(lines[0]).toMatch(/response_id,parent_id,Site,.*Household members/);
  expect(lines.length, 'a header and every response').toBeGreaterThanOrEqual(RESPONSES + 1);
  await expect(page.getByTestId('export-success')).toBeVisible();
  await shot('export-success');
  await page.getByTestId('export-success').getByRole('button', { name: 'Close' }).last().click();

  // A site filter: fewer responses. The seeded responses are at the five named sites, not the default one.
  await page.getByTestId('add-filter').selectOption('site');
  const option = page
    .getByTestId('filter-value')
    .locator('option')
    .filter({ hasNotText: /Default Site|Choose/ })
    .first();
  await page.getByTestId('filter-value').selectOption((await option.getAttribute('value'))!);
  await page.getByTestId('filter-apply').click();
  await expect(page.getByTestId('filter-chip')).toBeVisible();
  await expect(summary).not.toHaveText(all);
  const filtered = Number((await summary.innerText()).split(' ')[0]);
  expect(filtered).toBeGreaterThan(0);
  expect(filtered).toBeLessThan(RESPONSES);
  await expect(firstCount).not.toHaveText(before);
  // A collector filter, the person searched on the server as one types: the demo's responses are all Demo User's.
  await page.getByTestId('add-filter').selectOption('collector');
  await page.getByTestId('filter-person').getByRole('combobox').fill('demo');
  await page.getByTestId('filter-person').getByRole('option', { name: 'Demo User' }).click();
  await page.getByTestId('filter-apply').click();
  await expect(page.getByTestId('filter-chip')).toHaveCount(2);
  await expect(page.getByTestId('filter-chip').nth(1)).toContainText('Demo User');
  await expect(summary).toHaveText(new RegExp(`^${filtered} responses`));
  await shot('filtered');

  // The profile view of one household: tables, except for numbers, whose charts are area-splines.
  await page.getByTestId('mode-chart').click();
  // The profile picker is searchable: its second option is the first profile.
  const profile = page.getByTestId('profile').getByRole('combobox');
  await profile.click();
  await page.getByTestId('profile').getByRole('option').nth(1).click();
  await page.waitForURL(/\/results\/\d+\/profile\//);
  await expect(page.locator('[data-kind="area-spline"] .chart .main-svg').first()).toBeVisible({ timeout: 30_000 });
  await expect(summary).toHaveText(/^1 response\b/);
  const water = cards.filter({ hasText: 'Main water source' });
  await expect(water.locator('.result-table')).toBeVisible();
  await expect(water.locator('.chart'), 'choice questions are tables in the profile view').toHaveCount(0);
  await shot('profile');
  await profile.click();
  await page.getByTestId('profile').getByRole('option', { name: 'All responses' }).click();
  await page.waitForURL(/\/results\/schema\/\d+$/);

  // An advanced result on the project view: the average household size, against thresholds.
  const projectId = /\/project\/(\d+)\//.exec(page.url())![1]!;
  type Schema = {
    entities: {
      blocks: Record<string, { id: number; entities: { id: number }[] }>;
      items: Record<string, { id: number; name: { en: string } }>;
    };
  };
  const project = await api.must<{ sampler_schemas: { id: number }[] }>('GET', `project/${projectId}/`);
  const schema = await api.must<Schema>('GET', `samplerschema/${project.sampler_schemas[0]!.id}/`);
  const members = Object.values(schema.entities.items).find((i) => i.name.en === 'Household members')!;
  const block = Object.values(schema.entities.blocks).find((bl) => bl.entities.some((e) => e.id === members.id))!;
  await page.getByTestId('nav-home').click();
  await page.getByTestId('advanced-new').click();
  const editor = page.getByTestId('advanced-editor');
  await editor.locator('input[name="name"]').fill('Average household');
  await editor.locator('input[name="formula"]').fill('=AVERAGE(Q');
  await page.getByTestId('advanced-save').click();
  await expect(editor.getByText(/Not a valid formula!/)).toBeVisible();
  await editor.locator('input[name="formula"]').fill(`=AVERAGE(Q${block.id}_${members.id})`);
  await editor.locator('input[name="upper"]').fill('1');
  await page.getByTestId('advanced-save').click();
  const adv = page.getByTestId('advanced-result').filter({ hasText: 'Average household' });
  await expect(adv.getByText(/Above 1\.00/)).toBeVisible();
  await expect(adv.locator('.value')).toHaveText(/^\d+\.\d\d$/);
  await shot('advanced-results');
  await page.getByTestId('nav-results').click();
  await expect(page.getByTestId('results-page')).toBeVisible();
  await page.getByTestId('mode-table').click();

  // Share the first charted item and open its public chart logged out, in a context without the session.
  const shareCard = cards.filter({ has: page.locator('.result-table') }).first();
  const itemId = (await shareCard.getAttribute('data-testid'))!.replace('result-', '');
  await shareCard.getByRole('button', { name: 'Share' }).click();
  const href = (await page
    .getByTestId(`share-${itemId}`)
    .getByRole('link', { name: 'item-chart' })
    .getAttribute('href'))!;
  const anonymous = await page
    .context()
    .browser()!
    .newContext({ ...VIEWPORTS.desktop });
  try {
    const pub = await anonymous.newPage();
    await pub.goto(href);
    await expect(pub.getByTestId('shared-item')).toBeVisible();
    await expect(pub.getByTestId(`result-${itemId}`)).toBeVisible();
    await expect(pub.locator('[data-testid^="result-"][data-kind]'), 'only that item').toHaveCount(1);
    expect(pub.url(), 'no login asked').not.toContain('login');
    await expect(pub.locator('.chart .main-svg').first()).toBeVisible({ timeout: 30_000 });
    await shot('shared-item', pub);
    await pub.goto(href.replace('/item-chart/', '/item-table/'));
    await expect(pub.locator('.result-table')).toBeVisible();
    await pub.goto(href.replace('/item-chart/', '/item-results/').slice(0, -3) + 'xyz');
    await expect(pub.getByText('Sorry. We could not find results for this item.')).toBeVisible();
  } finally {
    await anonymous.close();
  }

  // The same project as a trend series (the API's type 'T'): per day, numbers as box-whiskers, choices as lines.
  await api.must('POST', `project/${projectId}/type/`, {
    project_type: 'T',
    trend_series_options: { time_particle: 'day', trend_question: `Q${block.id}_${members.id}`, aggregator: 'avg' },
  });
  await page.reload();
  await page.getByTestId('mode-chart').click();
  await expect(page.locator('[data-kind="box"] .chart .main-svg').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-kind="line"] .chart .main-svg').first()).toBeVisible();
  await expect(page.locator('[data-kind="box"] .boxlayer .trace').first(), 'box-whiskers drawn').toBeAttached();
  await shot('trend');
  await page.setViewportSize(VIEWPORTS.phone.viewport);
  await expect(page.locator('[data-kind="box"] .chart .main-svg').first()).toBeVisible();
  await shot('trend-phone');
});
