// Steps through the web app that most journeys share: logging in and the terms and privacy gate.
import { expect, type Locator, type Page } from '@playwright/test';
import type { Credentials } from './api.js';

/**
 * Fills and submits the login form (the page must be on it, e.g. after going to a protected path), accepts the
 * terms and privacy policy if the app asks, and waits for `landing`, what the user should see next.
 */
export async function logIn(page: Page, who: Credentials, landing: Locator): Promise<void> {
  await page.locator('input[name="username"]').fill(who.username);
  await page.locator('input[name="password"]').fill(who.password);
  await page.getByTestId('login-submit').click();
  await passLegalGate(page, landing);
}

/** Accepts the terms and privacy policy if the gate shows, then waits for `landing`. */
export async function passLegalGate(page: Page, landing: Locator): Promise<void> {
  const gate = page.getByTestId('legal-gate');
  await expect(landing.first().or(gate)).toBeVisible();
  if (await gate.isVisible()) await acceptLegal(page);
  await expect(landing.first()).toBeVisible();
}

/** On the gate: accepts whichever of the terms and the privacy policy is still to accept. */
export async function acceptLegal(page: Page): Promise<void> {
  const gate = page.getByTestId('legal-gate');
  for (const id of ['accept-terms', 'accept-privacy']) {
    const button = gate.getByTestId(id);
    if (await button.isVisible()) await button.click();
  }
  await expect(gate).toBeHidden();
}
