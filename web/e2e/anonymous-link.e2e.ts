// A respondent answers through an anonymous link and lands on the success page; an expired link says so.
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { withDb } from './support/db.js';
import { expect, test } from './support/fixtures.js';

test('a respondent answers through an anonymous link and lands on the success page; an expired link says so', async ({
  page,
  api,
  stack,
  shot,
}) => {
  const project = await api.createProject('Public Survey');
  const b = addBlock(newSchemaBody('S'), { en: 'About you' });
  const q = addItem(b.body, b.id, 'open', 'en', 'Your town');
  await api.saveSchema(project.sampler_schemas[0]!.id, q.body);
  const survey = await api.createSurvey(project.id);

  await page.goto(`/collect/anonymous/${survey.token}/resp@example.org`);
  await expect(page.getByTestId('public-collect')).toBeVisible();
  await page.locator(`[data-item="${q.id}"] input`).fill('Lyon');
  await page.getByTestId('complete-response').click();
  await expect(page.getByTestId('collect-success')).toBeVisible();
  await shot('success');

  type List = { results: { email: string; data: Record<string, Record<string, unknown>> }[] };
  await expect.poll(async () => (await api.get<List>(`project/${project.id}/response/`)).body.results.length).toBe(1);
  const [response] = (await api.get<List>(`project/${project.id}/response/`)).body.results;
  expect(response!.email).toBe('resp@example.org');
  expect(response!.data['0']![String(q.id)]).toBe('Lyon');

  // No API moves a link's expiry into the past: the database does.
  await withDb(stack, async (sql) => {
    await sql`update projects.surveys set expiry_date = now() - interval '1 day' where token = ${survey.token}`;
  });
  await page.goto(`/collect/survey/${survey.token}`);
  await expect(page.getByTestId('link-failure')).toHaveText('This link has expired.');
});
