// A user renames themselves and switches the language; an unknown path falls back to the projects.
import { expect, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

test('a user renames themselves, switches the language, and an unknown path falls back to the projects', async ({
  page,
  owner,
  shot,
}) => {
  await page.goto('/some/unknown/path');
  await page.waitForURL(/\/login-home\/login/);
  await logIn(page, owner, page.getByTestId('projects-screen'));
  await page.getByTestId('user-settings-link').click();
  await page.locator('input[name="name"]').fill('Ada  Maria Lovelace');
  await page.getByTestId('save-profile').click();
  await expect(page.getByText('Ada Lovelace').first()).toBeVisible();
  await page.getByTestId('language-select').selectOption('fr');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await shot('user-settings-fr');
  await page.goto('/no/such/screen');
  await expect(page.getByTestId('projects-screen')).toBeVisible();
});
