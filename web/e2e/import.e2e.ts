// An owner imports a CSV through the mapping screen, sees the refused rows in the preview and the report, and
// turns SQL access on and off.
import { auth } from '@fieldwork/proto';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { createClient } from '@fieldwork/service-kit';
import { expect, test } from './support/fixtures.js';
import { grpcAddress } from './support/stack.js';
import { logIn } from './support/ui.js';

test('an owner imports a CSV through the mapping screen, sees the refused rows in the preview and the report, and gets SQL access', async ({
  page,
  owner,
  api,
  stack,
  shot,
}) => {
  // Imports need the workspace's ingestion feature, which only an operator turns on.
  const admin = createClient(auth.AuthServiceClient, grpcAddress(stack, 'auth'), { secret: stack.contextSecret });
  try {
    await admin.adminSetFeatures({ organization_id: owner.organizationId, enable: ['ingestion'], disable: [] });
  } finally {
    admin.close();
  }
  const project = await api.createProject('Imported Farms');
  const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
  const area = addItem(b.body, b.id, 'number', 'en', 'Area');
  const crop = addItem(area.body, b.id, 'choice', 'en', 'Crop');
  const maize = addChoice(crop.body, crop.id, 'en', 'Maize');
  const beans = addChoice(maize.body, crop.id, 'en', 'Beans');
  const note = addItem(beans.body, b.id, 'open', 'en', 'Note');
  await api.saveSchema(project.sampler_schemas[0]!.id, note.body);

  await page.goto(`/project/${project.id}/import`);
  await logIn(page, owner, page.getByTestId('import-page'));
  const csv = 'Hectares,Crop,Note,Extra\n12,Maize,first farm,x\nlots,Beans,second farm,x\n3,Rice,third farm,x\n';
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'farms.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('import-preview')).toBeVisible();
  // Crop and Note are recognised by their labels; Hectares is mapped by hand, Extra stays out.
  await expect(page.getByTestId('map-Crop')).toHaveValue(String(crop.id));
  await expect(page.getByTestId('map-Hectares')).toHaveValue('');
  await page.getByTestId('map-Hectares').selectOption(String(area.id));
  await expect(page.locator('td.bad', { hasText: 'Enter a number.' })).toBeVisible();
  await expect(page.locator('td.bad', { hasText: 'is not a choice of this question.' })).toBeVisible();
  await shot('mapping');
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-done')).toContainText('1 stored, 0 unchanged, 2 refused', { timeout: 60_000 });
  const reportUrl = new URL((await page.getByTestId('import-report').getAttribute('href'))!, stack.baseUrl);
  const report = await (await fetch(reportUrl)).text();
  expect(report).toMatch(/2,Hectares,lots,Enter a number\./);
  expect(report).toMatch(/3,Crop,Rice,.*Rice.* is not a choice of this question\./);
  await shot('done');
  const stored = await api.must<{ count: number }>(
    'POST',
    `project/${project.id}/response-chunk/filter/?page=1&page_size=10`,
    {},
  );
  expect(stored.count).toBe(1);

  // SQL access: credentials shown once, then revoked.
  await page.getByTestId('sql-enable').click();
  await expect(page.getByTestId('sql-credentials')).toHaveText(
    /user=fw_sql_\w+\npassword=\S+\nselect \* from sql_p\d+\.responses;/,
    { useInnerText: true },
  );
  await shot('sql-access');
  await page.getByTestId('sql-disable').click();
  await expect(page.getByText('SQL access is revoked.')).toBeVisible();
  await expect(page.getByTestId('sql-credentials')).toHaveCount(0);
});
