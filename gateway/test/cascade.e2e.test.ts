// Cascading choices through the API: the forms service saves a form whose choice question is filtered by an earlier
// single choice question and refuses a broken filter at its item; the responses service refuses a choice the filter
// question's answer does not offer, at the question, and stores one it offers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addBlock,
  addChoice,
  addItem,
  ANSWER_MESSAGES,
  CHOICE_FILTER_MESSAGES,
  newSchemaBody,
  updateItem,
} from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { client, login, point, type Api, type Session } from './helpers.js';

let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await t?.stop();
});

type Json = Record<string, any>;

/** Country (Kenya, Uganda), then Region filtered by it: Nairobi under Kenya, Kampala under Uganda. */
function cascadeForm() {
  const b = addBlock(newSchemaBody('S'), { en: 'Where' });
  const country = addItem(b.body, b.id, 'choice', 'en', 'Country');
  const kenya = addChoice(country.body, country.id, 'en', 'Kenya');
  const uganda = addChoice(kenya.body, country.id, 'en', 'Uganda');
  const region = addItem(uganda.body, b.id, 'choice', 'en', 'Region');
  const nairobi = addChoice(region.body, region.id, 'en', 'Nairobi');
  const kampala = addChoice(nairobi.body, region.id, 'en', 'Kampala');
  const options = kampala.body.entities.items[region.id]!.options;
  const body = updateItem(kampala.body, region.id, {
    options: {
      ...options,
      choiceFilter: { itemId: country.id, ties: { [nairobi.id]: [kenya.id], [kampala.id]: [uganda.id] } },
    },
  });
  return {
    body,
    ids: {
      country: country.id,
      region: region.id,
      kenya: kenya.id,
      uganda: uganda.id,
      nairobi: nairobi.id,
      kampala: kampala.id,
    },
  };
}

describe('cascading choices', () => {
  it('saves the filter, refuses a broken one at its item, and refuses an answer the filter question does not offer', async () => {
    const { body, ids } = cascadeForm();
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Cascade', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    // A filter by a question asked after this one is refused where the builder shows it.
    const late = updateItem(body, ids.country, {
      options: { ...body.entities.items[ids.country]!.options, choiceFilter: { itemId: ids.region, ties: {} } },
    });
    expect(
      await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...late, revision: 1 } }),
    ).toMatchObject({
      status: 400,
      body: { [`items.${ids.country}.choiceFilter`]: [CHOICE_FILTER_MESSAGES.notBefore] },
    });
    const saved = await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...body, revision: 1 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const stored = await api<Json>('GET', `samplerschema/${schema}/`, { token: owner.access });
    expect(stored.body.entities.items[ids.region].options.choiceFilter).toEqual({
      itemId: ids.country,
      ties: { [ids.nairobi]: [ids.kenya], [ids.kampala]: [ids.uganda] },
    });

    let n = 0;
    const post = (data: Json) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: schema,
          device_id: 'd',
          response_id: `${p.id}-${schema}-1-dev-${Date.now()}-${++n}`,
          data: { '0': data },
        },
      });
    expect(await post({ [ids.country]: [ids.kenya], [ids.region]: [ids.kampala] })).toMatchObject({
      status: 400,
      body: { [`data.0.${ids.region}`]: [ANSWER_MESSAGES.notOffered('Country')] },
    });
    expect(await post({ [ids.region]: [ids.nairobi] })).toMatchObject({
      status: 400,
      body: { [`data.0.${ids.region}`]: [ANSWER_MESSAGES.filterUnanswered('Country')] },
    });
    const ok = await post({ [ids.country]: [ids.uganda], [ids.region]: [ids.kampala] });
    expect(ok).toMatchObject({
      status: 201,
      body: { data: { '0': { [ids.country]: [ids.uganda], [ids.region]: [ids.kampala] } } },
    });
  });
});
