// People and roles (issue 19): a new workspace owner creates a user, gives them project roles and read_sites in a
// dialog, and the user sees only what those roles open; a staff admin manages collectors and cannot give roles it
// does not hold; users are added in bulk from the template file, bad rows reported one by one.
import type { Page } from '@playwright/test';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { uniqueId } from './support/api.js';
import { logIn } from './support/ui.js';
import { VIEWPORTS, type ViewportName } from './support/viewports.js';

/** A page of a fresh context of the same size (another person on another device). */
async function otherDevice(page: Page, size: ViewportName, baseURL: string): Promise<Page> {
  const context = await page
    .context()
    .browser()!
    .newContext({ ...VIEWPORTS[size], baseURL });
  return context.newPage();
}

forEachViewport(['desktop', 'phone'], (size) => {
  test('an owner creates a user, gives project roles and read_sites; the user sees only what they open', async ({
    page,
    owner,
    api,
    stack,
    shot,
  }) => {
    // Two people on two devices, each installing the app: more than the default two minutes on a busy machine.
    test.setTimeout(240_000);
    const project = await api.createProject('Clinics');
    const site = await api.must<{ id: number }>('POST', `project/${project.id}/sites/`, {
      name: 'Riverside',
      geotag: { type: 'Point', coordinates: [36.8, -1.2] },
    });
    const id = uniqueId();
    const email = `nurse.${id}@example.org`;
    const password = `pass ${id} e2e`;

    // The workspace's users: create one in a dialog.
    await page.goto(`/workspace-settings/${owner.organizationId}`);
    await logIn(page, owner, page.getByTestId('ws-users'));
    await expect(page.getByTestId('ws-features')).toContainText('ingestion');
    await expect(page.getByTestId('ws-feature-ingestion')).toBeDisabled();
    await page.getByTestId('ws-user-create').click();
    const create = page.getByTestId('ws-create-dialog');
    await create.locator('input[name="ws-email"]').fill(email);
    await create.locator('input[name="ws-first"]').fill('Nia');
    await create.locator('input[name="ws-last"]').fill('Nurse');
    await expect(create).not.toContainText('Password');
    await shot('create-user');
    await create.getByTestId('ws-create-save').click();
    await expect(create).toHaveCount(0);
    // Nia confirms the invitation mailed to her, choosing her own password: then she is a member.
    await api.confirmInvitation(email, password);
    await page.reload();
    await page.getByTestId('ws-user-search').fill(email);
    await expect(page.getByTestId('ws-user')).toHaveCount(1);
    await expect(page.getByTestId('ws-user')).toContainText('Nia Nurse');
    await expect(page.getByTestId('ws-user-count')).toContainText('1 user');
    await shot('workspace-users');

    // The project's users: add them as a collector, then give researcher and a read site in the dialog.
    await page.goto(`/project/${project.id}/settings/collectors`);
    const add = page.getByTestId('add-user');
    await add.locator('input[name="user-email"]').fill(email);
    await add.getByTestId('add-user-save').click();
    await page.getByTestId('user-search').fill('Nia');
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await expect(row).toContainText('Collector');
    await row.getByTestId('user-edit').click();
    const dialog = page.getByTestId('project-user-dialog');
    await dialog.locator('input[name="edit-role-researcher"]').check();
    await dialog.locator(`input[name="read-site-${site.id}"]`).check();
    await expect(dialog.getByTestId('edit-permissions')).toContainText('results');
    await shot('edit-project-user');
    await dialog.getByTestId('project-user-save').click();
    await expect(dialog).toHaveCount(0);
    await expect(row).toContainText('Researcher');
    const saved = await api.must<{ results: { email: string; permissions: string[]; read_sites: number[] }[] }>(
      'GET',
      `project/${project.id}/users/?search=${encodeURIComponent(email)}`,
    );
    expect([...saved.results[0]!.permissions].sort()).toEqual(['collector', 'home', 'results']);
    expect(saved.results[0]!.read_sites).toEqual([site.id]);
    await shot('project-users');

    // The user signs in on their own device: results and collection, no settings or builder.
    const theirs = await otherDevice(page, size, stack.baseUrl);
    try {
      await theirs.goto(`/project/${project.id}`);
      await logIn(theirs, { username: email, password }, theirs.getByTestId('project-area'));
      await theirs.goto(`/project/${project.id}/settings`);
      await expect(theirs.getByTestId('access-hint')).toBeVisible();
      await theirs.goto(`/project/${project.id}/builder`);
      await expect(theirs.getByTestId('access-hint')).toContainText('project owner or project admin');
      await theirs.goto(`/project/${project.id}/results`);
      await expect(theirs.getByTestId('access-hint')).toHaveCount(0);
      await shot('user-results', theirs);
    } finally {
      await theirs.context().close();
    }
  });

  test('a staff admin manages collectors and is offered only the roles it holds', async ({ page, api, shot }) => {
    const project = await api.createProject('Field team');
    const id = uniqueId();
    const staff = { username: `staff.${id}@example.org`, password: `pass ${id} e2e` };
    await api.must('POST', 'api/v1/project-user/', {
      projectId: project.id,
      email: staff.username,
      first_name: 'Sol',
      last_name: 'Staff',
      staff_admin: true,
    });
    await api.confirmInvitation(staff.username, staff.password);
    await page.goto(`/project/${project.id}/settings`);
    await logIn(page, staff, page.getByTestId('project-area'));
    await expect(page.getByTestId('settings-collectors')).toBeVisible();
    await expect(page.getByTestId('settings-admins')).toHaveCount(0);
    await page.getByTestId('settings-collectors').click();
    const add = page.getByTestId('add-user');
    await expect(add.locator('input[name="role-collector"]')).toBeEnabled();
    await expect(add.locator('input[name="role-researcher"]')).toBeDisabled();
    await expect(add.locator('input[name="role-project_owner"]')).toBeDisabled();
    const collector = `collector.${id}@example.org`;
    await add.locator('input[name="user-email"]').fill(collector);
    await add.locator('input[name="user-first"]').fill('Cy');
    await add.getByTestId('add-user-save').click();
    // Cy is listed once they have accepted the invitation mailed to them (choosing their own password).
    await expect(add.locator('input[name="user-email"]')).toHaveValue('');
    await api.confirmInvitation(collector, `pass ${id} cy`);
    await page.reload();
    await expect(page.getByTestId('user-row').filter({ hasText: collector })).toContainText('Collector');
    await shot('staff-admin-collectors');
  });

  test('an owner adds users in bulk from the template, each bad row said', async ({ page, owner, api, shot }) => {
    const project = await api.createProject('Bulk');
    await page.goto(`/project/${project.id}/settings/collectors`);
    await logIn(page, owner, page.getByTestId('users-collectors'));
    const href = await page.getByTestId('bulk-template').getAttribute('href');
    const template = await page.request.get(href!);
    expect(template.status()).toBe(200);
    const header = (await template.text()).split('\n')[0]!.trim();
    expect(header).toBe('email,first_name,last_name,role,site,group,team');
    const id = uniqueId();
    const csv = [
      header,
      `good.${id}@example.org,Good,Row,collector,Default Site,,`,
      `not-an-email,Bad,Email,collector,,,`,
      `boss.${id}@example.org,Bad,Role,boss,,,`,
    ].join('\n');
    await page.getByTestId('bulk-file').setInputFiles({
      name: 'bulk_user_template.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    const report = page.getByTestId('bulk-report');
    await expect(report).toContainText('1 added, 2 failed');
    await expect(report.locator('li')).toHaveCount(2);
    await expect(report).toContainText('Row 2');
    await expect(report).toContainText('Enter a valid email address.');
    await expect(report).toContainText('Row 3');
    await expect(report).toContainText('Unknown role: boss.');
    await shot('bulk-report');
  });
});
