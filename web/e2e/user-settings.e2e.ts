// A user renames themselves and switches the language; an unknown path falls back to the projects; an invitation to
// another workspace waits in the settings until the person answers it.
import { Api, createOwner } from './support/api.js';
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

test('an invitation to another workspace waits in the settings until the person accepts it', async ({
  page,
  owner,
  stack,
  shot,
}) => {
  // Another workspace's owner invites this (existing) account by email: it is not a member until it accepts.
  const other = await createOwner(stack, 'inviter');
  const theirs = await Api.login(stack.baseUrl, other, stack);
  const invited = await theirs.must<{ is_active: boolean; invited: boolean }>('POST', 'api/v1/organization-user/', {
    email: owner.email,
    organization: other.organizationId,
  });
  expect(invited).toMatchObject({ is_active: false, invited: true });
  await page.goto('/user-settings');
  await page.waitForURL(/\/login-home\/login/);
  await logIn(page, owner, page.getByTestId('invitations'));
  await expect(page.getByTestId('invitation')).toHaveCount(1);
  await shot('invitation');
  await page.getByTestId('invitation').getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByTestId('invitations')).toBeHidden();
  const members = await theirs.must<{ results: { email: string }[] }>(
    'GET',
    `organization/${other.organizationId}/organization-users/`,
  );
  expect(members.results.map((m) => m.email)).toContain(owner.email);
});
