// An anonymous respondent is never thanked for a response the server did not keep: a refusal (here, a form made
// stricter after the respondent opened it) shows the server's message at the question with every answer still on
// screen; without a network the response waits on the device, the page says so, and it is sent when the network
// returns, and only then does the page thank them.
import { expect, forEachViewport, test } from './support/fixtures.js';
import { householdForm, withMaximumAge } from './support/forms.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { FIELD_3G, setOffline, setOnline, throttle } from './support/network.js';

type List = { results: { data: Record<string, Record<string, unknown>> }[]; count: number };

forEachViewport(['phone'], () => {
  test('a respondent whose answer the server refuses sees why at the question, keeps every answer, and is thanked only once it is stored', async ({
    page,
    api,
    shot,
  }) => {
    const form = householdForm();
    const { ids } = form;
    const project = await api.createProject('Open survey');
    const schemaId = project.sampler_schemas[0]!.id;
    await api.saveSchema(schemaId, form.body);
    const survey = await api.createSurvey(project.id);

    await page.goto(`/collect/anonymous/${survey.token}`);
    await expect(page.getByTestId('public-collect')).toBeVisible();
    // While the respondent fills the form, its owner lowers the maximum age: the page's copy is outdated.
    await api.saveSchema(schemaId, withMaximumAge(form, 60), 2);
    await page.locator(`#q${ids.age}-input`).fill('75');
    await page.locator(`#q${ids.code}-input`).fill('KE0042');
    await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
    await page.getByTestId('complete-response').click();

    await expect(page.locator(`[data-item="${ids.age}"]`).getByTestId('question-error')).toHaveText(
      'Ensure this value is less than or equal to 60.',
    );
    await expect(page.getByTestId('collect-success')).toHaveCount(0);
    await expect(page.getByText('Thank you')).toHaveCount(0);
    await expect(page.locator(`#q${ids.age}-input`)).toHaveValue('75');
    await expect(page.locator(`#q${ids.code}-input`)).toHaveValue('KE0042');
    await expectNoHorizontalScroll(page);
    await shot('refused');
    expect((await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(0);

    await page.locator(`#q${ids.age}-input`).fill('58');
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('collect-success')).toContainText('Your response has been recorded.');
    await shot('thanked');
    const stored = (await api.get<List>(`project/${project.id}/response/`)).body;
    expect(stored.count).toBe(1);
    expect(stored.results[0]!.data['0']![String(ids.age)]).toBe(58);
  });

  test('a respondent without a network is told the response waits on this device, and is thanked once it is sent', async ({
    page,
    api,
    shot,
  }) => {
    const form = householdForm();
    const { ids } = form;
    const project = await api.createProject('Survey in the hills');
    await api.saveSchema(project.sampler_schemas[0]!.id, form.body);
    const survey = await api.createSurvey(project.id);
    await throttle(page, FIELD_3G);
    await page.goto(`/collect/anonymous/${survey.token}`);
    await expect(page.getByTestId('public-collect')).toBeVisible();

    await setOffline(page);
    await page.locator(`#q${ids.age}-input`).fill('33');
    await page.locator(`[data-item="${ids.sick}"]`).getByText('No', { exact: true }).click();
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('collect-queued')).toContainText('Saved on this device');
    await expect(page.getByText('Your response has been recorded.')).toHaveCount(0);
    await shot('waiting-on-device');
    expect((await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(0);

    await setOnline(page);
    await expect(page.getByTestId('collect-success')).toContainText('Your response has been recorded.', {
      timeout: 30_000,
    });
    await shot('sent-and-thanked');
    expect((await api.get<List>(`project/${project.id}/response/`)).body.count).toBe(1);
  });
});
