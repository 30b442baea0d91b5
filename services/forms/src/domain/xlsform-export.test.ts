// The XLSForm writer on a small form built here, with the rows it must write spelled out by hand; and its notes.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Block, Item } from '@fieldwork/sampler';
import { SchemaWriter } from './schema-writer.js';
import { convertUpload } from './workbook.js';
import { toXlsForm, xlsFormFile } from './xlsform-export.js';
import { formulaToXPath } from './xlsform-export-expr.js';
import { shape } from '../../test/form-shape.js';

/** Household survey in English and French: groups, a hint, or_other, conditions, a formula, rules. */
function household() {
  const w = new SchemaWriter('S', { iso_code_1: 'en', name: 'English' });
  w.addLanguage('fr', 'Français');
  const home = w.addBlock({ en: 'Household', fr: 'Ménage' });
  const hint = w.addItem(
    'instruction',
    { en: 'Everyone who slept here', fr: 'Tous ceux qui ont dormi ici' },
    'size_hint',
  );
  hint.instruction = { ...hint.name };
  w.place(hint, home);
  const size = w.addItem('number', { en: 'How many people?', fr: 'Combien de personnes ?' }, 'size');
  size.options = {
    ...size.options,
    isRequiredQuestion: true,
    allowDecimal: false,
    minimum: { active: true, value: 1 },
    maximum: { active: true, value: 30 },
  };
  w.place(size, home);
  const water = w.addItem('choice', { en: 'Water source', fr: "Source d'eau" }, 'water');
  w.place(water, home);
  const tap = w.addChoice(water, { en: 'Tap', fr: 'Robinet' }, 'tap');
  w.addChoice(water, { en: 'Well', fr: 'Puits' }, 'well');
  const other = w.addChoice(water, { en: 'Other' }, 'other');
  const specifyBlock = w.addBlock({}, home);
  specifyBlock.conditions = [{ itemId: water.id, schemaId: 0, condition: [other.id], finalized: true }];
  const specify = w.addItem('open', { en: 'Specify other.' }, 'water_other');
  w.place(specify, specifyBlock);
  // The questions after "water" asked only when it is not the tap, or when more than 5 live here.
  const wrapper = w.addBlock({}, home);
  wrapper.conditions = [
    { operator: 'NOT' },
    { itemId: water.id, schemaId: 0, condition: [tap.id], finalized: true },
    { operator: 'OR' },
    { itemId: size.id, schemaId: 0, condition: { $gt: 5 }, finalized: true },
  ];
  const walk = w.addItem('number', { en: 'Minutes to walk', fr: 'Minutes de marche' }, 'walk');
  walk.options = {
    ...walk.options,
    allowDecimal: true,
    minimum: { active: false, value: 0 },
    maximum: { active: true, value: 120.5 },
  };
  w.place(walk, wrapper);
  const members = w.addBlock({ en: 'Members', fr: 'Membres' }, home);
  members.conditions = [{ itemId: size.id, schemaId: 0, condition: { $gte: 2, $lte: 2 }, finalized: true }];
  const phone = w.addItem('open', { en: 'Phone', fr: 'Téléphone' }, 'phone');
  phone.options = {
    ...phone.options,
    maxLength: { active: true, value: 12 },
    pattern: { active: true, value: '^\\+?[0-9 ]+$', message: { en: 'Digits only', fr: 'Chiffres seulement' } },
  };
  w.place(phone, members);
  const assets = w.addItem('choice', { en: 'Assets', fr: 'Biens' }, 'assets');
  assets.options = { ...assets.options, multiselect: true, maxChoices: { active: true, value: 2 } };
  w.addChoice(assets, { en: 'Radio', fr: 'Radio' }, 'radio');
  w.addChoice(assets, { en: 'Bike', fr: 'Vélo' }, 'bike');
  w.place(assets, members);
  const per = w.addItem('calculated', { en: 'per' }, 'per');
  per.options.formula = `ROUND(Q${home.id}_${size.id} / 3, 1)`;
  w.place(per, home);
  const end = w.addBlock({ en: 'End' });
  const signed = w.addItem('signature', { en: 'Signature' }, 'signed');
  w.place(signed, end);
  const consent = w.addItem('binary', { en: 'Consent' }, 'consent');
  w.addChoice(consent, { en: 'Yes' }, 'yes');
  w.addChoice(consent, { en: 'No' }, 'no');
  w.place(consent, end);
  return { body: w.body, ids: { home, size, walk, per, wrapper: wrapper as Block, specify: specify as Item } };
}

describe('toXlsForm', () => {
  it('writes the survey, choices and settings sheets an XLSForm user would write by hand', () => {
    const { tables, notes } = toXlsForm(household().body, { title: 'Household survey' });
    expect(tables.survey).toEqual([
      [
        'type',
        'name',
        'label::English (en)',
        'label::Français (fr)',
        'hint::English (en)',
        'hint::Français (fr)',
        'required',
        'relevant',
        'constraint',
        'constraint_message::English (en)',
        'constraint_message::Français (fr)',
        'calculation',
        'appearance',
      ],
      ['begin group', 'Household', 'Household', 'Ménage', '', '', '', '', '', '', '', '', ''],
      [
        'integer',
        'size',
        'How many people?',
        'Combien de personnes ?',
        'Everyone who slept here',
        'Tous ceux qui ont dormi ici',
        'yes',
        '',
        '. >= 1 and . <= 30',
        '',
        '',
        '',
        '',
      ],
      ['select_one water or_other', 'water', 'Water source', "Source d'eau", '', '', '', '', '', '', '', '', ''],
      [
        'decimal',
        'walk',
        'Minutes to walk',
        'Minutes de marche',
        '',
        '',
        '',
        "not(${water} = 'tap') or ${size} > 5",
        '. <= 120.5',
        '',
        '',
        '',
        '',
      ],
      ['begin group', 'Members', 'Members', 'Membres', '', '', '', '${size} = 2', '', '', '', '', ''],
      [
        'text',
        'phone',
        'Phone',
        'Téléphone',
        '',
        '',
        '',
        '',
        "string-length(.) <= 12 and regex(., '^\\+?[0-9 ]+$')",
        'Digits only',
        'Chiffres seulement',
        '',
        '',
      ],
      ['select_multiple assets', 'assets', 'Assets', 'Biens', '', '', '', '', 'count-selected(.) <= 2', '', '', '', ''],
      ['end group', 'Members', '', '', '', '', '', '', '', '', '', '', ''],
      ['calculate', 'per', '', '', '', '', '', '', '', '', '', 'round(${size} div 3, 1)', ''],
      ['end group', 'Household', '', '', '', '', '', '', '', '', '', '', ''],
      ['begin group', 'End', 'End', '', '', '', '', '', '', '', '', '', ''],
      ['image', 'signed', 'Signature', '', '', '', '', '', '', '', '', '', 'signature'],
      ['acknowledge', 'consent', 'Consent', '', '', '', '', '', '', '', '', '', ''],
      ['end group', 'End', '', '', '', '', '', '', '', '', '', '', ''],
    ]);
    expect(tables.choices).toEqual([
      ['list_name', 'name', 'label::English (en)', 'label::Français (fr)'],
      ['water', 'tap', 'Tap', 'Robinet'],
      ['water', 'well', 'Well', 'Puits'],
      ['assets', 'radio', 'Radio', 'Radio'],
      ['assets', 'bike', 'Bike', 'Vélo'],
    ]);
    expect(tables.settings).toEqual([
      ['form_title', 'default_language'],
      ['Household survey', 'English (en)'],
    ]);
    expect(notes).toEqual([]);
  });

  it('imports again as the same form: groups, hint, or_other, conditions, formula and rules', async () => {
    const { body } = household();
    const file = await xlsFormFile(body, { title: 'Household survey' });
    const { converted } = await convertUpload('xlsx', file.content, 'S');
    // The only loss is the importer's own reading of acknowledge (the yes/no question's XLSForm type).
    expect(converted.notes.map((n) => [n.row, n.message])).toEqual([
      [14, 'An acknowledge question became a yes/no question.'],
    ]);
    expect(converted.name).toBe('Household survey');
    const again = converted.body;
    expect(shape(again)).toEqual(shape(body));
    const byCode = Object.fromEntries(Object.values(again.entities.items).map((i) => [i.codeName, i]));
    expect(Object.keys(byCode)).toEqual([
      'size',
      'size_hint',
      'water',
      'water_other',
      'walk',
      'phone',
      'assets',
      'per',
      'signed',
      'consent',
    ]);
    expect(byCode.size!.options.minimum).toEqual({ active: true, value: 1 });
    expect(byCode.walk!.options.maximum).toEqual({ active: true, value: 120.5 });
    expect(byCode.phone!.options.pattern).toEqual({
      active: true,
      value: '^\\+?[0-9 ]+$',
      message: { en: 'Digits only', fr: 'Chiffres seulement' },
    });
    expect(byCode.assets!.options.maxChoices).toEqual({ active: true, value: 2 });
    expect(byCode.consent!.type).toBe('binary');
    expect(byCode.signed!.type).toBe('signature');
    const home = Object.values(again.entities.blocks).find((b) => b.name.en === 'Household')!;
    expect(byCode.per!.options.formula).toBe(`ROUND(Q${home.id}_${byCode.size!.id} / 3, 1)`);
    const wrapper = Object.values(again.entities.blocks).find((b) =>
      b.entities.some((e) => e.type === 'item' && e.id === byCode.walk!.id),
    )!;
    const water = again.entities.items[byCode.water!.id]!;
    const tap = water.options.choices!.find((c) => again.entities.choices[c]!.codeName === 'tap');
    expect(wrapper.conditions).toEqual([
      { operator: 'NOT' },
      { itemId: water.id, schemaId: 0, condition: [tap], finalized: true },
      { operator: 'OR' },
      { itemId: byCode.size!.id, schemaId: 0, condition: { $gt: 5 }, finalized: true },
    ]);
    expect(Object.values(again.entities.languages).map((l) => [l.iso_code_1, l.name])).toEqual([
      ['en', 'English'],
      ['fr', 'Français'],
    ]);
  });

  it('reads back as a workbook whose cells are all text', async () => {
    const file = await xlsFormFile(household().body, { title: 'Household survey' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.content as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['survey', 'choices', 'settings']);
    expect(wb.getWorksheet('survey')!.getCell('C3').value).toBe('How many people?');
  });

  it('reports what XLSForm cannot hold, at the row it would be on', async () => {
    const w = new SchemaWriter('S', { iso_code_1: 'en', name: 'English' });
    const b = w.addBlock({ en: 'Only' });
    const money = w.addItem('currency', { en: 'Price' }, 'price');
    w.place(money, b);
    const ref = w.addItem('reference_project', { en: 'Linked' }, 'linked');
    w.place(ref, b);
    const total = w.addItem('calculated', { en: 'Total' }, 'total');
    total.options.formula = `SUM(Q${b.id}_${money.id}, 1)`;
    w.place(total, b);
    const odd = w.addItem('open', { en: 'Odd' }, '1 odd name');
    w.place(odd, b);
    const elsewhere = w.addBlock({ en: 'Elsewhere' });
    elsewhere.conditions = [{ itemId: 99, schemaId: 7, condition: [1], finalized: true }];
    const { tables, notes } = toXlsForm(w.body, { title: 'x', schemaId: 3 });
    expect(tables.survey.map((r) => r.slice(0, 2))).toEqual([
      ['type', 'name'],
      ['begin group', 'Only'],
      ['decimal', 'price'],
      ['calculate', 'total'],
      ['text', 'odd_name'],
      ['end group', 'Only'],
      ['begin group', 'Elsewhere'],
      ['end group', 'Elsewhere'],
    ]);
    expect(notes.map((n) => [n.row, n.column, n.message])).toEqual([
      [1, 'name', 'The code name "1 odd name" is not an XLSForm name; it is written as "odd_name".'],
      [3, 'type', 'price: a currency question became a decimal number; its currency (USD) is not kept.'],
      [4, 'type', 'linked: a reference_project question has no XLSForm equivalent; it is left out.'],
      [4, 'calculation', 'total: the formula "SUM(Q1_1, 1)" is written as it is: SUM() has no XLSForm equivalent.'],
      [
        7,
        'relevant',
        'The condition of the category "Elsewhere" is not written: it tests a question of another form. Its questions are always shown.',
      ],
    ]);
    // In the file, the notes are a sheet of their own, which the importer passes over.
    const file = await xlsFormFile(w.body, { title: 'x', schemaId: 3 });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.content as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['survey', 'choices', 'settings', 'fieldwork_notes']);
    expect(wb.getWorksheet('fieldwork_notes')!.getRow(3).values).toEqual([
      undefined,
      'survey',
      '3',
      'type',
      'price: a currency question became a decimal number; its currency (USD) is not kept.',
    ]);
    const again = await convertUpload('xlsx', file.content, 'S');
    expect(again.converted.notes.filter((n) => n.sheet === 'fieldwork_notes')).toEqual([]);
  });
});

describe('formulaToXPath', () => {
  const names: Record<number, string> = { 1: 'a', 2: 'b' };
  const x = (f: string) => formulaToXPath(f, (id) => (names[id] ? { ok: names[id] } : { reason: `no question ${id}` }));
  it('writes the formula language as XPath, bracketing nested operations', () => {
    expect(x('IF(AND(Q1_1 > 2, Q1_2 <> "x"), Q1_1 * (Q1_2 + 1), -3)')).toEqual({
      ok: "if((${a} > 2) and (${b} != 'x'), ${a} * (${b} + 1), -3)",
    });
    expect(x('MOD(Q1_1, 2) = 0')).toEqual({ ok: '(${a} mod 2) = 0' });
    expect(x('Q1_1 & "kg"')).toEqual({ ok: "concat(${a}, 'kg')" });
    expect(x('2 ^ 3')).toEqual({ ok: 'pow(2, 3)' });
    expect(x('LEN(Q1_2) >= TRUE')).toEqual({ ok: 'string-length(${b}) >= true()' });
  });
  it('says why a formula has no XLSForm equivalent', () => {
    expect(x('Q1_*')).toEqual({ reason: 'Q1_* (every question of a category) has no XLSForm equivalent' });
    expect(x('Q1_9 + 1')).toEqual({ reason: 'no question 9' });
    expect(x('AVERAGE(Q1_1, Q1_2)')).toEqual({ reason: 'AVERAGE() has no XLSForm equivalent' });
    expect(x('CONCATENATE(Q1_1,,"kg")')).toEqual({ reason: 'an empty argument has no XLSForm equivalent' });
    expect(x('Q1_1 NOT 2')).toEqual({ ok: '${a} != 2' }); // the spec's infix NOT is <>
    expect('reason' in x('(')).toBe(true);
  });
});

describe('toXlsForm with lower levels', () => {
  it('writes each lower level as a repeat nested in its parent, its conditions on the parent level as references out of it', () => {
    const top = new SchemaWriter('S', { iso_code_1: 'en', name: 'English' });
    const home = top.addBlock({ en: 'Household' });
    const size = top.addItem('number', { en: 'People' }, 'size');
    size.options = { ...size.options, minimum: { active: false, value: 0 }, maximum: { active: false, value: 0 } };
    top.place(size, home);
    const members = new SchemaWriter('S', { iso_code_1: 'en', name: 'English' });
    const who = members.addBlock({ en: 'Member' });
    who.conditions = [{ itemId: size.id, schemaId: 11, condition: { $gt: 0 }, finalized: true }];
    const name = members.addItem('open', { en: 'Name' }, 'name');
    members.place(name, who);
    const visits = new SchemaWriter('S', { iso_code_1: 'en', name: 'English' });
    const when = visits.addBlock({ en: 'Visit' });
    // A condition on the first level from the third: not the parent level, so not written.
    when.conditions = [{ itemId: size.id, schemaId: 11, condition: { $gt: 1 }, finalized: true }];
    const date = visits.addItem('date', { en: 'Date' }, 'name');
    visits.place(date, when);
    const { tables, notes } = toXlsForm(top.body, {
      title: 'Census',
      schemaId: 11,
      levels: [
        { name: 'Members', body: members.body, schemaId: 12 },
        { name: 'Visits', body: visits.body, schemaId: 13 },
      ],
    });
    expect(tables.survey).toEqual([
      ['type', 'name', 'label::English (en)', 'relevant'],
      ['begin group', 'Household', 'Household', ''],
      ['integer', 'size', 'People', ''],
      ['end group', 'Household', '', ''],
      ['begin repeat', 'Members', 'Members', ''],
      ['begin group', 'Member', 'Member', '${size} > 0'],
      // A name is unique within its level's form: the same name in another level stays as it is.
      ['text', 'name', 'Name', ''],
      ['end group', 'Member', '', ''],
      ['begin repeat', 'Visits', 'Visits', ''],
      ['begin group', 'Visit', 'Visit', ''],
      ['date', 'name', 'Date', ''],
      ['end group', 'Visit', '', ''],
      ['end repeat', 'Visits', '', ''],
      ['end repeat', 'Members', '', ''],
    ]);
    expect(notes.map((n) => [n.row, n.column, n.message])).toEqual([
      [
        10,
        'relevant',
        'The condition of the category "Visit" is not written: it tests a question of another form. Its questions are always shown.',
      ],
    ]);
  });
});
