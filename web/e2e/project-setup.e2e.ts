// An owner creates a project with a location, adds a site, group, team and collector, bulk-uploads users, changes
// the project's state, and finds it on the projects map.
import { uniqueId } from './support/api.js';
import { expect, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

test('an owner creates a project with a location, adds a site, group, team and collector, changes the state, and bulk-uploads users', async ({
  page,
  owner,
  api,
  shot,
}) => {
  // Group and team names are asked in the app's own dialog.
  const answer = async (text: string) => {
    const dialog = page.getByTestId('dialog-prompt');
    await dialog.locator('input[name="dialog-value"]').fill(text);
    await dialog.getByTestId('dialog-submit').click();
  };
  // Users are global: fresh addresses keep the journey repeatable on one stack.
  const id = uniqueId();
  const worker = `field.worker.${id}@example.org`;
  const bulk = `bulk.ok.${id}@example.org`;

  await page.goto('/login-home/login');
  await logIn(page, owner, page.getByTestId('projects-screen'));
  await page.getByTestId('new-project').click();
  await page.getByTestId('project-name').fill('Malaria Survey');
  await page.getByTestId('project-lat').fill('-3.3869');
  await page.getByTestId('project-lng').fill('36.683');
  await shot('project-editor');
  await page.getByTestId('project-save').click();
  await page.waitForURL(/\/project\/\d+\/settings\/parameters$/);

  await page.getByTestId('settings-sites').click();
  await page.locator('input[name="site-name"]').fill('Arusha');
  await page.locator('input[name="site-lat"]').fill('-3.37');
  await page.locator('input[name="site-lng"]').fill('36.68');
  await page.locator('input[name="site-start"]').fill('2026-03-01');
  await page.locator('input[name="site-end"]').fill('2026-03-31');
  await page.getByTestId('site-save').click();
  const arusha = page.getByTestId('site').filter({ hasText: 'Arusha' });
  await arusha.getByRole('button', { name: 'Arusha' }).click();
  await expect(page.getByTestId('site-duration')).toHaveText('30 days');
  await page.keyboard.press('Escape');
  await page.getByTestId('site-popup').getByRole('button', { name: 'Close' }).click();
  await arusha.getByTestId('add-group').click();
  await answer('North Group');
  const north = arusha.getByTestId('group').filter({ hasText: 'North Group' });
  await expect(north).toBeVisible();
  await north.getByTestId('add-team').click();
  await answer('Team One');
  await expect(arusha.getByTestId('team').filter({ hasText: 'Team One' })).toBeVisible();
  await shot('sites');

  await page.getByTestId('settings-collectors').click();
  await page.locator('input[name="user-email"]').fill(worker);
  await page.locator('input[name="user-first"]').fill('Field');
  await page.locator('input[name="user-last"]').fill('Worker');
  await page.locator('select[name="user-team"]').selectOption({ label: 'Team One' });
  await page.getByTestId('add-user-save').click();
  // An address added by the owner is invited (issue 30): the person chooses their own password with the mailed link,
  // which makes them a member; the list then shows them.
  await api.confirmInvitation(worker, 'field worker pass 1');
  await page.reload();
  await expect(page.getByTestId('user-row').filter({ hasText: worker })).toBeVisible();
  const csv = `email,first_name,last_name,role,site,group,team\n${bulk},Bulk,Ok,collector,Arusha,North Group,Team One\nnot-an-email,Bad,Row,collector,,,\n`;
  await page
    .getByTestId('bulk-file')
    .setInputFiles({ name: 'bulk_user_template.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const report = page.getByTestId('bulk-report');
  await expect(report).toContainText('1 added, 1 failed');
  await expect(report).toContainText('Row 2 not-an-email: "not-an-email": Enter a valid email address.');
  await api.confirmInvitation(bulk, 'bulk user pass 1');
  await page.reload();
  await expect(page.getByTestId('user-row').filter({ hasText: bulk })).toBeVisible();
  await shot('collectors');

  await page.getByTestId('settings-parameters').click();
  await page.getByTestId('status-select').selectOption('O');
  await page.getByTestId('status-save').click();
  await expect(page.getByTestId('status-error')).toHaveText(
    'Before changing project status to live, you will need to add at least one question to your form.',
  );
  await page.getByTestId('status-select').selectOption('F');
  await page.getByTestId('status-save').click();
  await expect(page.getByTestId('project-state').filter({ hasText: 'Finalized' })).toBeVisible();
  await shot('parameters');

  await page.goto('/projects?view=map');
  await expect(page.getByTestId('map')).toBeVisible();
  // The map draws its tiles and markers after it shows: give the screenshot a moment.
  await page.waitForTimeout(500);
  await shot('projects-map');
});
