// Each role sees only what it can use (spec 000 §6 screen access), and a screen its role does not open says which
// role, or which workspace feature, is missing instead of failing silently.
import { expect, test } from './support/fixtures.js';
import { logIn } from './support/ui.js';

test('a collector sees no project management, no workspace settings and no builder, and is told which role a screen needs', async ({
  page,
  api,
  owner,
  shot,
}) => {
  const first = await api.createProject('Wells north');
  const second = await api.createProject('Wells south');
  const collector = await api.addProjectUser(first.id, 'collector');
  await api.must('PUT', `project/${second.id}/users/${collector.userId}/`, {
    collector: true,
    organization: owner.organizationId,
  });
  await page.goto('/projects');
  await logIn(page, collector, page.getByTestId('projects-screen'));
  await expect(page.getByTestId('project-card')).toHaveCount(2);
  await expect(page.getByTestId('new-project')).toHaveCount(0);
  await expect(page.getByTestId('delete-project')).toHaveCount(0);
  await expect(page.getByTestId('workspace-settings-link')).toHaveCount(0);
  await shot('collector-projects');

  await page.getByTestId('project-card').filter({ hasText: 'Wells North' }).click();
  await expect(page.getByTestId('project-area')).toBeVisible();
  await expect(page.locator('.drawer nav a')).toHaveText(['Home', 'Collect']);
  for (const path of ['builder', 'settings', 'results', 'import']) {
    await page.goto(`/project/${first.id}/${path}`);
    await expect(page.getByTestId('access-hint')).toBeVisible();
  }
  await page.goto(`/project/${first.id}/builder`);
  await expect(page.getByTestId('access-hint')).toContainText(
    'This screen needs the role project owner or project admin in this project.',
  );
  await shot('collector-builder');
  await page.goto(`/workspace-settings/${owner.organizationId}`);
  await expect(page.getByTestId('access-hint')).toContainText('owners and administrators');
});

test('a researcher sees results but not collection; an owner is told the import needs the ingestion feature', async ({
  page,
  api,
  owner,
  shot,
}) => {
  const project = await api.createProject('Clinic visits');
  const researcher = await api.addProjectUser(project.id, 'researcher');
  await page.goto(`/project/${project.id}`);
  await logIn(page, researcher, page.getByTestId('project-area'));
  // The results permission reads the results and their views (summary, performance, tracking: issue 20).
  await expect(page.locator('.drawer nav a')).toHaveText(['Home', 'Results', 'Summary', 'Performance', 'Tracking']);
  await page.goto(`/project/${project.id}/collect`);
  await expect(page.getByTestId('access-hint')).toContainText('project owner or collector or data manager');
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/login-home/);

  await page.goto(`/project/${project.id}/import`);
  await logIn(page, owner, page.getByTestId('project-area'));
  await expect(page.getByTestId('access-hint')).toContainText('This needs the workspace feature “ingestion”');
  await expect(page.getByTestId('access-hint')).toContainText(
    `pnpm fieldwork workspace features --id ${owner.organizationId} --enable ingestion`,
  );
  await shot('owner-import-without-ingestion');
});
