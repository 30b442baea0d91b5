// A respondent attaches a photo through an anonymous link: the file goes up through its signed URL (held to the
// type and size the app declared, written once: issue 18), is completed, and the response names it (a respondent's
// file answer must be a file asked for that response through that link).
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { expect, test } from './support/fixtures.js';

// An 8x8 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWMwTjuDFTEMLQkAuYZZQQ0kCIcAAAAASUVORK5CYII=',
  'base64',
);

test('a respondent attaches a photo through an anonymous link, and the response names the stored file', async ({
  page,
  api,
  shot,
}) => {
  const project = await api.createProject('Public Photos');
  const b = addBlock(newSchemaBody('S'), { en: 'Your door' });
  const town = addItem(b.body, b.id, 'open', 'en', 'Your town');
  const photo = addItem(town.body, b.id, 'image', 'en', 'A photo of your door');
  await api.saveSchema(project.sampler_schemas[0]!.id, photo.body);
  const survey = await api.createSurvey(project.id);

  await page.goto(`/collect/anonymous/${survey.token}`);
  await expect(page.getByTestId('public-collect')).toBeVisible();
  await page.locator(`[data-item="${town.id}"] input`).fill('Lyon');
  await page.getByTestId('image-input').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.locator(`[data-item="${photo.id}"] img.thumb`)).toBeVisible();
  await page.getByTestId('complete-response').click();
  await expect(page.getByTestId('collect-success')).toBeVisible();
  await shot('success');

  type List = {
    results: { response_id: string; media_uploading_count: number; data: Record<string, Record<string, unknown>> }[];
  };
  await expect.poll(async () => (await api.get<List>(`project/${project.id}/response/`)).body.results.length).toBe(1);
  const [response] = (await api.get<List>(`project/${project.id}/response/`)).body.results;
  const key = response!.data['0']![String(photo.id)];
  expect(key).toMatch(new RegExp(`^images/${project.id}/[^/]+/[0-9a-f-]{36}-door\\.png$`));
  expect(response!.media_uploading_count).toBe(0);
});
