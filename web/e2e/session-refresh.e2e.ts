// The session outlives the access token: after 30 minutes the web app exchanges its refresh token before the next
// call (spec 000 §4, REFRESH_THRESHOLD_MS in web/src/app/session.ts) and the user stays logged in. The browser's
// clock is Playwright's (page.clock), so the journey does not wait 30 minutes: the example to follow for timers.
import { expect, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

test('a user who comes back after 31 minutes stays logged in: the app refreshes the session first', async ({
  page,
  owner,
}) => {
  // Installed before the app loads, so that Date.now() and the timers of the app are the fake clock's; it runs
  // at the real pace until told otherwise.
  await page.clock.install();
  await page.goto('/projects');
  await logIn(page, owner, page.getByTestId('project-card'));
  const storedRefresh = () => page.evaluate(() => Number(localStorage.getItem('fw.lastRefresh')));
  const loggedInAt = await storedRefresh();

  // Half an hour and a minute later (the app's timers that fall in between run too).
  await page.clock.fastForward('31:00');
  const refresh = page.waitForRequest((r) => r.url().endsWith('/api/api-token-refresh/') && r.method() === 'POST');
  await page.getByTestId('project-card').filter({ hasText: 'Water Points' }).click();
  expect((await (await refresh).response())?.status(), 'the refresh token was exchanged').toBe(200);
  await expect(page.getByRole('heading', { name: 'Water Points' })).toBeVisible();
  await expect(page).toHaveURL(/\/project\/\d+/);
  expect(await storedRefresh(), 'the refresh time moved with the clock').toBeGreaterThanOrEqual(
    loggedInAt + 31 * 60_000,
  );
});
