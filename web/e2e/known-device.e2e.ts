// A device that signed in to an account before keeps signing in while strangers guess its password (issue 30 item
// 9): the browser keeps the device token its sign-in answered, and the guesses, made from the same address (as
// behind an office NAT), slow every client but it.
import { apiLogin, type Credentials } from './support/api.js';
import { expect, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

/** A wrong guess at the account over the API (no device token), answering the status. */
async function guess(baseUrl: string, who: Credentials, n: number): Promise<number> {
  const r = await fetch(`${baseUrl}/api/api-token-auth/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: who.username, password: `wrong guess ${n}` }),
  });
  return r.status;
}

test('a known device signs in with the right password while the account is under attack', async ({
  page,
  owner,
  stack,
  shot,
}) => {
  await page.goto('/login-home/login');
  await logIn(page, owner, page.getByTestId('projects-screen'));
  await page.getByTestId('logout').click();
  await page.waitForURL(/\/login-home\/login/);

  // The attack: guesses keep coming while the owner signs in again.
  let attacking = true;
  const statuses: number[] = [];
  const attack = (async () => {
    for (let n = 0; attacking && n < 200; n++) {
      statuses.push(await guess(stack.baseUrl, owner, n));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await expect.poll(() => statuses.filter((s) => s === 429).length, { timeout: 15_000 }).toBeGreaterThan(0);
  // A client the account does not know is slowed too, even with the right password...
  expect(await apiLogin(stack.baseUrl, owner)).toBeUndefined();
  // ...this browser, which signed in before, is not.
  await logIn(page, owner, page.getByTestId('projects-screen'));
  await shot('signed-in-under-attack');
  attacking = false;
  await attack;
  expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(6);
});
