import { describe, expect, it } from 'vitest';
import {
  addBlock,
  addChoice,
  addItem,
  changeItemType,
  deleteChoice,
  duplicateItem,
  moveEntity,
  updateItem,
} from './builder.js';
import { ANSWER_MESSAGES, checkResponse } from './answers.js';
import { CHOICE_FILTER_MESSAGES, offeredChoices, withoutUnoffered } from './cascade.js';
import { formProblems } from './form-rules.js';
import { newSchemaBody, type ChoiceFilter, type SchemaBody } from './schema.js';

const SCHEMA = 3;

/** Country (Kenya, Uganda) then Region (Nairobi, Mombasa under Kenya; Kampala under Uganda; Nowhere tied to nothing). */
function cascade() {
  let body: SchemaBody = newSchemaBody('S');
  const b = addBlock(body, { en: 'Where' });
  const country = addItem(b.body, b.id, 'choice', 'en', 'Country');
  const kenya = addChoice(country.body, country.id, 'en', 'Kenya');
  const uganda = addChoice(kenya.body, country.id, 'en', 'Uganda');
  const region = addItem(uganda.body, b.id, 'choice', 'en', 'Region');
  const nairobi = addChoice(region.body, region.id, 'en', 'Nairobi');
  const mombasa = addChoice(nairobi.body, region.id, 'en', 'Mombasa');
  const kampala = addChoice(mombasa.body, region.id, 'en', 'Kampala');
  const nowhere = addChoice(kampala.body, region.id, 'en', 'Nowhere');
  const filter: ChoiceFilter = {
    itemId: country.id,
    ties: { [nairobi.id]: [kenya.id], [mombasa.id]: [kenya.id, uganda.id], [kampala.id]: [uganda.id] },
  };
  body = updateItem(nowhere.body, region.id, {
    options: { ...nowhere.body.entities.items[region.id]!.options, choiceFilter: filter },
  });
  return {
    body,
    block: b.id,
    country: country.id,
    region: region.id,
    kenya: kenya.id,
    uganda: uganda.id,
    nairobi: nairobi.id,
    mombasa: mombasa.id,
    kampala: kampala.id,
    nowhere: nowhere.id,
  };
}
const problems = (body: SchemaBody) =>
  formProblems(body).map((p) => `${p.entity.type} ${p.entity.id} ${p.field}: ${p.message}`);
const withFilter = (body: SchemaBody, id: number, filter: ChoiceFilter | undefined) =>
  updateItem(body, id, { options: { ...body.entities.items[id]!.options, choiceFilter: filter } });

describe(offeredChoices.name, () => {
  it('offers the choices tied to the filter question answer, none without an answer, every choice without a filter', () => {
    const f = cascade();
    const region = f.body.entities.items[f.region]!;
    expect(offeredChoices(f.body, region, { [f.country]: f.kenya })).toEqual([f.nairobi, f.mombasa]);
    expect(offeredChoices(f.body, region, { [f.country]: [f.uganda] })).toEqual([f.mombasa, f.kampala]);
    expect(offeredChoices(f.body, region, {})).toEqual([]);
    expect(offeredChoices(f.body, region, { [f.country]: '' })).toEqual([]);
    const plain = withFilter(f.body, f.region, undefined);
    expect(offeredChoices(plain, plain.entities.items[f.region]!, {})).toEqual([
      f.nairobi,
      f.mombasa,
      f.kampala,
      f.nowhere,
    ]);
  });
});

describe('choice filter form rules', () => {
  it('accepts a filter by an earlier single choice question', () => expect(problems(cascade().body)).toEqual([]));

  it('refuses a filter question that is not in the form, or deleted', () => {
    const f = cascade();
    expect(problems(withFilter(f.body, f.region, { itemId: 999, ties: {} }))).toEqual([
      `item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.unknown}`,
    ]);
    // A filter saved by hand, malformed: refused rather than read.
    expect(problems(withFilter(f.body, f.region, 'country' as unknown as ChoiceFilter))).toEqual([
      `item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.unknown}`,
    ]);
    expect(
      problems(withFilter(f.body, f.region, { itemId: f.country, ties: [] as unknown as ChoiceFilter['ties'] })),
    ).toEqual([`item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.unknownChoice}`]);
    expect(
      problems(withFilter(f.body, f.region, { itemId: f.country, ties: { [f.nairobi]: 'x' as unknown as number[] } })),
    ).toEqual([`item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.unknownChoice}`]);
  });

  it('refuses a filter question that is multiselect or not a choice question', () => {
    const f = cascade();
    const multi = updateItem(f.body, f.country, {
      options: { ...f.body.entities.items[f.country]!.options, multiselect: true },
    });
    expect(problems(multi)).toEqual([`item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.notSingle}`]);
    const n = addItem(f.body, f.block, 'number', 'en', 'Count');
    const moved = moveEntity(n.body, { type: 'item', id: n.id }, f.block, 0);
    expect(problems(withFilter(moved, f.region, { itemId: n.id, ties: {} }))).toEqual([
      `item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.notSingle}`,
    ]);
  });

  it('refuses a filter question asked after the question, or the question itself', () => {
    const f = cascade();
    const after = moveEntity(f.body, { type: 'item', id: f.country }, f.block, 1);
    expect(problems(after)).toEqual([`item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.notBefore}`]);
    expect(problems(withFilter(f.body, f.region, { itemId: f.region, ties: {} }))).toEqual([
      `item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.notBefore}`,
    ]);
  });

  it('refuses ties to choices the filter question does not have, or from choices the question does not have', () => {
    const f = cascade();
    expect(problems(withFilter(f.body, f.region, { itemId: f.country, ties: { [f.nairobi]: [f.kampala] } }))).toEqual([
      `item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.unknownChoice}`,
    ]);
    expect(problems(withFilter(f.body, f.region, { itemId: f.country, ties: { [f.kenya]: [f.kenya] } }))).toEqual([
      `item ${f.region} choiceFilter: ${CHOICE_FILTER_MESSAGES.notOwnChoice}`,
    ]);
  });

  it('unties a deleted choice on both sides, so deleting a choice never breaks a filter', () => {
    const f = cascade();
    const body = deleteChoice(deleteChoice(f.body, f.country, f.uganda), f.region, f.nairobi);
    expect(problems(body)).toEqual([]);
    expect(body.entities.items[f.region]!.options.choiceFilter!.ties).toEqual({
      [f.mombasa]: [f.kenya],
      [f.kampala]: [],
    });
  });

  it('unties the choices of a question whose type changes, and ties a duplicate as its original', () => {
    const f = cascade();
    const retyped = changeItemType(f.body, f.country, 'choice', 'en');
    expect(retyped.entities.items[f.region]!.options.choiceFilter!.ties).toEqual({
      [f.nairobi]: [],
      [f.mombasa]: [],
      [f.kampala]: [],
    });
    const copy = duplicateItem(f.body, f.region);
    expect(problems(copy.body)).toEqual([]);
    const copied = copy.body.entities.items[copy.id]!;
    expect(
      offeredChoices(copy.body, copied, { [f.country]: f.uganda }).map((c) => copy.body.entities.choices[c]!.codeName),
    ).toEqual(['mombasa', 'kampala']);
  });
});

describe('checkResponse with cascading choices', () => {
  const check = (body: SchemaBody, answers: Record<string, unknown>, lenient = true) =>
    checkResponse(body, { '0': answers }, { schemaId: SCHEMA, lenient });

  it('takes a choice offered by the filter question answer', () => {
    const f = cascade();
    const c = check(f.body, { [f.country]: f.kenya, [f.region]: f.mombasa });
    expect(c.problems).toEqual({});
    expect(c.data['0']).toEqual({ [f.country]: f.kenya, [f.region]: f.mombasa });
  });

  it('refuses a choice not offered for the filter question answer, at the question', () => {
    const f = cascade();
    expect(check(f.body, { [f.country]: f.kenya, [f.region]: f.kampala }).problems).toEqual({
      [`0.${f.region}`]: ANSWER_MESSAGES.notOffered('Country'),
    });
    expect(check(f.body, { [f.country]: f.uganda, [f.region]: f.nowhere }).problems).toEqual({
      [`0.${f.region}`]: ANSWER_MESSAGES.notOffered('Country'),
    });
  });

  it('refuses any choice while the filter question is unanswered', () => {
    const f = cascade();
    expect(check(f.body, { [f.region]: f.nairobi }).problems).toEqual({
      [`0.${f.region}`]: ANSWER_MESSAGES.filterUnanswered('Country'),
    });
  });

  it('reads the filter question from the first repeat for a later repeat', () => {
    const f = cascade();
    const c = checkResponse(
      f.body,
      { '0': { [f.country]: f.uganda }, '1': { [f.region]: f.kampala }, '2': { [f.region]: f.nairobi } },
      { schemaId: SCHEMA, lenient: true },
    );
    expect(c.problems).toEqual({ [`2.${f.region}`]: ANSWER_MESSAGES.notOffered('Country') });
  });

  it('leaves a form without a filter as it was: every choice fits', () => {
    const f = cascade();
    const plain = withFilter(f.body, f.region, undefined);
    expect(check(plain, { [f.region]: f.nowhere }).problems).toEqual({});
    expect(check(plain, { [f.country]: f.kenya, [f.region]: f.kampala }).problems).toEqual({});
  });
});

describe(withoutUnoffered.name, () => {
  it('clears a child answer its parent no longer offers, down the chain, and keeps the offered ones', () => {
    const f = cascade();
    // A third level: Area under Region (Westlands under Nairobi, Old Town under Mombasa).
    const area = addItem(f.body, f.block, 'choice', 'en', 'Area');
    const westlands = addChoice(area.body, area.id, 'en', 'Westlands');
    const oldTown = addChoice(westlands.body, area.id, 'en', 'Old Town');
    const body = withFilter(oldTown.body, area.id, {
      itemId: f.region,
      ties: { [westlands.id]: [f.nairobi], [oldTown.id]: [f.mombasa] },
    });
    const answers = { [f.country]: [f.kenya], [f.region]: [f.nairobi], [area.id]: [westlands.id] };
    expect(withoutUnoffered(body, answers)).toBe(answers);
    expect(withoutUnoffered(body, { ...answers, [f.country]: [f.uganda] })).toEqual({
      [f.country]: [f.uganda],
      [f.region]: [],
      [area.id]: [],
    });
    // Mombasa is offered under both countries: kept, and so is its area.
    const mombasa = { [f.country]: [f.kenya], [f.region]: [f.mombasa], [area.id]: [oldTown.id] };
    expect(withoutUnoffered(body, { ...mombasa, [f.country]: [f.uganda] })).toEqual({
      ...mombasa,
      [f.country]: [f.uganda],
    });
    expect(withoutUnoffered(body, { [f.region]: f.kampala })).toEqual({ [f.region]: null });
  });

  it('keeps the offered choices of a multiselect answer', () => {
    const f = cascade();
    const multi = updateItem(f.body, f.region, {
      options: { ...f.body.entities.items[f.region]!.options, multiselect: true },
    });
    expect(withoutUnoffered(multi, { [f.country]: [f.uganda], [f.region]: [f.nairobi, f.mombasa] })).toEqual({
      [f.country]: [f.uganda],
      [f.region]: [f.mombasa],
    });
  });
});
