// Someone is added to a workspace by its owner (issue 30 item 2): the account is an invitation its address confirms.
// The person opens the mailed link, chooses their own password and is signed in; the password the owner typed
// when adding them never signs in.
import { apiLogin, uniqueId } from './support/api.js';
import { latestMail } from './support/db.js';
import { expect, test } from './support/fixtures.js';
import { passLegalGate } from './support/ui.js';

test('an invited person sets their own password from the mailed link and is signed in; the owner’s choice is refused', async ({
  page,
  api,
  stack,
  shot,
}) => {
  const email = `new.hire.${uniqueId()}@example.org`;
  const chosenByOwner = 'chosen by the owner 1';
  await api.must('POST', 'api/v1/organization-user/', {
    email,
    first_name: 'Nova',
    last_name: 'Hire',
    password: chosenByOwner,
    organization: api.session.organization.id,
  });
  expect(await apiLogin(stack.baseUrl, { username: email, password: chosenByOwner })).toBeUndefined();

  const mail = await latestMail(stack, email, 'invitation');
  const link = /https?:\/\/[^/\s]+(\/set-password\/\S+)/.exec(mail)?.[1];
  expect(link, 'the invitation carries a set-password link').toBeTruthy();
  await page.goto(link!);
  const own = 'my own password 42';
  await page.locator('input[name="password"]').fill(own);
  await page.locator('input[name="confirm"]').fill(own);
  await shot('set-own-password');
  await page.getByTestId('reset-submit').click();
  await passLegalGate(page, page.getByTestId('projects-screen'));
  await shot('signed-in');

  await page.getByTestId('logout').click();
  await page.waitForURL(/\/login-home\/login/);
  await page.locator('input[name="username"]').fill(email);
  await page.locator('input[name="password"]').fill(chosenByOwner);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('Unable to log in with provided credentials.');
  await shot('owner-password-refused');
});
