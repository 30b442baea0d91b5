// An owner imports a household XLSForm whose `members` repeat becomes the project's second level, then, on a phone,
// files a household and a member of it ("Add a record below"): the member is a response of the members form with the
// household as its parent, and questions conditioned on the household's answer show as that answer says.
import ExcelJS from 'exceljs';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { logIn } from './support/ui.js';
import { FIELD_3G, throttle } from './support/network.js';

type Hierarchy = { project_hierarchy: { level: number; name: string; schema_id: number }[] };
type Doc = { entities: { items: Record<string, { id: number; codeName: string }> } };
type Stored = { sampler_schema: number; parent_id: string | null; children_count: number };

async function householdXlsForm(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('survey').addRows([
    ['type', 'name', 'label', 'required', 'relevant'],
    ['text', 'hh_name', 'Household name', 'yes', ''],
    ['integer', 'hh_size', 'People living here', '', ''],
    ['begin repeat', 'members', 'Members', '', ''],
    ['text', 'm_name', 'Member name', 'yes', ''],
    ['integer', 'm_age', 'Member age', '', ''],
    // Asked only in a household of more than five: a condition on the parent response's answer.
    ['text', 'm_room', 'Which room does this member sleep in?', '', '${hh_size} > 5'],
    ['text', 'm_work', 'What work does this member do?', '', '${hh_size} < 5'],
    ['end repeat', '', '', '', ''],
  ]);
  wb.addWorksheet('settings').addRows([['form_title'], ['Household survey']]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

forEachViewport(['phone'], () => {
  test('an XLSForm repeat becomes a level whose records are collected under a household', async ({
    page,
    owner,
    api,
    shot,
  }) => {
    const project = await api.createProject('Households with members');
    const first = (await api.must<Hierarchy>('GET', `project/${project.id}/`)).project_hierarchy[0]!;

    await page.goto('/login-home/login');
    await logIn(page, owner, page.getByTestId('projects-screen'));
    await page.goto(`/project/${project.id}/create-form-from-upload`);
    await page.getByTestId('form-file').setInputFiles({
      name: 'household.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await householdXlsForm(),
    });
    const report = page.getByTestId('conversion-report');
    await expect(report).toContainText('household.xlsx (XLSForm): 6 questions.');
    await expect(report).toContainText('Imported with no losses.');
    await expect(page.getByTestId('conversion-levels')).toContainText('Members (level 2, 4 questions)');
    await expectNoHorizontalScroll(page);
    await shot('import-report');

    const p = await api.must<Hierarchy>('GET', `project/${project.id}/`);
    expect(p.project_hierarchy.map((l) => l.name)).toEqual([first.name, 'Members']);
    const [home, members] = p.project_hierarchy.map((l) => l.schema_id) as [number, number];
    expect(home).toBe(first.schema_id);
    const idOf = async (schema: number, code: string) =>
      Object.values((await api.must<Doc>('GET', `samplerschema/${schema}/`)).entities.items).find(
        (i) => i.codeName === code,
      )!.id;

    // A household, on the phone, on a field network.
    await throttle(page, FIELD_3G);
    await page.goto(`/project/${project.id}/collect`);
    await expect(page.getByTestId('collect-home')).toBeVisible();
    await page.getByRole('link', { name: 'New record' }).click();
    await expect(page.getByTestId('collect-form')).toBeVisible();
    await page.locator(`#q${await idOf(home, 'hh_name')}-input`).fill('Ndlovu');
    await page.locator(`#q${await idOf(home, 'hh_size')}-input`).fill('3');
    await expectNoHorizontalScroll(page);
    await shot('household');
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('notice')).toHaveText('The response is saved on the server.');

    // A member of it: "Add a record below" opens the members form.
    const row = page.getByTestId('response-row');
    await expect(row).toHaveCount(1, { timeout: 15_000 });
    const householdId = await row.getAttribute('data-response-id');
    await row.getByRole('link', { name: 'Add a record below' }).click();
    await expect(page.getByTestId('collect-form')).toBeVisible();
    const name = page.locator(`#q${await idOf(members, 'm_name')}-input`);
    await expect(name).toBeVisible();
    await name.fill('Thandi');
    // The household has 3 people: the question for large households is skipped, the other one asked.
    await expect(page.getByText('What work does this member do?')).toBeVisible();
    await expect(page.getByText('Which room does this member sleep in?')).toHaveCount(0);
    await page.locator(`#q${await idOf(members, 'm_age')}-input`).fill('34');
    await expectNoHorizontalScroll(page);
    await shot('member');
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('notice')).toHaveText('The response is saved on the server.');
    await expect(page.getByTestId('response-row')).toHaveCount(1, { timeout: 15_000 });
    // Members are the deepest level: nothing can be filed below one.
    await expect(page.getByTestId('response-row').getByRole('link', { name: 'Add a record below' })).toHaveCount(0);
    await shot('members-list');

    const member = await api.must<Stored>(
      'GET',
      `project/${project.id}/response/single/${await page.getByTestId('response-row').getAttribute('data-response-id')}/`,
    );
    expect(member).toMatchObject({ sampler_schema: members, parent_id: householdId });
    expect(
      (await api.must<Stored>('GET', `project/${project.id}/response/single/${householdId}/`)).children_count,
    ).toBe(1);
  });
});
