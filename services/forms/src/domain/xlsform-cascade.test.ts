// XLSForm choice filters as cascading choices: the common cascades convert, with each choice tied to the choices of the
// filtering question its extra column names; anything else stays a loss at its row and column.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  addBlock,
  addChoice,
  addItem,
  checkResponse,
  formProblems,
  newSchemaBody,
  offeredChoices,
  updateItem,
  type Item,
  type SchemaBody,
} from '@fieldwork/sampler';
import { shape } from '../../test/form-shape.js';
import { convertUpload } from './workbook.js';
import { parseChoiceFilter } from './xlsform-cascade.js';
import { toXlsForm, xlsFormFile } from './xlsform-export.js';

async function xlsx(sheets: Record<string, string[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    rows.forEach((r, i) => r.forEach((v, j) => v !== '' && (ws.getCell(i + 1, j + 1).value = v)));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const convert = async (sheets: Record<string, string[][]>) =>
  (await convertUpload('xlsx', await xlsx(sheets), 'S')).converted;
const items = (body: SchemaBody) => Object.fromEntries(Object.values(body.entities.items).map((i) => [i.codeName, i]));
/** The choices of `item` offered when `parent` is answered with its choice named `answer`, by name. */
const offered = (body: SchemaBody, item: Item, parent: Item, answer: string) => {
  const id = parent.options.choices!.find((c) => body.entities.choices[c]!.codeName === answer)!;
  return offeredChoices(body, item, { [parent.id]: id }).map((c) => body.entities.choices[c]!.codeName);
};

const CHOICES = [
  ['list_name', 'name', 'label', 'country', 'countries'],
  ['country', 'ke', 'Kenya', '', ''],
  ['country', 'ug', 'Uganda', '', ''],
  ['region', 'nairobi', 'Nairobi', 'ke', ''],
  ['region', 'mombasa', 'Mombasa', 'ke', ''],
  ['region', 'kampala', 'Kampala', 'ug', ''],
  ['region', 'atlantis', 'Atlantis', 'xx', ''],
  ['border', 'busia', 'Busia', '', 'ke ug'],
  ['border', 'lamu', 'Lamu', '', 'ke'],
];
const survey = (...rows: string[][]) => [
  ['type', 'name', 'label', 'choice_filter'],
  ['select_one country', 'country', 'Country', ''],
  ...rows,
];

describe(parseChoiceFilter.name, () => {
  it('reads the common cascades, with spaces, quotes and parentheses', () => {
    const one = { column: 'country', question: 'q', many: false };
    for (const t of [
      'country=${q}',
      ' country = ${q} ',
      "country='${q}'",
      'country="${q}"',
      '${q}=country',
      "'${q}' = country",
      'selected(${q}, country)',
      'selected( ${q},country )',
      '(country=${q})',
      'Country=${ q }',
    ])
      expect(parseChoiceFilter(t), t).toEqual(one);
    expect(parseChoiceFilter('selected(country, ${q})')).toEqual({ ...one, many: true });
  });

  it('leaves every other filter unread', () => {
    for (const t of [
      "country='ke'",
      'country=${q} and region=${r}',
      'country!=${q}',
      "country='${q}",
      '${q}=${r}',
      'starts-with(country, ${q})',
      'country=${q})',
    ])
      expect(parseChoiceFilter(t), t).toBeUndefined();
  });
});

describe('choice_filter import', () => {
  it('ties each choice to the filtering question choices its column names, and reads the column as used', async () => {
    const c = await convert({
      survey: survey(['select_one region', 'region', 'Region', 'country=${country}']),
      choices: CHOICES,
    });
    const i = items(c.body);
    expect(i.region!.options.choiceFilter?.itemId).toBe(i.country!.id);
    expect(offered(c.body, i.region!, i.country!, 'ke')).toEqual(['nairobi', 'mombasa']);
    expect(offered(c.body, i.region!, i.country!, 'ug')).toEqual(['kampala']);
    expect(offeredChoices(c.body, i.region!, {})).toEqual([]);
    expect(formProblems(c.body)).toEqual([]);
    // The column read by the filter is no loss; the unused one still is.
    expect(c.notes.map((n) => `${n.sheet} ${n.row} ${n.column}`)).toEqual(['choices 1 countries']);
    // The converted form refuses an answer the cascade does not offer.
    const kampala = i.region!.options.choices!.find((id) => c.body.entities.choices[id]!.codeName === 'kampala')!;
    const ke = i.country!.options.choices![0]!;
    expect(
      Object.keys(
        checkResponse(c.body, { '0': { [i.country!.id]: ke, [i.region!.id]: kampala } }, { schemaId: 1, lenient: true })
          .problems,
      ),
    ).toEqual([`0.${i.region!.id}`]);
  });

  it('converts ${q}=col and selected(${q}, col) alike, and selected(col, ${q}) as a list of names', async () => {
    const c = await convert({
      survey: survey(
        ['select_one region', 'r1', 'R1', '${country} = country'],
        ['select_multiple region', 'r2', 'R2', 'selected(${country}, country)'],
        ['select_one border', 'b', 'B', 'selected(countries, ${country})'],
      ),
      choices: CHOICES,
    });
    const i = items(c.body);
    expect(offered(c.body, i.r1!, i.country!, 'ug')).toEqual(['kampala']);
    expect(offered(c.body, i.r2!, i.country!, 'ke')).toEqual(['nairobi', 'mombasa']);
    expect(offered(c.body, i.b!, i.country!, 'ke')).toEqual(['busia', 'lamu']);
    expect(offered(c.body, i.b!, i.country!, 'ug')).toEqual(['busia']);
    expect(c.notes).toEqual([]);
  });

  it('reports what it cannot convert at its row and column: other filters, later, multiple or unknown questions, missing columns', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'choice_filter'],
        ['select_one region', 'early', 'Early', 'country=${country}'],
        ['select_multiple country', 'many', 'Many', ''],
        ['select_one country', 'country', 'Country', ''],
        ['select_one region', 'a', 'A', 'country=${many}'],
        ['select_one region', 'b', 'B', 'country=${nobody}'],
        ['select_one region', 'c', 'C', 'province=${country}'],
        ['select_one region', 'd', 'D', "country='ke'"],
        ['text', 'e', 'E', 'country=${country}'],
      ],
      choices: CHOICES,
    });
    const i = items(c.body);
    for (const code of ['early', 'a', 'b', 'c', 'd', 'e']) expect(i[code]!.options.choiceFilter, code).toBeUndefined();
    const filterNotes = c.notes.filter((n) => n.column === 'choice_filter');
    expect(filterNotes.map((n) => n.row)).toEqual([2, 5, 6, 7, 8, 9]);
    expect(filterNotes.map((n) => n.message)).toEqual([
      'The choice filter "country=${country}" is not converted: ${country} is not a question asked before this one; every choice is offered.',
      'The choice filter "country=${many}" is not converted: ${many} is not a select_one question; every choice is offered.',
      'The choice filter "country=${nobody}" is not converted: ${nobody} is not a question asked before this one; every choice is offered.',
      'The choice filter "province=${country}" is not converted: the choices sheet has no column "province"; every choice is offered.',
      `The choice filter "country='ke'" is not converted: it is not a choices column compared with an earlier select_one question (col=\${q}, \${q}=col or selected(\${q}, col)); every choice is offered.`,
      'The choice filter "country=${country}" is not converted: the question has no choices; every choice is offered.',
    ]);
    // No filter read the columns: both stay losses of the choices sheet.
    expect(c.notes.filter((n) => n.sheet === 'choices').map((n) => n.column)).toEqual(['country', 'countries']);
    expect(formProblems(c.body)).toEqual([]);
  });
});

describe('choice_filter export', () => {
  /** Country, then Region filtered by it (Mombasa offered for both countries when `shared`), then a plain question. */
  function form(shared: boolean) {
    const b = addBlock(newSchemaBody('S'), { en: 'Where' });
    const country = addItem(b.body, b.id, 'choice', 'en', 'Country');
    const ke = addChoice(country.body, country.id, 'en', 'Kenya', 'ke');
    const ug = addChoice(ke.body, country.id, 'en', 'Uganda', 'ug');
    const region = addItem(ug.body, b.id, 'choice', 'en', 'Region');
    const nairobi = addChoice(region.body, region.id, 'en', 'Nairobi', 'nairobi');
    const mombasa = addChoice(nairobi.body, region.id, 'en', 'Mombasa', 'mombasa');
    const nowhere = addChoice(mombasa.body, region.id, 'en', 'Nowhere', 'nowhere');
    const ties = { [nairobi.id]: [ke.id], [mombasa.id]: shared ? [ke.id, ug.id] : [ug.id] };
    const body = updateItem(nowhere.body, region.id, {
      options: { ...nowhere.body.entities.items[region.id]!.options, choiceFilter: { itemId: country.id, ties } },
    });
    return { body, country: body.entities.items[country.id]!, region: body.entities.items[region.id]! };
  }

  it('writes col=${q} and the column of the filter question choice names, and imports back the same cascade', async () => {
    const f = form(false);
    const { tables, notes } = toXlsForm(f.body, { title: 'Cascade' });
    expect(notes).toEqual([]);
    const header = tables.survey[0]!;
    const regionRow = tables.survey.find((r) => r[header.indexOf('name')] === f.region.codeName)!;
    expect(regionRow[header.indexOf('choice_filter')]).toBe(`${f.country.codeName}=\${${f.country.codeName}}`);
    const col = tables.choices[0]!.indexOf(f.country.codeName);
    expect(
      tables.choices
        .slice(1)
        .filter((r) => r[0] === regionRow[0]!.split(' ')[1])
        .map((r) => [r[1], r[col]]),
    ).toEqual([
      ['nairobi', 'ke'],
      ['mombasa', 'ug'],
      ['nowhere', ''],
    ]);
    const again = (await convertUpload('xlsx', (await xlsFormFile(f.body, { title: 'Cascade' })).content, 'S'))
      .converted;
    expect(again.notes).toEqual([]);
    expect(shape(again.body)).toEqual(shape(f.body));
  });

  it('writes selected(col, ${q}) when a choice is offered for several choices, and imports back the same cascade', async () => {
    const f = form(true);
    const { tables, notes } = toXlsForm(f.body, { title: 'Cascade' });
    expect(notes).toEqual([]);
    const header = tables.survey[0]!;
    expect(
      tables.survey.find((r) => r[header.indexOf('name')] === f.region.codeName)![header.indexOf('choice_filter')],
    ).toBe(`selected(${f.country.codeName}, \${${f.country.codeName}})`);
    expect(tables.choices.some((r) => r.includes('ke ug'))).toBe(true);
    const again = (await convertUpload('xlsx', (await xlsFormFile(f.body, { title: 'Cascade' })).content, 'S'))
      .converted;
    expect(again.notes).toEqual([]);
    expect(shape(again.body)).toEqual(shape(f.body));
    const region = items(again.body)[f.region.codeName]!;
    expect(offered(again.body, region, items(again.body)[f.country.codeName]!, 'ug')).toEqual(['mombasa']);
  });
});
