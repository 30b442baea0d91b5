// The XLSForm converter on small workbooks written here, one behaviour of issue 23 each; and the refusals.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { formProblems, type Block, type SchemaBody } from '@fieldwork/sampler';
import { ConversionRefused } from './convert.js';
import { convertUpload, REFUSALS, uploadKind } from './workbook.js';
import { levelSchemaPlaceholder } from './xlsform.js';
import { documentProblems } from './document.js';

type Cell = string | number | ExcelJS.CellRichTextValue | null;
async function xlsx(sheets: Record<string, Cell[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    rows.forEach((r, i) => r.forEach((v, j) => v !== null && (ws.getCell(i + 1, j + 1).value = v)));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const convert = async (sheets: Record<string, Cell[][]>) =>
  (await convertUpload('xlsx', await xlsx(sheets), 'S')).converted;
const items = (body: SchemaBody) => Object.fromEntries(Object.values(body.entities.items).map((i) => [i.codeName, i]));
const parentOf = (body: SchemaBody, type: 'item' | 'block', id: number): Block | undefined =>
  Object.values(body.entities.blocks).find((b) => b.entities.some((e) => e.type === type && e.id === id));

describe('fromXlsForm', () => {
  it('matches each end to its begin, whatever its spelling, named or not', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label'],
        ['begin group', 'outer', 'Outer'],
        ['begin_group', 'inner', 'Inner'],
        ['text', 'a', 'A'],
        ['end_group', '', ''],
        ['text', 'b', 'B'],
        ['begin group', 'third', 'Third'],
        ['text', 'c', 'C'],
        ['end group', 'third', ''],
        ['end group', '', ''],
        ['text', 'd', 'D'],
      ],
    });
    const b = c.body;
    const i = items(b);
    expect(parentOf(b, 'item', i.a!.id)!.name).toEqual({ en: 'Inner' });
    expect(parentOf(b, 'item', i.b!.id)!.name).toEqual({ en: 'Outer' });
    expect(parentOf(b, 'item', i.c!.id)!.name).toEqual({ en: 'Third' });
    expect(parentOf(b, 'block', parentOf(b, 'item', i.c!.id)!.id)!.name).toEqual({ en: 'Outer' });
    expect(b.form).toHaveLength(2);
    expect(c.notes).toEqual([]);
    expect(c.summary).toBe('Imported 4 questions with no losses.');
  });

  it('reads languages, hints, choice translations, rich text, required spellings and legacy column names', async () => {
    const rich: ExcelJS.CellRichTextValue = {
      richText: [{ text: 'How ' }, { font: { bold: true }, text: 'old' }, { text: '?' }],
    };
    const c = await convert({
      survey: [
        [
          'TYPE',
          'Name',
          'Label::English (en)',
          'label:Chinese',
          'hint::English (en)',
          'hint:Chinese',
          'Required',
          'required_message',
        ],
        ['integer', 'age', rich, '年龄', 'In years', '岁', 'true()', 'Please answer'],
        ['select_one yn', 'ok', 'OK?', '好吗', '', '', 'yes', ''],
        ['text', 'why', 'Why?', '为什么', '', '', 'no', ''],
      ],
      choices: [
        ['list name', 'label::English (en)', 'label:Chinese', 'value'],
        ['yn', 'Yes', '是', 'y'],
        ['yn', 'No', '否', 'n'],
      ],
    });
    const b = c.body;
    const i = items(b);
    expect(Object.values(b.entities.languages).map((l) => l.iso_code_1)).toEqual(['en', 'zh']);
    expect(i.age).toMatchObject({
      type: 'number',
      name: { en: 'How old?', zh: '年龄' },
      options: { isRequiredQuestion: true },
    });
    expect(i.age_hint).toMatchObject({ type: 'instruction', instruction: { en: 'In years', zh: '岁' } });
    expect(parentOf(b, 'item', i.age!.id)!.entities.slice(0, 2)).toEqual([
      { type: 'item', id: i.age_hint!.id },
      { type: 'item', id: i.age!.id },
    ]);
    expect(i.ok!.options.isRequiredQuestion).toBe(true);
    expect(i.why!.options.isRequiredQuestion).toBe(false);
    expect(i.ok!.options.choices!.map((id) => b.entities.choices[id])).toMatchObject([
      { codeName: 'y', name: { en: 'Yes', zh: '是' } },
      { codeName: 'n', name: { en: 'No', zh: '否' } },
    ]);
    expect(Object.keys(i)).not.toContain('label:chinese');
    expect(c.notes).toEqual([
      {
        sheet: 'survey',
        row: 2,
        column: 'required_message',
        message: 'The required message has no equivalent; the standard message is shown.',
      },
    ]);
  });

  it('numbers rows as the spreadsheet does, blank rows counted, and names the column of each loss', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'constraint', 'choice_filter', 'default', 'appearance'],
        ['start', 'start', '', '', '', '', ''],
        ['end', 'end', '', '', '', '', ''],
        [],
        [],
        ['text', 'name', 'Name', ". != 'x'", '', 'Bob', ''],
        [],
        ['select_one building:material', 'material', 'Material', '', "kind = 'a'", '', 'minimal'],
      ],
      choices: [
        ['list_name', 'name', 'label'],
        ['building:material', 'brick', 'Brick'],
        ['building:material', 'wood', 'Wood'],
      ],
    });
    expect(c.notes.map((n) => [n.row, n.column])).toEqual([
      [2, 'type'],
      [3, 'type'],
      [6, 'constraint'],
      [6, 'default'],
      [8, 'appearance'],
      [8, 'choice_filter'],
    ]);
    expect(c.notes[1]!.message).toContain('The metadata "end" is not a question');
    expect(items(c.body).material!.options.choices).toHaveLength(2);
    expect(c.summary).toBe('Imported 2 questions with 6 losses.');
  });

  it('turns constraints into rules where they are expressible, with the constraint message on a pattern', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'constraint', 'constraint_message'],
        ['integer', 'age', 'Age', '. >= 18 and . < 100', 'Adults only'],
        ['decimal', 'kg', 'Weight', '.>0', ''],
        ['text', 'phone', 'Phone', "regex(., '^[0-9]{10}$')", 'Ten digits'],
        ['text', 'code', 'Code', 'string-length(.) <= 8', ''],
        ['select_multiple yn', 'pick', 'Pick', 'count-selected(.) <= 1', ''],
      ],
      choices: [
        ['list_name', 'name', 'label'],
        ['yn', 'y', 'Yes'],
        ['yn', 'n', 'No'],
      ],
    });
    const i = items(c.body);
    expect(i.age!.options).toMatchObject({
      minimum: { active: true, value: 18 },
      maximum: { active: true, value: 99 },
      allowDecimal: false,
    });
    expect(i.phone!.options.pattern).toEqual({ active: true, value: '^[0-9]{10}$', message: { en: 'Ten digits' } });
    expect(i.code!.options.maxLength).toEqual({ active: true, value: 8 });
    expect(i.pick!.options).toMatchObject({ multiselect: true, maxChoices: { active: true, value: 1 } });
    expect(c.notes.map((n) => [n.row, n.column, n.message])).toEqual([
      [
        2,
        'constraint_message',
        'The constraint message has no equivalent for these rules; the standard messages are shown.',
      ],
      [
        3,
        'constraint',
        'The constraint ".>0" is not converted: a strict bound (> 0) on a decimal answer has no equivalent.',
      ],
    ]);
  });

  it('never makes a negative count from a constraint below 0 (found by the property test: "0 > count-selected(.)")', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'constraint'],
        ['select_multiple yn', 'none', 'None', '0 > count-selected(.)'],
        ['text', 'short', 'Short', 'string-length(.) <= -2'],
        ['select_multiple yn', 'any', 'Any', 'count-selected(.) >= -1 and count-selected(.) <= 1'],
      ],
      choices: [
        ['list_name', 'name', 'label'],
        ['yn', 'y', 'Yes'],
        ['yn', 'n', 'No'],
      ],
    });
    const i = items(c.body);
    expect(documentProblems(c.body)).toEqual({});
    expect(i.none!.options.maxChoices?.active ?? false).toBe(false);
    expect(i.short!.options.maxLength?.active ?? false).toBe(false);
    expect(i.any!.options.maxChoices).toEqual({ active: true, value: 1 });
    expect(i.any!.options.minChoices?.active ?? false).toBe(false);
    expect(c.notes.map((n) => [n.row, n.message])).toEqual([
      [
        2,
        'The constraint "0 > count-selected(.)" is not converted: a length or a choice count is never below 0 (< 0).',
      ],
      [
        3,
        'The constraint "string-length(.) <= -2" is not converted: a length or a choice count is never below 0 (<= -2).',
      ],
    ]);
  });

  it('does not convert a calculation that reads a question whose answers a formula cannot read (found by the property test)', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'calculation'],
        ['audio', 'age', 'Age'],
        ['calculate', 'a', '', '${age}'],
      ],
    });
    expect(items(c.body).a).toBeUndefined();
    expect(c.notes).toContainEqual(
      expect.objectContaining({
        row: 3,
        column: 'calculation',
        message: expect.stringContaining('${age} became a question of type image, whose answers a formula cannot read'),
      }),
    );
  });

  it('turns relevance into conditions, calculations into formulas of their own category, and or_other into a follow-up', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'relevant', 'calculation'],
        ['begin group', 'hh', 'Household', '', ''],
        ['integer', 'adults', 'Adults', '', ''],
        ['integer', 'kids', 'Children', '', ''],
        ['calculate', 'total', '', '', '${adults} + ${kids} * 2'],
        ['select_one fuel or_other', 'fuel', 'Fuel', '', ''],
        ['text', 'why', 'Why wood?', "${fuel} = 'wood' and ${adults} > 1", ''],
        ['text', 'more', 'More?', "${fuel} = 'wood' and ${adults} > 1", ''],
        ['end group', '', '', '', ''],
        ['calculate', 'across', '', '', '${adults} * 2'],
        ['text', 'odd', 'Odd', 'string-length(${why}) > 3', ''],
      ],
      choices: [
        ['list_name', 'name', 'label'],
        ['fuel', 'wood', 'Wood'],
        ['fuel', 'gas', 'Gas'],
      ],
    });
    const b = c.body;
    const i = items(b);
    const hh = parentOf(b, 'item', i.adults!.id)!;
    expect(i.total!.options).toMatchObject({
      formula: `Q${hh.id}_${i.adults!.id} + (Q${hh.id}_${i.kids!.id} * 2)`,
      showInForm: false,
    });
    const wrapper = parentOf(b, 'item', i.why!.id)!;
    expect(wrapper.entities).toEqual([
      { type: 'item', id: i.why!.id },
      { type: 'item', id: i.more!.id },
    ]);
    const wood = i.fuel!.options.choices![0]!;
    expect(wrapper.conditions).toEqual([
      { itemId: i.fuel!.id, schemaId: 0, condition: [wood], finalized: true },
      { operator: 'AND' },
      { itemId: i.adults!.id, schemaId: 0, condition: { $gt: 1 }, finalized: true },
    ]);
    const other = b.entities.choices[i.fuel!.options.choices![2]!]!;
    expect(other.codeName).toBe('other');
    expect(parentOf(b, 'item', i.fuel_other!.id)!.conditions).toEqual([
      { itemId: i.fuel!.id, schemaId: 0, condition: [other.id], finalized: true },
    ]);
    expect(i.across).toBeUndefined();
    expect(c.notes.map((n) => [n.row, n.column])).toEqual([
      [10, 'calculation'],
      [11, 'relevant'],
    ]);
    expect(c.notes[0]!.message).toContain('is in another category');
  });

  it('reports repeats, unknown types and unclosed groups, and caps deep nesting', async () => {
    const deep: Cell[][] = [['type', 'name', 'label']];
    for (let d = 0; d < 30; d++) deep.push(['begin group', `g${d}`, `G${d}`]);
    deep.push(['text', 'x', 'X'], ['begin repeat', 'kids', 'Kids'], ['teleport', 't', 'T'], ['end repeat', '', '']);
    const c = await convert({ survey: deep });
    const messages = c.notes.map((n) => n.message);
    // 30 groups and the repeat inside them: the 11 past the 20th level are flattened.
    expect(messages.filter((m) => m.includes('nested deeper than 20 levels'))).toHaveLength(11);
    expect(messages.filter((m) => m.includes('has no end'))).toHaveLength(30);
    expect(messages).toContain(
      'The repeat "kids" became a plain category, asked once: it is nested deeper than 20 groups.',
    );
    expect(c.levels).toBeUndefined();
    expect(messages).toContain('The type "teleport" is not an XLSForm type Fieldwork can convert; row skipped ("t").');
    expect(c.questions).toBe(1);
  });

  it('makes repeats levels of the hierarchy: nested repeats deeper levels, a sibling repeat a plain category', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'relevant', 'repeat_count', 'calculation'],
        ['text', 'hh_name', 'Household name', '', '', ''],
        ['integer', 'hh_size', 'People', '', '', ''],
        ['begin repeat', 'members', 'Members', '${hh_size} > 0', '${hh_size}', ''],
        ['text', 'm_name', 'Name', '', '', ''],
        ['integer', 'm_age', 'Age', '${hh_size} >= 1', '', ''],
        ['begin group', 'school', 'School', '${m_age} < 18', '', ''],
        ['select_one yn', 'in_school', 'In school?', '', '', ''],
        ['end group', '', '', '', '', ''],
        ['calculate', 'share', '', '', '', '${hh_size} * 2'],
        ['begin repeat', 'visits', 'Visits', '', '', ''],
        ['date', 'v_date', 'Date', '${hh_size} > 2', '', ''],
        ['integer', 'v_len', 'Minutes', '${m_age} > 1', '', ''],
        ['end repeat', '', '', '', '', ''],
        ['end repeat', '', '', '', '', ''],
        ['begin repeat', 'assets', 'Assets', '', '', ''],
        ['text', 'asset', 'Asset', '', '', ''],
        ['end repeat', '', '', '', '', ''],
        ['text', 'hh_end', 'Comment', '', '', ''],
      ],
      choices: [
        ['list_name', 'name', 'label'],
        ['yn', 'yes', 'Yes'],
        ['yn', 'no', 'No'],
      ],
    });
    const top = items(c.body);
    expect(Object.keys(top).sort()).toEqual(['asset', 'hh_end', 'hh_name', 'hh_size']);
    expect(parentOf(c.body, 'item', top.asset!.id)!.name).toEqual({ en: 'Assets' });
    expect(c.levels!.map((l) => [l.name, l.questions])).toEqual([
      ['Members', 3],
      ['Visits', 2],
    ]);
    const members = c.levels![0]!.body;
    const m = items(members);
    expect(Object.keys(m).sort()).toEqual(['in_school', 'm_age', 'm_name']);
    // Questions right in the repeat are a category named after it; its groups, categories of the level's form.
    expect(parentOf(members, 'item', m.m_name!.id)!.name).toEqual({ en: 'Members' });
    const school = parentOf(members, 'item', m.in_school!.id)!;
    expect(school.name).toEqual({ en: 'School' });
    // The repeat's relevance conditions each category of the level's form, on the parent level's answer
    // (levelSchemaPlaceholder(0): the import puts the first level's schema id there), with the category's own.
    const onParent = {
      itemId: top.hh_size!.id,
      schemaId: levelSchemaPlaceholder(0),
      condition: { $gt: 0 },
      finalized: true,
    };
    expect(school.conditions).toEqual([
      onParent,
      { operator: 'AND' },
      { itemId: m.m_age!.id, schemaId: 0, condition: { $lt: 18 }, finalized: true },
    ]);
    // Members (name, age), School, Members again (after the group: the calculation, not converted).
    expect(members.form).toHaveLength(3);
    for (const id of members.form) expect(members.entities.blocks[id]!.conditions[0]).toEqual(onParent);
    expect(members.entities.blocks[members.form[0]!]!.conditions).toEqual([onParent]);
    const ageBlock = parentOf(members, 'item', m.m_age!.id)!;
    expect(ageBlock.conditions).toEqual([
      { itemId: top.hh_size!.id, schemaId: -1, condition: { $gte: 1 }, finalized: true },
    ]);
    const visits = c.levels![1]!.body;
    const v = items(visits);
    expect(parentOf(visits, 'item', v.v_len!.id)!.conditions).toEqual([
      { itemId: m.m_age!.id, schemaId: levelSchemaPlaceholder(1), condition: { $gt: 1 }, finalized: true },
    ]);
    expect(formProblems(members)).toEqual([]);
    expect(formProblems(visits)).toEqual([]);
    expect(c.notes.map((n) => [n.row, n.column, n.message])).toEqual([
      [
        4,
        'repeat_count',
        'The repeat_count "${hh_size}" is not kept: the level "Members" holds as many records as are collected.',
      ],
      [
        10,
        'calculation',
        'The calculation "share" ("${hh_size} * 2") is not converted: ${hh_size} is in the form of the first level, and a formula uses questions of its own category only. Write it again in the builder.',
      ],
      [
        12,
        'relevant',
        'The relevance "${hh_size} > 2" is not converted: ${hh_size} is in the form of the first level, and a condition uses answers of its own form and of its parent level\'s only. The question is always shown.',
      ],
      [
        16,
        'type',
        'The repeat "assets" became a plain category, asked once: a project\'s hierarchy has one form per level, and the level below the first one is already the repeat "members" (row 4).',
      ],
    ]);
    expect(c.questions).toBe(4 + 3 + 2);
    expect(c.summary).toBe('Imported 9 questions with 4 losses.');
  });

  it("gives a level the relevance of the groups around its repeat, joined with its categories' own", async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label', 'relevant'],
        ['select_one yn', 'has', 'Anyone?', ''],
        ['integer', 'n', 'How many?', ''],
        ['begin group', 'g', 'People', "${has} = 'yes'"],
        ['begin repeat', 'p', '', ''],
        ['begin group', 'kid', 'Child', '${age} < 5 or ${age} > 70'],
        ['integer', 'age', 'Age', '${n} > 0'],
        ['end group', '', '', ''],
        ['end repeat', '', '', ''],
        ['end group', '', '', ''],
      ],
      choices: [
        ['list_name', 'name', 'label'],
        ['yn', 'yes', 'Yes'],
        ['yn', 'no', 'No'],
      ],
    });
    const top = items(c.body);
    // A repeat without a label is named by its name.
    expect(c.levels!.map((l) => l.name)).toEqual(['p']);
    const form = c.levels![0]!.body;
    const yes = top.has!.options.choices![0]!;
    const parent = { itemId: top.has!.id, schemaId: levelSchemaPlaceholder(0), condition: [yes], finalized: true };
    const age = items(form).age!;
    const kid = form.entities.blocks[form.form[0]!]!;
    expect(kid.name).toEqual({ en: 'Child' });
    // has = yes AND (age < 5 OR age > 70): the OR multiplied out.
    expect(kid.conditions).toEqual([
      parent,
      { operator: 'AND' },
      { itemId: age.id, schemaId: 0, condition: { $lt: 5 }, finalized: true },
      { operator: 'OR' },
      parent,
      { operator: 'AND' },
      { itemId: age.id, schemaId: 0, condition: { $gt: 70 }, finalized: true },
    ]);
    // The question's own relevance on the parent level's answer.
    expect(parentOf(form, 'item', age.id)!.conditions).toEqual([
      { itemId: top.n!.id, schemaId: levelSchemaPlaceholder(0), condition: { $gt: 0 }, finalized: true },
    ]);
    expect(c.notes).toEqual([]);
  });

  it('keeps a form without repeats to one level, as before', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label'],
        ['begin group', 'g', 'G'],
        ['text', 'a', 'A'],
        ['end group', '', ''],
      ],
    });
    expect(c.levels).toBeUndefined();
    expect('levels' in c).toBe(false);
  });

  it('keeps the settings it can: form_title as the name, default_language as the primary language', async () => {
    const c = await convert({
      survey: [
        ['type', 'name', 'label::English (en)', 'label::Français (fr)'],
        ['text', 'q', 'Q', 'Q fr'],
      ],
      settings: [
        ['form_title', 'form_id', 'version', 'default_language'],
        ['Census', 'census', '2024', 'Français (fr)'],
      ],
    });
    expect(c.name).toBe('Census');
    expect(c.body.primary_language).toBe('fr');
    expect(c.notes.map((n) => [n.sheet, n.row, n.column])).toEqual([
      ['settings', 2, 'form_id'],
      ['settings', 2, 'version'],
    ]);
  });
});

describe('uploads that are not forms', () => {
  const refused = async (filename: string, content: Buffer) => {
    try {
      await convertUpload(uploadKind(filename, content), content, 'S');
    } catch (err) {
      expect(err).toBeInstanceOf(ConversionRefused);
      return (err as Error).message;
    }
    throw new Error('not refused');
  };

  it('refuses legacy .xls, CSV and plain zips named .xlsx, workbooks without a form, and forms without questions', async () => {
    expect(await refused('form.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBe(
      REFUSALS.legacyXls,
    );
    expect(await refused('form.xlsx', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBe(
      REFUSALS.legacyXls,
    );
    expect(await refused('form.xlsx', Buffer.from('type,name,label\ntext,a,A\n'))).toBe(REFUSALS.notXlsx);
    // A zip holding one text file: the start of a zip, not a workbook.
    const zip = Buffer.from(
      'UEsDBAoAAAAAAAAAIQAAAAAAAAAAAAAAAAAFAAAAYS50eHRQSwECFAAKAAAAAAAAACEAAAAAAAAAAAAAAAAABQAAAAAAAAAAAAAAAAAAAAAAYS50eHRQSwUGAAAAAAEAAQAzAAAAIwAAAAAA',
      'base64',
    );
    expect(await refused('form.xlsx', zip)).toBe(REFUSALS.noWorksheets);
    expect(
      await refused(
        'form.xlsx',
        await xlsx({
          Data: [
            ['id', 'value'],
            ['1', '2'],
          ],
        }),
      ),
    ).toBe(REFUSALS.noForm('Data'));
    expect(
      await refused(
        'form.xlsx',
        await xlsx({
          survey: [
            ['name', 'label'],
            ['a', 'A'],
          ],
        }),
      ),
    ).toBe(REFUSALS.noType('survey'));
    expect(
      await refused(
        'form.xlsx',
        await xlsx({
          survey: [
            ['type', 'name', 'label'],
            ['start', 'start', ''],
            ['note', 'n', 'Hello'],
          ],
        }),
      ),
    ).toBe(REFUSALS.noQuestions('survey', 'XLSForm'));
  });
});
