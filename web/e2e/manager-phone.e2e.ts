// A project owner on a phone opens every screen of a project with responses (home, results as charts and tables,
// settings, the form builder, exports, the views) and the workspace's own screens: none of them scrolls sideways.
// Managers mostly work on desktops, but a field supervisor checks results and sites from a phone.
import { seedDemoData } from '@fieldwork/launcher';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { grpcAddress } from './support/stack.js';
import { logIn } from './support/ui.js';

const RESPONSES = 40;

forEachViewport(['phone'], () => {
  test('a project owner on a phone opens every screen of a project, and none scrolls sideways', async ({
    page,
    owner,
    stack,
    shot,
  }) => {
    test.setTimeout(120_000);
    const addresses = {
      projects: grpcAddress(stack, 'projects'),
      forms: grpcAddress(stack, 'forms'),
      responses: grpcAddress(stack, 'responses'),
      secret: stack.contextSecret,
    };
    await seedDemoData(
      addresses,
      { userId: owner.userId, organizationId: owner.organizationId },
      () => undefined,
      RESPONSES,
    );

    await page.goto('/projects');
    await logIn(page, owner, page.getByTestId('projects-screen'));
    await expectNoHorizontalScroll(page);
    await shot('projects');
    await page.getByTestId('project-card').filter({ hasText: 'Household Survey' }).first().click();
    await expect(page).toHaveURL(/\/project\/\d+/);
    const base = new URL(page.url()).pathname.match(/^\/project\/\d+/)![0];

    // Each screen: wait until it has loaded (no "Loading" left, the network quiet), then check its width.
    const screens: [string, string][] = [
      ['home', `${base}/home`],
      ['results', `${base}/results`],
      ['parameters', `${base}/settings/parameters`],
      ['sites', `${base}/settings/sites`],
      ['duration', `${base}/settings/duration`],
      ['admins', `${base}/settings/admins`],
      ['collectors', `${base}/settings/collectors`],
      ['guests', `${base}/settings/guests`],
      ['links', `${base}/settings/links`],
      ['integrations', `${base}/settings/integrations`],
      ['builder', `${base}/builder`],
      ['import', `${base}/import`],
      ['summary', `${base}/summary`],
      ['performance', `${base}/performance`],
      ['tracking', `${base}/tracking`],
      ['user-settings', '/user-settings'],
      ['workspace-settings', `/workspace-settings/${owner.organizationId}`],
    ];
    for (const [name, path] of screens) {
      await page.goto(path);
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 20_000 });
      await expect
        .soft(async () => expectNoHorizontalScroll(page, { timeout: 3_000 }), name)
        .toPass({ timeout: 4_000 });
      await shot(name);
    }
  });
});
