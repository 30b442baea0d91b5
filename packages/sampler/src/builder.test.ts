import { describe, expect, it } from 'vitest';
import {
  addBlock,
  addChoice,
  addFollowUp,
  addItem,
  addLanguage,
  changeItemType,
  choicesInUse,
  deleteBlock,
  deleteChoice,
  deleteItem,
  deleteLanguage,
  duplicateItem,
  languages,
  moveEntity,
  renameLanguage,
  sortLanguages,
  updateBlock,
  updateItem,
} from './builder.js';
import { newSchemaBody, type ConditionEntry } from './schema.js';

const base = () => {
  let body = newSchemaBody('S');
  const b = addBlock(body, { en: 'Household' });
  body = b.body;
  const q = addItem(body, b.id, 'number', 'en', 'Members');
  return { body: q.body, blockId: b.id, itemId: q.id };
};

describe('adding', () => {
  it('gives new number questions the 0 to 100 integer defaults and a code name', () => {
    const { body, itemId } = base();
    expect(body.entities.items[itemId]).toMatchObject({
      codeName: 'members',
      type: 'number',
      options: {
        allowDecimal: false,
        minimum: { active: true, value: 0 },
        maximum: { active: true, value: 100 },
        isRequiredQuestion: false,
      },
    });
    expect(body.counters).toMatchObject({ blocks: 1, items: 1 });
  });
  it('gives new binary questions two choices', () => {
    const { body, blockId } = base();
    const { body: next, id } = addItem(body, blockId, 'binary', 'en', 'Has water');
    expect(next.entities.items[id]!.options.choices).toHaveLength(2);
    expect(next.entities.items[id]!.options.choices!.map((c) => next.entities.choices[c]!.name.en)).toEqual([
      'Yes',
      'No',
    ]);
  });
  it('makes code names unique', () => {
    const { body, blockId } = base();
    const { body: next, id } = addItem(body, blockId, 'open', 'en', 'Members');
    expect(next.entities.items[id]!.codeName).toBe('members_2');
  });
});

describe('duplicating', () => {
  it("names the copy 'Duplicate of ', codes it 'copy_of_', copies its choices, places it after, records its source", () => {
    let { body, blockId } = base();
    const c = addItem(body, blockId, 'choice', 'en', 'Fuel');
    body = addChoice(c.body, c.id, 'en', 'Wood').body;
    const { body: next, id } = duplicateItem(body, c.id);
    const copy = next.entities.items[id]!;
    expect(copy).toMatchObject({ name: { en: 'Duplicate of Fuel' }, codeName: 'copy_of_fuel', source: c.id });
    expect(copy.options.choices).not.toEqual(body.entities.items[c.id]!.options.choices);
    expect(next.entities.choices[copy.options.choices![0]!]!.name.en).toBe('Wood');
    const refs = next.entities.blocks[blockId]!.entities.map((e) => e.id);
    expect(refs.indexOf(id)).toBe(refs.indexOf(c.id) + 1);
  });
});

describe('type change', () => {
  it('rebuilds the question keeping only the required flag', () => {
    let { body, itemId } = base();
    body = updateItem(body, itemId, {
      options: { isRequiredQuestion: true, isLookupQuestion: true, maximum: { active: true, value: 5 } },
    });
    const next = changeItemType(body, itemId, 'open', 'en');
    expect(next.entities.items[itemId]).toMatchObject({
      type: 'open',
      name: { en: 'Members' },
      options: { isRequiredQuestion: true, isLookupQuestion: false },
    });
    expect(next.entities.items[itemId]!.options.maximum).toBeUndefined();
  });
  it('keeps required false for a calculated question', () => {
    let { body, itemId } = base();
    body = updateItem(body, itemId, { options: { isRequiredQuestion: true } });
    expect(changeItemType(body, itemId, 'calculated', 'en').entities.items[itemId]!.options.isRequiredQuestion).toBe(
      false,
    );
  });
  it('refuses a type change by a plain update', () => {
    const { body, itemId } = base();
    expect(() => updateItem(body, itemId, { type: 'open' })).toThrow(
      "An item's type cannot be changed by a plain update.",
    );
  });
});

describe('deleting', () => {
  it('only marks entities deleted and removes their reference', () => {
    const { body, blockId, itemId } = base();
    const next = deleteItem(body, itemId);
    expect(next.entities.items[itemId]!.deleted).toBe(true);
    expect(next.entities.blocks[blockId]!.entities).toEqual([]);
  });
  it('deleting a category selects the first remaining one', () => {
    let { body, blockId } = base();
    const second = addBlock(body, { en: 'Second' });
    body = second.body;
    const { body: next, selected } = deleteBlock(body, blockId);
    expect(selected).toBe(second.id);
    expect(next.form).toEqual([second.id]);
    expect(next.entities.blocks[blockId]!.deleted).toBe(true);
    expect(Object.values(next.entities.items).every((i) => i.deleted)).toBe(true);
  });
  it('deletes choices by marking them and tracks choices used by finalized conditions', () => {
    let { body, blockId } = base();
    const c = addItem(body, blockId, 'choice', 'en', 'Fuel');
    const wood = addChoice(c.body, c.id, 'en', 'Wood');
    body = wood.body;
    const cond = addBlock(body, { en: 'Wood users' });
    body = updateBlock(cond.body, cond.id, {
      conditions: [{ itemId: c.id, schemaId: 0, condition: [wood.id], finalized: true }],
    });
    expect(choicesInUse(body)).toEqual(new Set([wood.id]));
    const next = deleteChoice(body, c.id, wood.id);
    expect(next.entities.choices[wood.id]!.deleted).toBe(true);
    expect(next.entities.items[c.id]!.options.choices).toEqual([]);
  });
});

describe('moving and follow-ups', () => {
  const condition: ConditionEntry[] = [{ itemId: 1, schemaId: 0, condition: { $gt: 2 }, finalized: true }];
  it('clears the primary key when moving into a category with conditions', () => {
    let { body, itemId } = base();
    body = updateItem(body, itemId, { options: { isPrimaryKey: true } });
    const target = addBlock(body, { en: 'Conditional' });
    body = updateBlock(target.body, target.id, { conditions: condition });
    const next = moveEntity(body, { type: 'item', id: itemId }, target.id, 0);
    expect(next.entities.items[itemId]!.options.isPrimaryKey).toBe(false);
    expect(next.entities.blocks[target.id]!.entities).toEqual([{ type: 'item', id: itemId }]);
  });
  it('reuses an adjacent category with the same conditions, else creates one', () => {
    const { body, blockId, itemId } = base();
    const first = addFollowUp(body, itemId, condition, 'open', 'en', 'Why?');
    const block = first.body.entities.blocks[first.blockId]!;
    expect(block.conditions).toEqual(condition);
    expect(first.body.entities.blocks[blockId]!.entities).toEqual([
      { type: 'item', id: itemId },
      { type: 'block', id: first.blockId },
    ]);
    const second = addFollowUp(first.body, itemId, condition, 'open', 'en', 'Since when?');
    expect(second.blockId).toBe(first.blockId);
    const other = addFollowUp(
      first.body,
      itemId,
      [{ itemId: 1, schemaId: 0, condition: { $lt: 1 }, finalized: true }],
      'open',
      'en',
    );
    expect(other.blockId).not.toBe(first.blockId);
  });
});

describe('languages', () => {
  it('adds, renames, sorts and deletes languages, never the primary one', () => {
    let body = addLanguage(newSchemaBody('S'), 'fr', 'French');
    body = addLanguage(body, 'sw', 'Swahili');
    expect(() => addLanguage(body, 'fr', 'French')).toThrow('The form already has French.');
    body = renameLanguage(body, 'fr', 'Français');
    body = sortLanguages(body, ['sw', 'en', 'fr']);
    expect(languages(body).map((l) => l.name)).toEqual(['Swahili', 'English', 'Français']);
    body = deleteLanguage(body, 'sw');
    expect(languages(body).map((l) => l.iso_code_1)).toEqual(['en', 'fr']);
    expect(() => deleteLanguage(body, 'en')).toThrow('The primary language cannot be deleted.');
  });
});
