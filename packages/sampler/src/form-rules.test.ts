import { describe, expect, it } from 'vitest';
import { addBlock, addChoice, addItem, deleteChoice, deleteItem, updateBlock, updateItem } from './builder.js';
import { FORM_RULE_MESSAGES, formProblems, problemsOf } from './form-rules.js';
import { newSchemaBody, type Item, type SchemaBody } from './schema.js';

/** A valid form: a number, a choice with one choice, an open question, an instruction, in one category. */
function valid() {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const n = addItem(b.body, b.id, 'number', 'en', 'Adults');
  const c = addItem(n.body, b.id, 'choice', 'en', 'Fuel');
  const wood = addChoice(c.body, c.id, 'en', 'Wood');
  const o = addItem(wood.body, b.id, 'open', 'en', 'Name');
  const i = addItem(o.body, b.id, 'instruction', 'en', 'Note');
  const body = updateItem(i.body, i.id, { instruction: { en: 'Ask the oldest person.' } });
  return { body, block: b.id, number: n.id, choice: c.id, wood: wood.id, open: o.id, instruction: i.id };
}
const only = (body: SchemaBody) =>
  formProblems(body).map((p) => `${p.entity.type} ${p.entity.id} ${p.field}: ${p.message}`);
const patchItem = (body: SchemaBody, id: number, patch: Partial<Item>): SchemaBody => {
  const next = structuredClone(body);
  Object.assign(next.entities.items[id]!, patch);
  return next;
};

describe(formProblems.name, () => {
  it('finds nothing wrong with a valid form', () => expect(formProblems(valid().body)).toEqual([]));

  it('refuses a choice question without choices, counting deleted choices as gone', () => {
    const f = valid();
    expect(only(deleteChoice(f.body, f.choice, f.wood))).toEqual([
      `item ${f.choice} choices: ${FORM_RULE_MESSAGES.choices}`,
    ]);
    expect(only(updateItem(f.body, f.choice, { options: { choices: [999] } }))).toEqual([
      `item ${f.choice} choices: ${FORM_RULE_MESSAGES.choices}`,
    ]);
  });

  it('refuses a minimum above the maximum for numbers (blank is 0), currencies and dates', () => {
    const f = valid();
    const range = (min: number | string, max: number | string) => ({
      options: { minimum: { active: true, value: min }, maximum: { active: true, value: max } },
    });
    expect(only(updateItem(f.body, f.number, range(5, 3)))).toEqual([
      `item ${f.number} maximum: ${FORM_RULE_MESSAGES.range}`,
    ]);
    expect(only(updateItem(f.body, f.number, range(1, '')))).toEqual([
      `item ${f.number} maximum: ${FORM_RULE_MESSAGES.range}`,
    ]);
    expect(only(updateItem(f.body, f.number, range('', 0)))).toEqual([]);
    expect(
      only(
        updateItem(f.body, f.number, {
          options: { minimum: { active: false, value: 5 }, maximum: { active: true, value: 3 } },
        }),
      ),
    ).toEqual([]);
    const d = addItem(f.body, f.block, 'date', 'en', 'Born');
    expect(only(updateItem(d.body, d.id, range('2024-02-01', '2024-01-31')))).toEqual([
      `item ${d.id} maximum: ${FORM_RULE_MESSAGES.range}`,
    ]);
    expect(only(updateItem(d.body, d.id, range('2024-01-01', '')))).toEqual([]);
    const c = addItem(f.body, f.block, 'currency', 'en', 'Income');
    expect(only(updateItem(c.body, c.id, range(10, 1)))).toEqual([`item ${c.id} maximum: ${FORM_RULE_MESSAGES.range}`]);
  });

  it('refuses a blank name in the primary language', () => {
    const f = valid();
    expect(only(updateItem(f.body, f.open, { name: { en: '  ', fr: 'Nom' } }))).toEqual([
      `item ${f.open} name: ${FORM_RULE_MESSAGES.name}`,
    ]);
    expect(only(patchItem(f.body, f.open, { name: {} }))).toEqual([`item ${f.open} name: ${FORM_RULE_MESSAGES.name}`]);
  });

  it('refuses a blank or duplicate question code, on every item that holds it', () => {
    const f = valid();
    expect(only(updateItem(f.body, f.open, { codeName: ' ' }))).toEqual([
      `item ${f.open} codeName: ${FORM_RULE_MESSAGES.codeBlank}`,
    ]);
    const code = f.body.entities.items[f.number]!.codeName;
    expect(only(patchItem(f.body, f.open, { codeName: code }))).toEqual([
      `item ${f.number} codeName: ${FORM_RULE_MESSAGES.codeDuplicate(code)}`,
      `item ${f.open} codeName: ${FORM_RULE_MESSAGES.codeDuplicate(code)}`,
    ]);
    // A deleted item's code is free again.
    expect(only(patchItem(deleteItem(f.body, f.number), f.open, { codeName: code }))).toEqual([]);
  });

  it('refuses items of type empty or of an unknown type', () => {
    const f = valid();
    expect(only(patchItem(f.body, f.open, { type: 'empty' }))).toEqual([
      `item ${f.open} type: ${FORM_RULE_MESSAGES.empty}`,
    ]);
    expect(only(patchItem(f.body, f.open, { type: 'teleport' as Item['type'] }))).toEqual([
      `item ${f.open} type: Unknown question type: teleport`,
    ]);
  });

  it('refuses an instruction without text and a restricted barcode without code types', () => {
    const f = valid();
    expect(only(updateItem(f.body, f.instruction, { instruction: { en: '' } }))).toEqual([
      `item ${f.instruction} instruction: ${FORM_RULE_MESSAGES.instruction}`,
    ]);
    const bc = addItem(f.body, f.block, 'barcode', 'en', 'Tag');
    expect(only(updateItem(bc.body, bc.id, { options: { restrictType: true, codeTypes: [] } }))).toEqual([
      `item ${bc.id} codeTypes: ${FORM_RULE_MESSAGES.codeTypes}`,
    ]);
  });

  it('reports formula problems, including questions of another category', () => {
    const f = valid();
    const calc = addItem(f.body, f.block, 'calculated', 'en', 'Twice');
    expect(only(updateItem(calc.body, calc.id, { options: { formula: `Q${f.block}_${f.number}*2` } }))).toEqual([]);
    // No formula yet is no problem (issue 23 item 8: it was reported as 'Not a valid formula!').
    expect(only(calc.body)).toEqual([]);
    const other = addBlock(calc.body, { en: 'Other' });
    const far = addItem(other.body, other.id, 'calculated', 'en', 'Far');
    expect(
      only(
        updateItem(updateItem(far.body, calc.id, { options: { formula: '1' } }), far.id, {
          options: { formula: `Q${f.block}_${f.number}` },
        }),
      ),
    ).toEqual([`item ${far.id} formula: The calculation uses a question of another category.`]);
  });

  it('reports concatenation errors and impossible answer rules', () => {
    const f = valid();
    const cat = addItem(f.body, f.block, 'concatenation', 'en', 'Key');
    expect(only(updateItem(cat.body, cat.id, { options: { concatenation: 'nope' } }))[0]).toMatch(
      new RegExp(`^item ${cat.id} concatenation: Invalid concatenation`),
    );
    expect(
      only(
        updateItem(f.body, f.open, {
          options: { minLength: { active: true, value: 5 }, maxLength: { active: true, value: 2 } },
        }),
      ),
    ).toEqual([`item ${f.open} rules: The fewest characters must not be more than the most.`]);
  });

  it('gives the unknown name of a formula beside the spec message, not in it', () => {
    const f = valid();
    const calc = addItem(f.body, f.block, 'calculated', 'en', 'Twice');
    const problems = formProblems(updateItem(calc.body, calc.id, { options: { formula: 'FOO(1)*2' } }));
    expect(problems).toEqual([
      { entity: { type: 'item', id: calc.id }, field: 'formula', message: 'Name not found!', name: 'FOO' },
    ]);
  });

  it('refuses a condition whose operators are misplaced (always false, spec 001 §5), at its category', () => {
    const f = valid();
    const follow = addBlock(f.body, { en: 'Follow-up' });
    const test = { itemId: f.choice, schemaId: 0, condition: [f.wood], finalized: true };
    const at = (conditions: Parameters<typeof updateBlock>[2]['conditions']) =>
      only(updateBlock(follow.body, follow.id, { conditions }));
    const refused = [`block ${follow.id} conditions: ${FORM_RULE_MESSAGES.conditionPlacement}`];
    expect(at([{ operator: 'AND' }, test])).toEqual(refused);
    expect(at([{ operator: 'OR' }, test])).toEqual(refused);
    expect(at([test, { operator: 'AND' }])).toEqual(refused);
    expect(at([test, { operator: 'AND' }, { operator: 'OR' }, test])).toEqual(refused);
    expect(at([test, test])).toEqual(refused);
    expect(at([{ operator: 'NOT' }, test])).toEqual([]);
    expect(at([test, { operator: 'AND NOT' }, test])).toEqual([]);
    expect(at([])).toEqual([]);
  });

  it('refuses a condition on a question the form does not hold, of this schema only', () => {
    const f = valid();
    const follow = addBlock(f.body, { en: 'Follow-up' });
    const cond = (itemId: number, schemaId: number) =>
      updateBlock(follow.body, follow.id, { conditions: [{ itemId, schemaId, condition: [f.wood], finalized: true }] });
    expect(only(cond(f.choice, 0))).toEqual([]);
    expect(only(cond(999, 0))).toEqual([`block ${follow.id} conditions: ${FORM_RULE_MESSAGES.conditionUnknown(999)}`]);
    expect(formProblems(cond(999, 7), 7)).toHaveLength(1);
    // Another schema's questions (an ancestor level, a referenced project) are not this form's to check.
    expect(formProblems(cond(999, 8), 7)).toEqual([]);
    expect(only(deleteItem(cond(f.choice, 0), f.choice))).toEqual([
      `block ${follow.id} conditions: ${FORM_RULE_MESSAGES.conditionUnknown(f.choice)}`,
    ]);
  });

  it('lists several problems of one item, and problemsOf picks an item out', () => {
    const f = valid();
    const broken = patchItem(deleteChoice(f.body, f.choice, f.wood), f.choice, { name: { en: '' }, codeName: '' });
    const mine = problemsOf(formProblems(broken), 'item', f.choice);
    expect(mine.map((p) => p.field)).toEqual(['name', 'choices', 'codeName']);
    expect(problemsOf(formProblems(broken), 'item', f.number)).toEqual([]);
  });
});
