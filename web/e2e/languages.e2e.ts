// An administrator works in each of the five languages: the projects screen, a project's figures, its results and
// the collect form are in the chosen language, numbers and dates are written the way that language writes them, and
// Arabic turns the page right to left (the layout mirrors).
import type { Page } from '@playwright/test';
import { seedDemoData } from '@fieldwork/launcher';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { grpcAddress } from './support/stack.js';
import { logIn } from './support/ui.js';

const RESPONSES = 1050;

/** What each language shows, written out by hand (not taken from the web app's messages). */
const LANGUAGES = [
  {
    code: 'en',
    figure: '1,050',
    dir: 'ltr',
    projects: 'Projects',
    compareBy: 'Compare by',
    newRecord: 'New record',
    complete: 'Complete',
    responses: '1,050 responses',
    updated: 'Updated',
  },
  {
    code: 'fr',
    figure: '1\u202f050',
    dir: 'ltr',
    projects: 'Projets',
    compareBy: 'Comparer par',
    newRecord: 'Nouvel enregistrement',
    complete: 'Terminer',
    // French groups thousands with a narrow no-break space.
    responses: '1\u202f050 réponses',
    updated: 'Mis à jour le',
  },
  {
    code: 'es',
    figure: '1050',
    dir: 'ltr',
    projects: 'Proyectos',
    compareBy: 'Comparar por',
    newRecord: 'Nuevo registro',
    complete: 'Completar',
    // Spanish does not group a four-digit number.
    responses: '1050 respuestas',
    updated: 'Actualizado el',
  },
  {
    code: 'pt',
    figure: '1.050',
    dir: 'ltr',
    projects: 'Projetos',
    compareBy: 'Comparar por',
    newRecord: 'Novo registro',
    complete: 'Concluir',
    responses: '1.050 respostas',
    updated: 'Atualizado em',
  },
  {
    code: 'ar',
    figure: '1,050',
    dir: 'rtl',
    projects: 'المشاريع',
    compareBy: 'المقارنة حسب',
    newRecord: 'سجل جديد',
    complete: 'إكمال',
    responses: '1,050 إجابة',
    updated: 'آخر تحديث',
  },
] as const;

/** Text with Arabic-Indic digits and separators read as Latin ones, and without direction marks. */
const latin = (s: string) =>
  s
    .replace(/[\u200e\u200f\u061c]/g, '')
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/٬/g, ',')
    .replace(/٫/g, '.');

/** Where the middle of an element is, as a share of the page's width (0 = left edge, 1 = right edge). */
async function centreOf(page: Page, testIdOrSelector: string): Promise<number> {
  const box = await page.locator(testIdOrSelector).first().boundingBox();
  const width = page.viewportSize()!.width;
  if (!box) throw new Error(`${testIdOrSelector} is not on the page`);
  return (box.x + box.width / 2) / width;
}

forEachViewport(['desktop', 'phone'], () => {
  test.use({ timezoneId: 'UTC' });

  test('an administrator switches between the five languages; Arabic reads right to left', async ({
    page,
    owner,
    api,
    stack,
    shot,
  }) => {
    test.setTimeout(900_000);
    const addresses = {
      projects: grpcAddress(stack, 'projects'),
      forms: grpcAddress(stack, 'forms'),
      responses: grpcAddress(stack, 'responses'),
      secret: stack.contextSecret,
    };
    expect(
      await seedDemoData(
        addresses,
        { userId: owner.userId, organizationId: owner.organizationId },
        () => undefined,
        RESPONSES,
      ),
    ).toBe(RESPONSES);

    await page.goto('/projects');
    await logIn(page, owner, page.getByTestId('projects-screen'));
    const card = page.getByTestId('project-card').filter({ hasText: 'Household Survey' }).first();
    await card.click();
    await page.waitForURL(/\/project\/\d+/);
    const projectId = Number(/\/project\/(\d+)/.exec(page.url())![1]);
    const project = await api.must<{ time_updated: string }>('GET', `project/${projectId}/`);
    // The date the projects screen shows, DD/MM/YYYY HH:mm in UTC, read off the ISO text by hand.
    const iso = project.time_updated;
    const updated = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;

    // Ingestion is asynchronous: wait (in English) until the results count every response.
    await page.goto(`/project/${projectId}/results`);
    const summary = page.getByTestId('level-summary');
    for (let i = 0; i < 60 && !(await summary.innerText().catch(() => '')).startsWith('1,050 responses'); i++) {
      await page.waitForTimeout(500);
      await page.reload();
    }
    await expect(summary).toHaveText(/^1,050 responses/);

    for (const lang of LANGUAGES) {
      await page.getByTestId('language-select').selectOption(lang.code);
      await expect(page.locator('html')).toHaveAttribute('lang', lang.code);
      await expect(page.locator('html')).toHaveAttribute('dir', lang.dir);

      // Projects: the title, and the date of the last change as the language writes it.
      // A new page load keeps the language (and its direction) from the first screen on.
      await page.goto('/projects');
      await expect(page.getByRole('heading', { name: lang.projects, exact: true })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('dir', lang.dir);
      const cardText = latin(await card.innerText());
      expect(cardText).toContain(lang.updated);
      expect(cardText).toContain(updated);

      // Layout direction: the product name sits at the start of the top bar, left in LTR, right in RTL.
      const brand = await centreOf(page, '.topbar .brand');
      if (lang.dir === 'rtl') expect(brand).toBeGreaterThan(0.5);
      else expect(brand).toBeLessThan(0.5);

      // The project's figures: whole numbers, grouped the way the language groups thousands.
      await page.goto(`/project/${projectId}`);
      const total = page.getByTestId('project-home').locator('.figures dd').first();
      await expect(total).not.toHaveText('…');
      expect(latin(await total.innerText())).toBe(lang.figure);

      // Results: the toolbar and the count of responses, grouped the way the language groups thousands.
      await page.goto(`/project/${projectId}/results`);
      await expect(page.getByTestId('results-page')).toBeVisible();
      await expect(page.locator('.results-toolbar')).toContainText(lang.compareBy);
      await expect(summary).toBeVisible();
      expect(latin(await summary.innerText())).toContain(lang.responses);
      await expect(page.locator('.chart .main-svg').first()).toBeVisible({ timeout: 30_000 });
      if (lang.dir === 'rtl') {
        // The level tabs start at the right edge of the page and the filter bar's control follows them leftwards.
        expect(await centreOf(page, '.level-tabs a')).toBeGreaterThan(0.5);
      } else {
        expect(await centreOf(page, '.level-tabs a')).toBeLessThan(0.5);
      }
      await shot(`results-${lang.code}`);

      // Collect: the form opens with its buttons in the language.
      await page.goto(`/project/${projectId}/collect`);
      // A click while the list is still being drawn (its forms are stored on the device as it opens) can land on a
      // link about to be replaced: click again until the form opens (seen once on a loaded machine).
      await expect(async () => {
        if (!(await page.getByTestId('collect-form').isVisible()))
          await page.getByRole('link', { name: lang.newRecord }).first().click({ timeout: 5_000 });
        await expect(page.getByTestId('collect-form')).toBeVisible({ timeout: 5_000 });
      }).toPass({ timeout: 45_000 });
      await expect(page.getByTestId('complete-response')).toHaveText(lang.complete);
      await shot(`collect-${lang.code}`);
    }
  });
});
