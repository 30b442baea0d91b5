import { describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, updateBlock, updateItem } from './builder.js';
import { ANSWER_MESSAGES, checkProblems, checkResponse, REQUIRED_MESSAGE } from './answers.js';
import { newSchemaBody, type ItemOptions, type SchemaBody } from './schema.js';

const SCHEMA = 7;

/** A form: a block with a number (0-100), a date, a text, a multiselect choice and a calculation; a follow-up block shown when Q1 > 50. */
function form(): {
  body: SchemaBody;
  block: number;
  follow: number;
  n: number;
  d: number;
  t: number;
  c: number;
  calc: number;
  why: number;
  deep: number;
  deepBlock: number;
} {
  const b1 = addBlock(newSchemaBody('S'), { en: 'Main' });
  const n = addItem(b1.body, b1.id, 'number', 'en', 'Age');
  const d = addItem(n.body, b1.id, 'date', 'en', 'Born');
  const t = addItem(d.body, b1.id, 'open', 'en', 'Code');
  const c = addItem(t.body, b1.id, 'choice', 'en', 'Fuels');
  const a = addChoice(c.body, c.id, 'en', 'Wood');
  const b = addChoice(a.body, c.id, 'en', 'Gas');
  const g = addChoice(b.body, c.id, 'en', 'Coal');
  const calc = addItem(g.body, b1.id, 'calculated', 'en', 'Twice');
  let body = updateItem(calc.body, calc.id, {
    options: { ...calc.body.entities.items[calc.id]!.options, formula: `Q${b1.id}_${n.id}*2` },
  });
  body = updateItem(body, c.id, { options: { ...body.entities.items[c.id]!.options, multiselect: true } });
  const b2 = addBlock(body, { en: 'Follow-up' });
  const why = addItem(b2.body, b2.id, 'open', 'en', 'Why so old?');
  body = updateItem(why.body, why.id, {
    options: { ...why.body.entities.items[why.id]!.options, isRequiredQuestion: true },
  });
  body = updateBlock(body, b2.id, {
    conditions: [{ itemId: n.id, schemaId: 0, condition: { $gt: 50 }, finalized: true }],
  });
  // A block shown only when the follow-up is answered "deep": hidden with it.
  const b3 = addBlock(body, { en: 'Deeper' });
  const deep = addItem(b3.body, b3.id, 'number', 'en', 'Deeper');
  body = updateBlock(deep.body, b3.id, {
    conditions: [{ itemId: why.id, schemaId: 0, condition: { $gte: 0 }, finalized: true }],
  });
  return {
    body,
    block: b1.id,
    follow: b2.id,
    n: n.id,
    d: d.id,
    t: t.id,
    c: c.id,
    calc: calc.id,
    why: why.id,
    deep: deep.id,
    deepBlock: b3.id,
  };
}

const withOptions = (body: SchemaBody, id: number, options: ItemOptions) =>
  updateItem(body, id, { options: { ...body.entities.items[id]!.options, ...options } });

describe(checkResponse.name, () => {
  it('refuses numbers outside their range and fractions where only whole numbers are allowed', () => {
    const f = form();
    const check = (v: unknown) =>
      checkResponse(f.body, { '0': { [f.n]: v } }, { schemaId: SCHEMA, lenient: true }).problems[`0.${f.n}`];
    expect(check(101)).toBe('Ensure this value is less than or equal to 100.');
    expect(check(-1)).toBe('Ensure this value is greater than or equal to 0.');
    expect(check(2.5)).toBe(ANSWER_MESSAGES.integer);
    expect(check('abc')).toBe(ANSWER_MESSAGES.number);
    expect(check(100)).toBeUndefined();
    expect(check('40')).toBeUndefined();
  });

  it('refuses dates outside their range and impossible dates', () => {
    const f = form();
    const body = withOptions(f.body, f.d, {
      minimum: { active: true, value: '2020-01-01' },
      maximum: { active: true, value: '2020-12-31' },
    });
    const check = (v: unknown) =>
      checkResponse(body, { '0': { [f.d]: v } }, { schemaId: SCHEMA, lenient: true }).problems[`0.${f.d}`];
    expect(check('2019-12-31')).toBe('Ensure this value is greater than or equal to 2020-01-01.');
    expect(check('2021-01-01')).toBe('Ensure this value is less than or equal to 2020-12-31.');
    expect(check('2020-02-30')).toBe(ANSWER_MESSAGES.date);
    expect(check('2020-02-29')).toBeUndefined();
  });

  it('counts text length in characters as a person sees them, and matches patterns as a search', () => {
    const f = form();
    const body = withOptions(f.body, f.t, {
      minLength: { active: true, value: 3 },
      maxLength: { active: true, value: 5 },
      pattern: { active: true, value: '^[A-Z]+$' },
    });
    const check = (v: unknown) =>
      checkResponse(body, { '0': { [f.t]: v } }, { schemaId: SCHEMA, lenient: true }).problems[`0.${f.t}`];
    expect(check('AB')).toBe('Ensure this field has at least 3 characters.');
    expect(check('ABCDEF')).toBe('Ensure this field has no more than 5 characters.');
    expect(check('ABc')).toBe(ANSWER_MESSAGES.pattern);
    expect(check('ABC')).toBeUndefined();
    // Five emoji are five characters, though ten UTF-16 units.
    const emoji = withOptions(f.body, f.t, { maxLength: { active: true, value: 5 } });
    expect(
      checkResponse(emoji, { '0': { [f.t]: '😀😀😀😀😀' } }, { schemaId: SCHEMA, lenient: true }).problems,
    ).toEqual({});
    // Unanchored, a pattern finds its match anywhere (as XLSForm's regex()).
    const search = withOptions(f.body, f.t, {
      pattern: {
        active: true,
        value: '[0-9]{3}',
        message: { en: 'Three digits, please.', fr: 'Trois chiffres, svp.' },
      },
    });
    expect(checkResponse(search, { '0': { [f.t]: 'ab123cd' } }, { schemaId: SCHEMA, lenient: true }).problems).toEqual(
      {},
    );
    expect(
      checkResponse(search, { '0': { [f.t]: 'ab12' } }, { schemaId: SCHEMA, lenient: true, lang: 'fr' }).problems[
        `0.${f.t}`
      ],
    ).toBe('Trois chiffres, svp.');
  });

  it('counts the choices of a multiselect answer', () => {
    const f = form();
    const body = withOptions(f.body, f.c, {
      minChoices: { active: true, value: 2 },
      maxChoices: { active: true, value: 2 },
    });
    const choices = body.entities.items[f.c]!.options.choices!;
    const check = (v: unknown) =>
      checkResponse(body, { '0': { [f.c]: v } }, { schemaId: SCHEMA, lenient: true }).problems[`0.${f.c}`];
    expect(check([choices[0]])).toBe('Choose at least 2 answers.');
    expect(check(choices)).toBe('Choose at most 2 answers.');
    expect(check(choices.slice(0, 2))).toBeUndefined();
    expect(check([999])).toBe(ANSWER_MESSAGES.choice);
  });

  it('never requires a hidden question, drops answers of hidden questions (also of what they hid), and recomputes calculations', () => {
    const f = form();
    // Age 30: the follow-up (required) is hidden, its stale answer and the deeper one it showed are dropped.
    const young = checkResponse(
      f.body,
      { '0': { [f.n]: 30, [f.why]: 'stale', [f.deep]: 5, [f.calc]: 999 } },
      { schemaId: SCHEMA },
    );
    expect(young.problems).toEqual({});
    expect(young.missing).toEqual([]);
    expect(young.record).toEqual({ valid: true });
    expect(young.data).toEqual({ '0': { [f.n]: 30, [f.calc]: 60 } });
    expect(young.shown.blocks.get(f.follow)).toBe('skipped');
    expect(young.shown.blocks.get(f.deepBlock)).not.toBe('shown');
    // Age 60: the follow-up is shown and required.
    const old = checkResponse(f.body, { '0': { [f.n]: 60 } }, { schemaId: SCHEMA });
    expect(old.missing).toEqual([f.why]);
    expect(old.record).toEqual({
      valid: false,
      message: 'All required questions must be answered to save this record.',
      itemIds: [f.why],
    });
    expect(checkProblems(old)).toEqual({ [`0.${f.why}`]: REQUIRED_MESSAGE });
    // A draft may wait for required answers, not for valid ones.
    const draft = checkResponse(f.body, { '0': { [f.n]: 160 } }, { schemaId: SCHEMA, lenient: true });
    expect(draft.missing).toEqual([]);
    expect(draft.problems).toEqual({ [`0.${f.n}`]: 'Ensure this value is less than or equal to 100.' });
  });

  it('names unknown questions and malformed repeats', () => {
    const f = form();
    const check = checkResponse(f.body, { '0': { 999: 'x' }, abc: { [f.n]: 1 } } as never, {
      schemaId: SCHEMA,
      lenient: true,
    });
    expect(check.problems).toEqual({
      '0.999': ANSWER_MESSAGES.unknown,
      abc: 'Answers are keyed by repeat number, then question id.',
    });
  });

  it('says at least one question must be answered, in the spec words', () => {
    const f = form();
    expect(checkResponse(f.body, { '0': {} }, { schemaId: SCHEMA }).record).toMatchObject({
      valid: false,
      message: 'At least one question must be answered to save this record.',
    });
  });
});
