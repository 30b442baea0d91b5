// Cascading choices: a collector on a phone picks a country and is offered only its regions; changing the country
// clears the region, which the new country does not offer, and the response is saved with the regions it offers.
// The builder ties a question's choices to an earlier question's, at phone and desktop width, and the preview follows.
import { addBlock, addChoice, addItem, newSchemaBody, updateItem, type SchemaBody } from '@fieldwork/sampler';
import { expect, forEachViewport, test } from './support/fixtures.js';
import { expectNoHorizontalScroll } from './support/layout.js';
import { logIn } from './support/ui.js';
import { FIELD_3G, throttle } from './support/network.js';

/** Country (Kenya, Uganda), then Region (Nairobi, Mombasa, Kampala), filtered by Country when `filtered`. */
function whereForm(filtered: boolean) {
  const b = addBlock(newSchemaBody('S'), { en: 'Where' });
  const country = addItem(b.body, b.id, 'choice', 'en', 'Country');
  const kenya = addChoice(country.body, country.id, 'en', 'Kenya');
  const uganda = addChoice(kenya.body, country.id, 'en', 'Uganda');
  const region = addItem(uganda.body, b.id, 'choice', 'en', 'Region');
  const nairobi = addChoice(region.body, region.id, 'en', 'Nairobi');
  const mombasa = addChoice(nairobi.body, region.id, 'en', 'Mombasa');
  const kampala = addChoice(mombasa.body, region.id, 'en', 'Kampala');
  const ties = { [nairobi.id]: [kenya.id], [mombasa.id]: [kenya.id], [kampala.id]: [uganda.id] };
  const body: SchemaBody = filtered
    ? updateItem(kampala.body, region.id, {
        options: { ...kampala.body.entities.items[region.id]!.options, choiceFilter: { itemId: country.id, ties } },
      })
    : kampala.body;
  return {
    body,
    ids: {
      country: country.id,
      region: region.id,
      kenya: kenya.id,
      uganda: uganda.id,
      nairobi: nairobi.id,
      mombasa: mombasa.id,
      kampala: kampala.id,
    },
  };
}

forEachViewport(['phone'], () => {
  test('a collector sees only the regions of the chosen country, and changing the country clears the region', async ({
    page,
    api,
    shot,
  }) => {
    const { body, ids } = whereForm(true);
    const project = await api.createProject('Cascade visits');
    await api.saveSchema(project.sampler_schemas[0]!.id, body);
    const collector = await api.addProjectUser(project.id, 'collector');

    // On a field network, as a collector would be.
    await throttle(page, FIELD_3G);
    await page.goto(`/project/${project.id}/collect/newrecord`);
    await logIn(page, collector, page.getByTestId('collect-form'));
    const country = page.locator(`[data-item="${ids.country}"]`);
    const region = page.locator(`[data-item="${ids.region}"]`);
    // No country yet: no region is offered, and the form says why.
    await expect(region.getByRole('radio')).toHaveCount(0);
    await expect(region.getByTestId('cascade-waiting')).toHaveText(
      'Answer “Country” first: its answer decides the choices here.',
    );
    await shot('no-country');

    await country.getByText('Kenya', { exact: true }).click();
    await expect(region.locator('label')).toHaveText(['Nairobi', 'Mombasa']);
    await region.getByText('Mombasa', { exact: true }).click();
    await expect(region.getByRole('radio', { name: 'Mombasa' })).toBeChecked();
    await expectNoHorizontalScroll(page);
    await shot('kenya-regions');

    // Another country: its regions only, and the Kenyan region is no longer the answer.
    await country.getByText('Uganda', { exact: true }).click();
    await expect(region.locator('label')).toHaveText(['Kampala']);
    await expect(region.getByRole('radio', { name: 'Kampala' })).not.toBeChecked();
    await shot('uganda-region-cleared');

    await region.getByText('Kampala', { exact: true }).click();
    await page.getByTestId('complete-response').click();
    await expect(page.getByTestId('notice')).toHaveText('The response is saved on the server.');
    type Listed = { results: { data: Record<string, Record<string, unknown>> }[] };
    const stored = await api.must<Listed>(
      'POST',
      `project/${project.id}/response-chunk/filter/?page=1&page_size=10`,
      {},
    );
    expect(stored.results.map((r) => r.data['0'])).toEqual([
      { [ids.country]: [ids.uganda], [ids.region]: [ids.kampala] },
    ]);
  });
});

forEachViewport(['phone', 'desktop'], () => {
  test("the builder ties a question's choices to an earlier question's, and the preview offers only the tied ones", async ({
    page,
    api,
    owner,
    shot,
  }) => {
    const { body, ids } = whereForm(false);
    const project = await api.createProject('Cascade builder');
    const schemaId = project.sampler_schemas[0]!.id;
    await api.saveSchema(schemaId, body);
    await page.goto(`/project/${project.id}/builder`);
    await logIn(page, owner, page.getByTestId('builder'));
    await page.getByTestId('category-item').first().click();
    await page.getByTestId('question-item').nth(1).click();
    await page.getByTestId('choice-filter-select').selectOption({ label: 'Country' });
    const ties = page.getByTestId('choice-ties');
    await expect(ties).toHaveCount(3);
    await page.getByTestId(`tie-${ids.nairobi}-${ids.kenya}`).check();
    await page.getByTestId(`tie-${ids.mombasa}-${ids.kenya}`).check();
    await page.getByTestId(`tie-${ids.kampala}-${ids.uganda}`).check();
    await expectNoHorizontalScroll(page);
    await shot('ties');
    await page.getByTestId('save-form').click();
    await expect(page.getByTestId('dirty-flag')).toHaveClass('clean');
    const saved = await api.must<SchemaBody>('GET', `samplerschema/${schemaId}/`);
    expect(saved.entities.items[ids.region]!.options.choiceFilter).toEqual({
      itemId: ids.country,
      ties: { [ids.nairobi]: [ids.kenya], [ids.mombasa]: [ids.kenya], [ids.kampala]: [ids.uganda] },
    });

    await page.getByTestId('panel-preview').click();
    const preview = page.getByTestId('preview');
    await preview.locator(`[data-item="${ids.country}"]`).getByText('Uganda', { exact: true }).click();
    await expect(preview.locator(`[data-item="${ids.region}"] label`)).toHaveText(['Kampala']);
    await shot('preview');
  });
});
