// A user who forgot the password asks for a link, sets a new password from the mailed link and logs in with it.
// The user is the journey's own: no other journey's login depends on the password it changes.
import { apiLogin } from './support/api.js';
import { latestMail } from './support/db.js';
import { expect, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

test('a user who forgot the password resets it from the mailed link and logs in with the new one', async ({
  page,
  owner,
  stack,
  shot,
}) => {
  await page.goto('/login-home/login');
  await page.getByTestId('forgot-password').click();
  await page.getByTestId('forgot-email').fill(owner.email);
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByTestId('forgot-sent')).toBeVisible();

  const mail = await latestMail(stack, owner.email, 'reset');
  const link = /(\/reset-password\/\S+)/.exec(mail)?.[1];
  expect(link, 'a reset link was mailed').toBeTruthy();
  await page.goto(link!);
  const password = 'a new password for the reset';
  await page.locator('input[name="password"]').fill(password);
  await page.locator('input[name="confirm"]').fill(password);
  await shot('reset-password');
  await page.getByTestId('reset-submit').click();
  await page.waitForURL(/\/login-home\/login/);

  await logIn(page, { username: owner.username, password }, page.getByTestId('projects-screen'));
  expect(await apiLogin(stack.baseUrl, owner), 'the old password no longer works').toBeUndefined();
});
