import { describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, filterModel, newSchemaBody } from '@fieldwork/sampler';
import { FILTER_MESSAGES, filterProblems, namesQuestions, namesSites } from './filter-check.js';

function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const fuel = addItem(b.body, b.id, 'choice', 'en', 'Fuel');
  const wood = addChoice(fuel.body, fuel.id, 'en', 'Wood');
  const visit = addItem(wood.body, b.id, 'date', 'en', 'Visit');
  return { body: visit.body, ids: { fuel: fuel.id, wood: wood.id, visit: visit.id } };
}

describe(filterProblems.name, () => {
  const { body, ids } = form();
  const check = (f: object, sites: number[] | null = null) =>
    filterProblems(filterModel.parse(f), [body], sites ? new Set(sites) : null);

  it('accepts a filter naming questions, choices and sites that exist, and an empty range', () => {
    expect(
      check(
        {
          site: [3],
          filters: [{ question: ids.fuel, operator: 'in', value: [ids.wood] }],
          date_ranges: [{ entity: ids.visit, startDateTime: 1, endDateTime: 1 }],
        },
        [3, 4],
      ),
    ).toEqual({});
  });

  it('names an unknown question, an unknown choice, a question that is not a date, a site of another project', () => {
    expect(
      check(
        {
          site: [9],
          filters: [
            { question: 424242, value: 1 },
            { question: ids.fuel, value: [ids.wood, 77] },
          ],
          date_ranges: [{ entity: ids.fuel }],
        },
        [3],
      ),
    ).toEqual({
      filters: [FILTER_MESSAGES.question(424242), FILTER_MESSAGES.choice(77, ids.fuel)],
      date_ranges: [FILTER_MESSAGES.notDate(ids.fuel)],
      site: ['Site 9 is not a site of this project.'],
    });
  });

  it('refuses a date range that starts after it ends, once', () => {
    const inverted = { startDateTime: 20, endDateTime: 10 };
    expect(check({ date_ranges: [inverted, inverted] })).toEqual({
      date_ranges: ['The start of a date range must not be after its end.'],
    });
  });

  it('asks for the forms and the sites only when the filter names them', () => {
    expect([namesQuestions(filterModel.parse({})), namesSites(filterModel.parse({ site: -1 }))]).toEqual([
      false,
      false,
    ]);
    expect(namesQuestions(filterModel.parse({ date_ranges: [{ entity: 5 }] }))).toBe(true);
    expect(namesSites(filterModel.parse({ site: [2] }))).toBe(true);
  });
});
