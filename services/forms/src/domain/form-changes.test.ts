import { describe, expect, it } from 'vitest';
import { addBlock, addItem, deleteItem, newSchemaBody, updateItem, type SchemaBody } from '@fieldwork/sampler';
import { changeCount, changeFields, formChanges } from './form-changes.js';

/** A form with one block holding the given questions (code name and type, in order). */
function form(questions: [string, string][]): SchemaBody {
  const b = addBlock(newSchemaBody('S'), { en: 'Block' });
  let body = b.body;
  for (const [code, type] of questions) {
    const q = addItem(body, b.id, type as never, 'en', code);
    body = updateItem(q.body, q.id, { codeName: code });
  }
  return body;
}

describe(formChanges.name, () => {
  it('finds nothing between a form and itself', () => {
    const f = form([
      ['adults', 'number'],
      ['fuel', 'choice'],
    ]);
    expect(formChanges(f, f)).toEqual({ added: [], removed: [], retyped: [] });
    expect(changeCount(formChanges(f, f))).toBe(0);
  });

  it('lists added, removed and retyped questions by code name, sorted', () => {
    const current = form([
      ['adults', 'number'],
      ['fuel', 'choice'],
      ['note', 'text'],
    ]);
    const next = form([
      ['zone', 'text'],
      ['note', 'text'],
      ['adults', 'text'],
      ['children', 'number'],
    ]);
    const c = formChanges(current, next);
    expect(c).toEqual({
      added: [
        { codeName: 'children', type: 'number' },
        { codeName: 'zone', type: 'text' },
      ],
      removed: [{ codeName: 'fuel', type: 'choice' }],
      retyped: [{ codeName: 'adults', from: 'number', to: 'text' }],
    });
    expect(changeCount(c)).toBe(4);
    expect(changeFields(c)).toEqual({
      fuel: ['removed', 'choice'],
      adults: ['retyped', 'number', 'text'],
      children: ['added', 'number'],
      zone: ['added', 'text'],
    });
  });

  it('treats a renamed code as one question removed and one added', () => {
    expect(formChanges(form([['adults', 'number']]), form([['grown_ups', 'number']]))).toEqual({
      added: [{ codeName: 'grown_ups', type: 'number' }],
      removed: [{ codeName: 'adults', type: 'number' }],
      retyped: [],
    });
  });

  it('ignores deleted items and instructions', () => {
    const withNote = form([
      ['adults', 'number'],
      ['read_me', 'instruction'],
    ]);
    const gone = Object.values(withNote.entities.items).find((i) => i.codeName === 'adults')!;
    const deleted = deleteItem(withNote, gone.id);
    expect(formChanges(deleted, form([]))).toEqual({ added: [], removed: [], retyped: [] });
    expect(formChanges(form([]), withNote).added).toEqual([{ codeName: 'adults', type: 'number' }]);
  });
});
