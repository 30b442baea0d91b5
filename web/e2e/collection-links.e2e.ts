// An administrator makes an anonymous link and an expiring survey link in the project settings, copies one, shows
// its QR code; a respondent opens the link and answers; the administrator revokes it (after a confirmation) and
// expires the other, and the respondent's next open of either says "This link has expired." (issue 19).
import type { Browser, Page } from '@playwright/test';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { logIn } from './support/ui.js';

type List = { results: { data: Record<string, Record<string, unknown>> }[]; count: number };

/** A respondent: a browser of their own (no session of the administrator's), at the same screen size. */
async function respondent(browser: Browser, admin: Page): Promise<Page> {
  const context = await browser.newContext({
    viewport: admin.viewportSize(),
    isMobile: (admin.viewportSize()?.width ?? 1280) < 500,
    hasTouch: (admin.viewportSize()?.width ?? 1280) < 500,
  });
  return context.newPage();
}

forEachViewport(['phone', 'desktop'], (size) => {
  test('an administrator makes, copies, shows, revokes and expires collection links; an ended link says so', async ({
    page,
    browser,
    context,
    owner,
    api,
    shot,
  }) => {
    const project = await api.createProject('Market Survey');
    const b = addBlock(newSchemaBody('S'), { en: 'About you' });
    const q = addItem(b.body, b.id, 'open', 'en', 'Your town');
    await api.saveSchema(project.sampler_schemas[0]!.id, q.body);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);

    await page.goto(`/project/${project.id}/settings/parameters`);
    await logIn(page, owner, page.getByTestId('settings-links'));
    await page.getByTestId('settings-links').click();
    await expect(page.getByTestId('links')).toBeVisible();
    await expect(page.getByTestId('links')).toContainText('No collection link yet.');

    // An anonymous link (the default kind) that never expires.
    const form = page.getByTestId('link-form');
    await form.locator('input[name="link-name"]').fill('Market day flyer');
    await page.getByTestId('create-link').click();
    const anonymous = page.getByTestId('link').filter({ hasText: 'Market day flyer' });
    await expect(anonymous.getByTestId('link-state')).toHaveText('Active');
    await expect(anonymous).toContainText('Anonymous link');
    await expect(anonymous).toContainText('Never expires');

    // A survey link needs an expiry date: refused with the field's message until it has one.
    await page.getByTestId('link-kind-survey').check();
    await form.locator('input[name="link-name"]').fill('Door to door');
    await page.getByTestId('create-link').click();
    await expect(form.locator('.field-error')).toHaveText('A survey link needs an expiry date.');
    await form.locator('input[name="link-expiry"]').fill('2099-06-30T18:00');
    await page.getByTestId('create-link').click();
    const survey = page.getByTestId('link').filter({ hasText: 'Door to door' });
    await expect(survey.getByTestId('link-state')).toHaveText('Active');
    await expect(survey).toContainText('Expiring survey link');
    await expect(survey).toContainText('Expires 30/06/2099 18:00');
    await expect(page.getByTestId('link')).toHaveCount(2);
    if (size === 'phone') await expectNoHorizontalScroll(page);
    await shot('links');

    // Copy: the address on the host the administrator reached (never localhost), as collect/anonymous/{token}.
    const origin = new URL(page.url()).origin;
    const anonymousUrl = await anonymous.getByTestId('link-url').inputValue();
    expect(anonymousUrl).toMatch(new RegExp(`^${origin.replace(/[.:/]/g, '\\$&')}/collect/anonymous/[\\w-]{24}$`));
    const surveyUrl = await survey.getByTestId('link-url').inputValue();
    expect(surveyUrl).toMatch(new RegExp(`^${origin.replace(/[.:/]/g, '\\$&')}/collect/survey/[\\w-]{24}$`));
    await anonymous.getByTestId('copy-link').click();
    await expect(page.getByText('The link was copied.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(anonymousUrl);

    // The QR code, drawn once the dialog opens.
    await anonymous.getByTestId('show-qr').click();
    const qr = page.getByTestId('qr-dialog');
    await expect(qr.getByTestId('link-qr')).toBeVisible();
    await expect(qr.getByTestId('link-qr')).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(qr.getByTestId('link-qr')).toHaveAttribute('alt', `QR code of ${anonymousUrl}`);
    expect(await qr.getByTestId('link-qr').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(200);
    await expect(qr).toContainText(anonymousUrl);
    await shot('qr-code');
    await qr.getByRole('button', { name: 'Close' }).click();
    await expect(qr).toBeHidden();

    // A respondent opens the copied link and answers.
    const visitor = await respondent(browser, page);
    await visitor.goto(anonymousUrl);
    await expect(visitor.getByTestId('public-collect')).toBeVisible();
    await visitor.locator(`[data-item="${q.id}"] input`).fill('Mombasa');
    await visitor.getByTestId('complete-response').click();
    await expect(visitor.getByTestId('collect-success')).toBeVisible();
    await shot('respondent-answered', visitor);
    await expect.poll(async () => (await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(1);
    const [stored] = (await api.get<List>(`project/${project.id}/response/`)).body.results;
    expect(stored!.data['0']![String(q.id)]).toBe('Mombasa');

    // Revoking asks first; keeping the link changes nothing.
    await anonymous.getByTestId('revoke-link').click();
    const confirm = page.getByTestId('end-link-dialog');
    await expect(confirm).toContainText('Revoke Market day flyer?');
    await expect(confirm).toContainText('“This link has expired.”');
    await shot('revoke-confirmation');
    await confirm.getByRole('button', { name: 'Keep the link' }).click();
    await expect(confirm).toBeHidden();
    await expect(anonymous.getByTestId('link-state')).toHaveText('Active');
    await anonymous.getByTestId('revoke-link').click();
    await confirm.getByTestId('confirm-end-link').click();
    await expect(confirm).toBeHidden();
    await expect(anonymous.getByTestId('link-state')).toHaveText('Revoked');
    await expect(anonymous.getByTestId('link-url')).toHaveCount(0);

    // The survey link is expired now.
    await survey.getByTestId('expire-link').click();
    await expect(confirm).toContainText('Expire Door to door?');
    await confirm.getByTestId('confirm-end-link').click();
    await expect(survey.getByTestId('link-state')).toHaveText('Expired');
    await shot('links-ended');

    // The respondent's next open of either link: the spec's message.
    await visitor.goto(anonymousUrl);
    await expect(visitor.getByTestId('link-failure')).toHaveText('This link has expired.');
    await shot('respondent-revoked', visitor);
    await visitor.goto(surveyUrl);
    await expect(visitor.getByTestId('link-failure')).toHaveText('This link has expired.');
    // Nothing more was stored.
    expect((await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(1);
    await visitor.context().close();
  });
});
