// A new workspace owner logs in, accepts the terms and privacy policy, sees the projects and logs out; the next
// login skips the gate.
import { expect, test } from './support/fixtures.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { acceptLegal } from './support/ui.js';

test('an owner logs in, accepts the terms and privacy policy, sees the projects and logs out', async ({
  page,
  owner,
  shot,
}) => {
  await page.goto('/projects');
  await page.waitForURL(/\/login-home\/login/);
  expect(page.url(), 'the login remembers the path to return to').toMatch(/next=%2Fprojects|next=\/projects/);
  await expectNoHorizontalScroll(page);
  await shot('login');

  // A new user meets the gate: terms first, then the privacy policy.
  await page.locator('input[name="username"]').fill(owner.username);
  await page.locator('input[name="password"]').fill(owner.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('accept-terms')).toBeVisible();
  await expect(page.getByTestId('accept-privacy')).toBeVisible();
  await shot('legal-gate');
  await acceptLegal(page);

  const screen = page.getByTestId('projects-screen');
  await expect(page.getByTestId('project-card')).toHaveCount(2);
  await expect(screen).toContainText('Household Survey');
  await expect(screen).toContainText('Water Points');
  await expect(screen).toContainText('Workspace Home');
  await expectNoHorizontalScroll(page);
  await shot('projects');

  await page.getByTestId('logout').click();
  await page.waitForURL(/\/login-home\/login/);
  await shot('logged-out');
  await page.goto('/projects');
  await page.waitForURL(/\/login-home\/login/);

  // Accepted once, the gate does not come back.
  await page.locator('input[name="username"]').fill(owner.username);
  await page.locator('input[name="password"]').fill(owner.password);
  await page.getByTestId('login-submit').click();
  await expect(screen).toBeVisible();
  await expect(page.getByTestId('legal-gate')).toHaveCount(0);
});
