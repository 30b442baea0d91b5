// Sign-in through an identity provider (spec 000: oauth/providers/, oauth/code/ with a PKCE code verifier), with the
// real OpenID provider the stack starts (oidc-provider, its own sign-in and consent screens; any password there):
// the login page offers it, the owner signs in at the provider and comes back signed in, meets the terms gate with
// the texts and their versions, and lands on the projects. A callback whose state was tampered with is refused with
// the server's message. Where the deployment allows sign-up (the stack's does), a new person creates an account and
// its workspace, with a password or through the provider.
import type { Page } from '@playwright/test';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { uniqueId } from './support/api.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { acceptLegal } from './support/ui.js';
import { stackInfo } from './support/stack.js';

const PROVIDER = 'Sign in with Test Identity Provider';

/** At the provider's own screens: its sign-in form as `login` (any password), then its consent screen. */
async function signInAtProvider(page: Page, login: string, shot?: (name: string) => Promise<void>) {
  await page.waitForURL((url) => url.href.startsWith(stackInfo().oidcIssuer));
  await expect(page.locator('input[name="login"]')).toBeVisible();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password at the provider');
  if (shot) await shot('provider-sign-in');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  if (shot) await shot('provider-consent');
  await page.getByRole('button', { name: 'Continue' }).click();
}

forEachViewport(['phone', 'desktop'], () => {
  test('an owner signs in through the identity provider, reads and accepts the terms, and lands on the projects', async ({
    page,
    owner,
    api,
    shot,
  }) => {
    await page.goto('/projects');
    await page.waitForURL(/\/login-home\/login/);
    const button = page.getByRole('button', { name: PROVIDER });
    await expect(button).toBeVisible();
    await expectNoHorizontalScroll(page);
    await shot('login-with-provider');

    await button.click();
    await signInAtProvider(page, owner.email, shot);

    // Back at the app, signed in: a new account meets the gate, which shows the texts with their versions.
    const gate = page.getByTestId('legal-gate');
    await expect(gate).toBeVisible();
    await expect(page.getByTestId('legal-terms-version')).toHaveText('Terms of service, version 1.1');
    await expect(page.getByTestId('legal-privacy-version')).toHaveText('Privacy policy, version 1.0');
    await expect(page.getByTestId('legal-terms-text')).toContainText('Fieldwork terms of service');
    await expect(page.getByTestId('legal-privacy-text')).toContainText('What is kept about you');
    await expectNoHorizontalScroll(page);
    await shot('legal-gate');
    await acceptLegal(page);

    await expect(page.getByTestId('projects-screen')).toBeVisible();
    await expect(page.getByTestId('project-card')).toHaveCount(2);
    expect(new URL(page.url()).pathname).toBe('/projects');
    await shot('signed-in');
    // Accepting recorded the versions shown.
    const me = await api.must<{ settings: { agreed_terms: string; agreed_privacy: string } }>(
      'GET',
      `accounts/user/${owner.userId}/`,
    );
    expect(me.settings).toMatchObject({ agreed_terms: '1.1', agreed_privacy: '1.0' });
  });

  test('a new person signs up with a password and a workspace name, after an address already taken is refused', async ({
    page,
    owner,
    shot,
  }) => {
    await page.goto('/login-home/login');
    await page.getByTestId('to-signup').click();
    await expect(page.getByTestId('signup-page')).toBeVisible();
    const id = uniqueId();
    await page.locator('input[name="name"]').fill('Katherine Johnson');
    await page.locator('input[name="email"]').fill(owner.email);
    await page.locator('input[name="password"]').fill(`orbits ${id} 1962`);
    await page.locator('input[name="newOrgName"]').fill(`Langley ${id}`);
    await expect(page.getByRole('button', { name: 'Continue with Test Identity Provider' })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await shot('signup');
    await page.getByTestId('signup-submit').click();
    await expect(page.getByTestId('signup-email-error')).toHaveText('A user with this email already exists.');
    await shot('signup-email-taken');

    await page.locator('input[name="email"]').fill(`katherine.${id}@example.org`);
    await page.getByTestId('signup-submit').click();
    await expect(page.getByTestId('legal-gate')).toBeVisible();
    await acceptLegal(page);
    await expect(page.getByTestId('projects-screen')).toBeVisible();
    await expect(page.getByTestId('projects-screen')).toContainText('This workspace has no projects yet.');
  });
});

test.describe('a tampered callback', () => {
  // The app reads the API through its service worker, and Playwright's routes do not see what a service worker
  // fetches: without it, the callback's call to oauth/code/ can be changed on its way.
  test.use({ serviceWorkers: 'block' });
  test("a callback whose state was tampered with is refused with the server's message", async ({
    page,
    owner,
    shot,
  }) => {
    await page.goto('/login-home/login');
    // The state the provider sent back is replaced by another before the gateway sees it.
    const forged = `forged-${uniqueId()}`;
    let sent: Record<string, string> | undefined;
    await page.route('**/api/api/v1/oauth/code/', async (route) => {
      sent = route.request().postDataJSON() as Record<string, string>;
      await route.continue({ postData: JSON.stringify({ ...sent, state: forged }) });
    });
    await page.getByRole('button', { name: PROVIDER }).click();
    await signInAtProvider(page, owner.email);
    await expect(page.getByTestId('oidc-error')).toHaveText(
      'This sign-in has expired or was already used. Please sign in again.',
    );
    expect(sent?.code, 'the provider did send a code back').toBeTruthy();
    expect(new URL(page.url()).searchParams.get('state')).toBe(sent?.state);
    await shot('wrong-state');

    // This tab's verifier went with that attempt: the real callback, opened again, does not sign in either.
    await page.unrouteAll();
    await page.reload();
    await expect(page.getByTestId('oidc-error')).toHaveText(
      'This sign-in was started in another window or has already been used. Please sign in again.',
    );
    await page.goto('/projects');
    await page.waitForURL(/\/login-home\/login/);
  });
});

test('with sign-up allowed, someone unknown signs up through the provider and owns a new workspace', async ({
  page,
  shot,
}) => {
  const email = `grace.${uniqueId()}@example.org`;
  await page.goto('/login-home/signup');
  await page.getByRole('button', { name: 'Continue with Test Identity Provider' }).click();
  await signInAtProvider(page, email);
  await expect(page.getByTestId('legal-gate')).toBeVisible();
  await acceptLegal(page);
  await expect(page.getByTestId('projects-screen')).toBeVisible();
  await expect(page.getByTestId('projects-screen')).toContainText('This workspace has no projects yet.');
  await shot('signed-up-through-provider');
});
