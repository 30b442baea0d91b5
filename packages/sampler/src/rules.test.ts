import { describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, updateBlock, updateItem } from './builder.js';
import { evaluateConditions, placementValid, visibility, type ConditionContext } from './conditions.js';
import { concatenate, concatenationError } from './concatenation.js';
import { answerText, canLink } from './answer-text.js';
import { hasMultiplePrimaryKeys, itemValid, saveRefusal, currencies } from './items.js';
import { recordValidity, RECORD_MESSAGES } from './record.js';
import { newSchemaBody, type ConditionEntry, type Item } from './schema.js';

const item = (type: Item['type'], patch: Partial<Item> = {}): Item => ({
  id: 1,
  name: { en: 'Q' },
  codeName: 'q',
  type,
  options: {},
  deleted: false,
  ...patch,
});

describe('item validity (spec 001 §5)', () => {
  it('never accepts empty', () => expect(itemValid(item('empty'), 'en')).toBe(false));
  it('needs a non-blank name for the plain types', () => {
    for (const type of [
      'binary',
      'open',
      'calculated',
      'date',
      'geotag',
      'image',
      'signature',
      'concatenation',
    ] as const) {
      expect(itemValid(item(type), 'en')).toBe(true);
      expect(itemValid(item(type, { name: { en: '  ' } }), 'en')).toBe(false);
    }
  });
  it('needs number and currency minimums not above the maximum (blank is 0)', () => {
    expect(
      itemValid(
        item('number', { options: { minimum: { active: true, value: 5 }, maximum: { active: true, value: 3 } } }),
        'en',
      ),
    ).toBe(false);
    expect(
      itemValid(
        item('currency', { options: { minimum: { active: true, value: '' }, maximum: { active: true, value: 0 } } }),
        'en',
      ),
    ).toBe(true);
    expect(
      itemValid(
        item('number', { options: { minimum: { active: true, value: 1 }, maximum: { active: true, value: '' } } }),
        'en',
      ),
    ).toBe(false);
  });
  it('needs a choice for choice questions, text for instructions, code types for restricted barcodes', () => {
    expect(itemValid(item('choice', { options: { choices: [] } }), 'en')).toBe(false);
    expect(itemValid(item('choice', { options: { choices: [3] } }), 'en')).toBe(true);
    expect(itemValid(item('instruction', { instruction: { en: '' } }), 'en')).toBe(false);
    expect(itemValid(item('instruction', { instruction: { en: 'Read' } }), 'en')).toBe(true);
    expect(itemValid(item('barcode', { options: { restrictType: true, codeTypes: [] } }), 'en')).toBe(false);
    expect(itemValid(item('barcode', { options: { restrictType: true, codeTypes: ['QR_CODE'] } }), 'en')).toBe(true);
  });
});

describe('schema save refusals (spec 001 §5)', () => {
  it('refuses live and finalized projects, longitudinal schemas without a key, and several keys', () => {
    let body = newSchemaBody('S');
    const b = addBlock(body, { en: 'B' });
    const q1 = addItem(b.body, b.id, 'number', 'en', 'Id');
    const q2 = addItem(q1.body, b.id, 'open', 'en', 'Name');
    body = q2.body;
    expect(saveRefusal('O', 'S', body)).toBe('Cannot edit schema for this project!');
    expect(saveRefusal('F', 'S', body)).toBe('Cannot edit schema for this project!');
    expect(saveRefusal('P', 'L', body)).toBe('Cannot save longitudinal schema without a primary key!');
    body = updateItem(updateItem(body, q1.id, { options: { isPrimaryKey: true } }), q2.id, {
      options: { isPrimaryKey: true },
    });
    expect(hasMultiplePrimaryKeys(body)).toBe(true);
    expect(saveRefusal('P', 'S', body)).toBe('Cannot save schema with multiple primary keys!');
    expect(saveRefusal('P', 'L', newSchemaBody('L'))).toBeUndefined();
  });
  it('offers the ISO currencies with names and symbols', () => {
    const list = currencies();
    expect(list.length).toBeGreaterThan(150);
    expect(list.find((c) => c.code === 'KES')).toMatchObject({ name: 'Kenyan Shilling' });
  });
});

describe('conditions (spec 001 §5)', () => {
  const t = (itemId: number, condition: number[] | Record<string, number>, finalized = true): ConditionEntry => ({
    itemId,
    schemaId: 0,
    condition,
    finalized,
  });
  const ctx = (answers: Record<string, unknown>, other?: ConditionContext['other']): ConditionContext => ({
    schemaId: 9,
    answers,
    ...(other ? { other } : {}),
  });
  it('tests choice overlap and ranges', () => {
    expect(evaluateConditions([t(1, [4, 5])], ctx({ 1: [5, 7] }))).toBe(true);
    expect(evaluateConditions([t(1, [4, 5])], ctx({ 1: 6 }))).toBe(false);
    expect(evaluateConditions([t(2, { $gte: 18, $lt: 65 })], ctx({ 2: 18 }))).toBe(true);
    expect(evaluateConditions([t(2, { $gt: 18, $lte: 65 })], ctx({ 2: 18 }))).toBe(false);
  });
  it('combines with NOT, AND, AND NOT, OR, OR NOT (AND binds tighter)', () => {
    const yes = t(1, [1]);
    const no = t(2, [1]);
    const a = ctx({ 1: [1], 2: [2] });
    expect(evaluateConditions([{ operator: 'NOT' }, no], a)).toBe(true);
    expect(evaluateConditions([yes, { operator: 'AND' }, no], a)).toBe(false);
    expect(evaluateConditions([yes, { operator: 'AND NOT' }, no], a)).toBe(true);
    expect(evaluateConditions([no, { operator: 'OR' }, yes], a)).toBe(true);
    expect(evaluateConditions([no, { operator: 'OR NOT' }, yes], a)).toBe(false);
    expect(evaluateConditions([yes, { operator: 'OR' }, no, { operator: 'AND' }, no], a)).toBe(true);
  });
  it('is false when misplaced or not finalized', () => {
    const yes = t(1, [1]);
    const a = ctx({ 1: [1] });
    expect(placementValid([{ operator: 'AND' }, yes])).toBe(false);
    expect(evaluateConditions([{ operator: 'AND' }, yes], a)).toBe(false);
    expect(evaluateConditions([yes, { operator: 'OR' }], a)).toBe(false);
    expect(evaluateConditions([yes, { operator: 'AND' }, { operator: 'OR' }, yes], a)).toBe(false);
    expect(evaluateConditions([t(1, [1], false)], a)).toBe(false);
  });
  it('reads ancestor-schema and referenced-project answers', () => {
    const onParent: ConditionEntry = { itemId: 3, schemaId: 4, condition: [8], finalized: true };
    expect(evaluateConditions([onParent], ctx({}, { 4: { 3: [8] } }))).toBe(true);
    expect(evaluateConditions([onParent], ctx({}, { 4: { 3: [9] } }))).toBe(false);
  });
  it('shows, maybe-shows or skips blocks and their questions', () => {
    let body = newSchemaBody('S');
    const b = addBlock(body, { en: 'Main' });
    const q = addItem(b.body, b.id, 'number', 'en', 'Age');
    const c = addBlock(q.body, { en: 'Adults' });
    const a = addItem(c.body, c.id, 'open', 'en', 'Job');
    body = updateBlock(a.body, c.id, {
      conditions: [{ itemId: q.id, schemaId: 0, condition: { $gte: 18 }, finalized: true }],
    });
    expect(visibility(body, ctx({})).items.get(a.id)).toBe('maybe');
    expect(visibility(body, ctx({ [q.id]: 30 })).items.get(a.id)).toBe('shown');
    expect(visibility(body, ctx({ [q.id]: 10 })).items.get(a.id)).toBe('skipped');
    expect(visibility(body, ctx({ [q.id]: 10 })).items.get(q.id)).toBe('shown');
  });
});

describe('record validity (spec 001 §5)', () => {
  const setup = () => {
    let body = newSchemaBody('L');
    const b = addBlock(body, { en: 'More' });
    const req = addItem(b.body, b.id, 'open', 'en', 'Village');
    body = updateItem(req.body, req.id, { options: { isRequiredQuestion: true } });
    const shown = visibility(body, { schemaId: 1, answers: {} }).items;
    for (const k of shown.keys()) shown.set(k, 'shown');
    return { body, shown, req: req.id };
  };
  it('needs an answer, then the primary key, then the lookups, then the required questions', () => {
    const { body, shown, req } = setup();
    expect(recordValidity(body, {}, shown)).toMatchObject({ valid: false, message: RECORD_MESSAGES.noAnswer });
    expect(recordValidity(body, { 2: 'Ana' }, shown)).toMatchObject({
      message: 'Primary question must be answered to save this record.',
    });
    expect(recordValidity(body, { 1: 7, [req]: 'x' }, shown)).toMatchObject({
      message: 'All lookup questions must be answered to save this record.',
    });
    expect(recordValidity(body, { 1: 7, 2: 'Ana', [req]: '' }, shown)).toMatchObject({
      message: 'All required questions must be answered to save this record.',
      itemIds: [req],
    });
    expect(recordValidity(body, { 1: 7, 2: 'Ana', [req]: 'Kibera' }, shown)).toEqual({ valid: true });
  });
  it('skips hidden questions and, leniently, the required checks', () => {
    const { body, shown, req } = setup();
    shown.set(req, 'skipped');
    expect(recordValidity(body, { 1: 7, 2: 'Ana' }, shown)).toEqual({ valid: true });
    expect(recordValidity(body, { 2: 'Ana' }, shown, true)).toEqual({ valid: true });
    expect(recordValidity(body, { 1: null, 2: undefined }, shown, true)).toMatchObject({
      valid: false,
      message: RECORD_MESSAGES.noAnswer,
    });
  });
});

describe('concatenation (spec 001 §5)', () => {
  const setup = () => {
    let body = newSchemaBody('S');
    const b = addBlock(body, { en: 'B' });
    const first = addItem(b.body, b.id, 'open', 'en', 'First name');
    const born = addItem(first.body, b.id, 'date', 'en', 'Born');
    const sex = addItem(born.body, b.id, 'choice', 'en', 'Sex');
    const f = addChoice(sex.body, sex.id, 'en', 'Female person');
    const geo = addItem(f.body, b.id, 'geotag', 'en', 'Where');
    body = geo.body;
    return { body, ids: { first: first.id, born: born.id, sex: sex.id, f: f.id } };
  };
  it('checks the list: at least two names, each a question', () => {
    const { body } = setup();
    expect(concatenationError(body, 'first_name')).toBe('Invalid concatenation. Please modify to continue');
    expect(concatenationError(body, 'first_name, ,born')).toBe('Invalid concatenation. Please modify to continue');
    expect(concatenationError(body, 'first_name,nope')).toBe('Invalid concatenation. nope is not a valid question');
    expect(concatenationError(body, 'first_name, born')).toBeUndefined();
  });
  it('joins with underscores, spaces become underscores, dates become year_month_day', () => {
    const { body, ids } = setup();
    const answers = { [ids.first]: 'Ana Maria', [ids.born]: '1990-04-07', [ids.sex]: [ids.f] };
    expect(concatenate(body, 'first_name,born,sex', answers, 'en')).toEqual({
      value: 'Ana_Maria_1990_04_07_Female_person',
    });
    expect(concatenate(body, 'first_name,born', { [ids.first]: 'Ana' }, 'en')).toEqual({
      error: "Please answer 'Born' to see the concatenation",
    });
    expect(concatenate(body, 'first_name,where', { [ids.first]: 'Ana' }, 'en')).toEqual({
      error: 'Unknown question type: geotag',
    });
  });
});

describe('answer as text and linking', () => {
  it("shows '?' for answers that do not fit and cuts long text with an ellipsis", () => {
    let body = newSchemaBody('S');
    const b = addBlock(body, { en: 'B' });
    const c = addItem(b.body, b.id, 'choice', 'en', 'Fuel');
    const wood = addChoice(c.body, c.id, 'en', 'Wood');
    body = wood.body;
    const fuel = body.entities.items[c.id]!;
    expect(answerText(body, fuel, [wood.id], 'en')).toBe('Wood');
    expect(answerText(body, fuel, [999], 'en')).toBe('?');
    expect(answerText(body, item('number'), 'abc', 'en')).toBe('?');
    expect(answerText(body, item('open'), 'a long answer indeed', 'en', 10)).toBe('a long an…');
    expect(answerText(body, item('date'), 'not a date', 'en')).toBe('?');
  });
  it('links answers by the eligibility table', () => {
    expect(canLink('binary', 'choice')).toBe(true);
    expect(canLink('choice', 'binary')).toBe(false);
    expect(canLink('reference_project', 'choice')).toBe(true);
    expect(canLink('open', 'number')).toBe(false);
  });
});
