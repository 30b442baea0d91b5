import { describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, changeItemType, updateItem } from './builder.js';
import {
  calculate,
  CALCULATION_MESSAGES,
  evaluateCalculation,
  formulaEditorState,
  formulaProblems,
  refName,
  type CalculationSource,
} from './calculation.js';
import { newSchemaBody } from './schema.js';

function form() {
  let body = newSchemaBody('S');
  const b = addBlock(body, { en: 'Household' });
  const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
  const kids = addItem(adults.body, b.id, 'number', 'en', 'Children');
  const total = addItem(kids.body, b.id, 'calculated', 'en', 'Total');
  const later = addItem(total.body, b.id, 'number', 'en', 'Rooms');
  const other = addBlock(later.body, { en: 'Other' });
  const far = addItem(other.body, other.id, 'number', 'en', 'Far');
  body = far.body;
  return {
    body,
    b: b.id,
    adults: adults.id,
    kids: kids.id,
    total: total.id,
    later: later.id,
    far: far.id,
    otherBlock: other.id,
  };
}

describe('calculated questions', () => {
  it('names references Q{category}_{question}', () => {
    const f = form();
    expect(refName(f.body, f.kids)).toBe(`Q${f.b}_${f.kids}`);
  });

  it('accepts a formula over earlier questions of its category and calculates it', () => {
    const f = form();
    const body = updateItem(f.body, f.total, { options: { formula: `Q${f.b}_${f.adults}+Q${f.b}_${f.kids}` } });
    expect(formulaProblems(body, f.total)).toEqual([]);
    expect(calculate(body, f.total, { [f.adults]: 2, [f.kids]: 3 }, 'en')).toEqual({ value: 5 });
    expect(calculate(body, f.total, { [f.adults]: 2 }, 'en')).toEqual({
      error: "Please answer 'Children' to view the calculation 'Total'",
    });
  });

  it('refuses questions asked later, other categories, missing references and cycles', () => {
    const f = form();
    // Each message now comes with the reference it is about beside it (issue 23 item 8); the empty formula, which
    // was 'Not a valid formula!', is no error.
    const p = (formula: string) => formulaProblems(updateItem(f.body, f.total, { options: { formula } }), f.total);
    const later = `Q${f.b}_${f.later}`;
    const far = `Q${f.otherBlock}_${f.far}`;
    expect(p(`${later}*2`)).toEqual([{ message: 'The calculation uses a question asked after it.', name: later }]);
    expect(p(`${far}*2`)).toEqual([
      { message: 'The calculation uses a question of another category.', name: far },
      { message: 'The calculation uses a question asked after it.', name: far },
    ]);
    expect(p(`Q${f.b}_999`)).toEqual([{ message: 'Invalid Reference!', name: `Q${f.b}_999` }]);
    expect(p(`Q${f.b}_${f.total}+1`)).toEqual([
      { message: 'The calculation depends on itself.', name: `Q${f.b}_${f.total}` },
    ]);
    expect(p('1+')[0]?.message).toMatch(
      /^Not a valid formula! Line 1, col 3: .* Your calculation will not be saved until fixed\.$/,
    );
    expect(p('1+')[0]?.name).toBeUndefined();
    expect(p('')).toEqual([]);
    expect(p('   ')).toEqual([]);
  });

  it('detects cycles through other calculated questions', () => {
    const f = form();
    let body = updateItem(f.body, f.later, {});
    const second = addItem(body, f.b, 'calculated', 'en', 'Second', f.kids);
    body = updateItem(second.body, second.id, { options: { formula: `Q${f.b}_${f.total}*2` } });
    body = updateItem(body, f.total, { options: { formula: `Q${f.b}_${second.id}+1` } });
    expect(formulaProblems(body, f.total)).toContainEqual({
      message: 'The calculation depends on itself.',
      name: `Q${f.b}_${second.id}`,
    });
  });

  it("gives the spec's formula messages exactly, with the offending name beside them", () => {
    const f = form();
    const p = (formula: string) => formulaProblems(updateItem(f.body, f.total, { options: { formula } }), f.total);
    expect(p('FOO + 1')).toEqual([{ message: 'Name not found!', name: 'FOO' }]);
    expect(p('NOPE(1)')).toEqual([{ message: 'Name not found!', name: 'NOPE' }]);
    expect(p('ROUND(1)')).toEqual([{ message: 'Less than necessary arguments!', name: 'ROUND' }]);
    expect(p('NOT(1,2)')).toEqual([{ message: 'More than necessary arguments!', name: 'NOT' }]);
    expect(p('25:00 + 1')).toEqual([{ message: 'Invalid value!', name: '25:00' }]);
  });

  it('does not calculate a question without a formula, and says nothing about it', () => {
    const f = form();
    expect(calculate(f.body, f.total, { [f.adults]: 2 }, 'en')).toBeNull();
    expect(calculate(updateItem(f.body, f.total, { options: { formula: ' ' } }), f.total, {}, 'en')).toBeNull();
  });

  it('says "Need update!" when a referenced question became a type a formula cannot read', () => {
    const f = form();
    const ref = `Q${f.b}_${f.adults}`;
    const body = updateItem(f.body, f.total, { options: { formula: `${ref}*2` } });
    expect(formulaProblems(body, f.total)).toEqual([]);
    expect(formulaProblems(changeItemType(body, f.adults, 'image', 'en'), f.total)).toEqual([
      { message: 'Need update!', name: ref },
    ]);
    expect(formulaProblems(changeItemType(body, f.adults, 'geotag', 'en'), f.total)).toEqual([
      { message: 'Need update!', name: ref },
    ]);
    // A type a formula still reads (a currency, an open answer) needs nothing.
    expect(formulaProblems(changeItemType(body, f.adults, 'currency', 'en'), f.total)).toEqual([]);
    expect(formulaProblems(changeItemType(body, f.adults, 'open', 'en'), f.total)).toEqual([]);
  });

  it('says "Need update!" when a referenced question was renamed after the formula was written, until it is edited again', () => {
    const f = form();
    const ref = `Q${f.b}_${f.adults}`;
    const formula = `${ref}+Q${f.b}_${f.kids}`;
    const written = updateItem(f.body, f.total, {
      options: { formula, editorState: formulaEditorState(f.body, formula) },
    });
    expect(written.entities.items[f.total]!.options.editorState).toEqual({
      refs: {
        [f.adults]: { codeName: f.body.entities.items[f.adults]!.codeName, type: 'number' },
        [f.kids]: { codeName: f.body.entities.items[f.kids]!.codeName, type: 'number' },
      },
    });
    expect(formulaProblems(written, f.total)).toEqual([]);
    const renamed = updateItem(written, f.adults, { codeName: 'grown_ups' });
    expect(formulaProblems(renamed, f.total)).toEqual([{ message: 'Need update!', name: ref }]);
    // Editing the formula records the names as they are now.
    const edited = updateItem(renamed, f.total, {
      options: { formula, editorState: formulaEditorState(renamed, formula) },
    });
    expect(formulaProblems(edited, f.total)).toEqual([]);
    // Without a recorded state (an imported form) a rename goes unnoticed: the reference is by id and still works.
    expect(
      formulaProblems(
        updateItem(updateItem(f.body, f.total, { options: { formula } }), f.adults, { codeName: 'grown_ups' }),
        f.total,
      ),
    ).toEqual([]);
  });

  it('answers with the calculation messages of spec 001 §8', () => {
    const f = form();
    const withFormula = (formula: string) => updateItem(f.body, f.total, { options: { formula } });
    const answers = { [f.adults]: 0, [f.kids]: -4 };
    expect(calculate(withFormula(`Q${f.b}_${f.kids}/Q${f.b}_${f.adults}`), f.total, answers, 'en')).toEqual({
      error: 'Division by zero/undefined encountered!',
    });
    expect(calculate(withFormula(`LN(Q${f.b}_${f.adults})`), f.total, answers, 'en')).toEqual({
      error: 'Logarithm of negative number/ zero encountered!',
    });
    expect(calculate(withFormula(`SQRT(Q${f.b}_${f.kids})`), f.total, answers, 'en')).toEqual({
      error: 'Square root of negative number encountered!',
    });
    expect(calculate(withFormula('"text"'), f.total, answers, 'en')).toEqual({ error: 'Could not calculate!' });
  });

  it('rounds when decimals are not allowed, and uses choice codes', () => {
    const f = form();
    const c = addItem(f.body, f.b, 'choice', 'en', 'Size', f.kids);
    const big = addChoice(c.body, c.id, 'en', 'Big', '3');
    let body = updateItem(big.body, f.total, {
      options: { formula: `Q${f.b}_${c.id}*Q${f.b}_${f.adults}/4`, allowDecimal: false },
    });
    expect(calculate(body, f.total, { [c.id]: [big.id], [f.adults]: 3 }, 'en')).toEqual({ value: 2 });
    body = updateItem(body, f.total, { options: { allowDecimal: true } });
    expect(calculate(body, f.total, { [c.id]: [big.id], [f.adults]: 3 }, 'en')).toEqual({ value: 2.25 });
  });
});

describe('calculation objects', () => {
  const source = (answers: Record<number, number | undefined>, ancestor = false): CalculationSource => ({
    answer: (id) => ({ value: answers[id], ancestor, name: `Q${id}` }),
    aggregate: (agg, id) => (agg === 'avg' && id === 1 ? 4 : undefined),
  });
  it('evaluates answers, constants, aggregates and expressions', () => {
    const calc = {
      type: 'expression' as const,
      operator: 'add' as const,
      operands: [
        { type: 'answer' as const, itemId: 1 },
        { type: 'constant' as const, value: 2 },
        { type: 'aggregate' as const, aggregator: 'avg', itemId: 1 },
        { type: 'expression' as const, operator: 'SQRT' as const, operands: [{ type: 'constant' as const, value: 9 }] },
      ],
    };
    expect(evaluateCalculation(calc, source({ 1: 5 }))).toBe(14);
  });
  it('throws the spec messages', () => {
    const div = {
      type: 'expression' as const,
      operator: 'divide' as const,
      operands: [
        { type: 'constant' as const, value: 1 },
        { type: 'constant' as const, value: 0 },
      ],
    };
    expect(() => evaluateCalculation(div, source({}))).toThrow(CALCULATION_MESSAGES.division);
    const ln = {
      type: 'expression' as const,
      operator: 'LN' as const,
      operands: [{ type: 'constant' as const, value: 0 }],
    };
    expect(() => evaluateCalculation(ln, source({}))).toThrow(CALCULATION_MESSAGES.log);
    const sqrt = {
      type: 'expression' as const,
      operator: 'SQRT' as const,
      operands: [{ type: 'constant' as const, value: -1 }],
    };
    expect(() => evaluateCalculation(sqrt, source({}))).toThrow(CALCULATION_MESSAGES.sqrt);
    expect(() => evaluateCalculation({ type: 'answer', itemId: 2 }, source({}), 'Ratio')).toThrow(
      "Please answer 'Q2' to view the calculation 'Ratio'",
    );
    expect(() => evaluateCalculation({ type: 'answer', itemId: 2 }, source({}, true))).toThrow(
      "A required question in an ancestor response hasn't been answered!",
    );
    expect(() => evaluateCalculation({ type: 'aggregate', aggregator: 'max', itemId: 1 }, source({}))).toThrow(
      'Could not calculate!',
    );
  });
});
