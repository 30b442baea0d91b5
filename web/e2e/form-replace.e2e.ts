// An owner replaces a form that already has a response with an uploaded question list: the upload screen first
// lists the questions it would change, the owner confirms, then puts the earlier form back from the builder.
import { expect, test } from './support/fixtures.js';
import { householdForm } from './support/forms.js';
import { logIn } from './support/ui.js';

type Schema = { revision: number; form: unknown; entities: unknown };

test('an owner sees what replacing a form with responses changes, replaces it, and restores the earlier version', async ({
  page,
  owner,
  api,
  shot,
}) => {
  const form = householdForm();
  const project = await api.createProject('Replace a form');
  const schemaId = project.sampler_schemas[0]!.id;
  await api.saveSchema(schemaId, form.body);
  await api.must('POST', `project/${project.id}/response/`, {
    sampler_schema: schemaId,
    response_id: `${project.id}-${schemaId}-e2e-replace-1`,
    site: project.sites![0]!.id,
    data: { '0': { [form.ids.age]: 40 } },
  });
  const before = await api.must<Schema>('GET', `samplerschema/${schemaId}/`);
  const age = form.body.entities.items[form.ids.age]!.codeName;

  await page.goto('/login-home/login');
  await logIn(page, owner, page.getByTestId('projects-screen'));
  await page.goto(`/project/${project.id}/create-form-from-upload`);
  // The age becomes a text question; every other question goes.
  await page.getByTestId('form-file').setInputFiles({
    name: 'ages.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `category,question,type,choices,required,code\nHousehold,Age of the head of household,text,,,${age}\n`,
    ),
  });
  const changes = page.getByTestId('replace-changes');
  await expect(changes).toContainText('This form has 1 response: replacing it changes 6 questions.');
  await expect(changes.getByTestId('change-retyped')).toHaveText(`${age}: Number becomes Text`);
  await expect(changes.getByTestId('change-removed')).toHaveCount(5);
  await expect(changes.getByTestId('change-added')).toHaveCount(0);
  expect((await api.must<Schema>('GET', `samplerschema/${schemaId}/`)).revision).toBe(before.revision);
  await shot('replace-changes');

  await page.getByTestId('replace-form').click();
  await expect(page.getByTestId('conversion-report')).toContainText(/ages\.csv \(question list \(CSV\)\): 1 question/);
  await expect(changes).toHaveCount(0);
  await page.getByTestId('open-builder').click();
  await expect(page.getByTestId('builder')).toBeVisible();
  await expect(page.getByTestId('question-item')).toHaveCount(1);

  await page.getByTestId('panel-versions').click();
  const versions = page.getByTestId('version-item');
  await expect(versions.first()).toContainText('6 questions');
  await shot('versions');
  // Restoring asks first: dismissed, nothing changes; accepted, the version is the form.
  await versions.first().getByTestId('restore-version').click();
  await page.getByTestId('dialog-confirm').getByTestId('dialog-cancel').click();
  await expect(page.getByText('Earlier version restored.')).toHaveCount(0);
  await versions.first().getByTestId('restore-version').click();
  const asked = page.getByTestId('dialog-confirm');
  await expect(asked).toContainText('The form as it is now is kept as a version');
  await asked.getByTestId('dialog-submit').click();
  await expect(page.getByText('Earlier version restored.')).toBeVisible();
  await page.getByTestId('panel-edit').click();
  await expect(page.getByTestId('question-item')).toHaveCount(5);
  const after = await api.must<Schema>('GET', `samplerschema/${schemaId}/`);
  expect({ form: after.form, entities: after.entities }).toEqual({ form: before.form, entities: before.entities });
  await shot('restored');
});
