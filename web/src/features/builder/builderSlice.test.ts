import { describe, expect, it } from 'vitest';
import { addBlock, newSchemaBody } from '@fieldwork/sampler';
import {
  backgroundSaved,
  builderSlice,
  discarded,
  edited,
  loaded,
  saved,
  savingStarted,
  type SchemaDocument,
} from './builderSlice';

const doc = (revision: number, body = newSchemaBody('S')): SchemaDocument => ({
  ...body,
  id: 3,
  name: 'F',
  revision,
  editable: true,
  level: 0,
});
const reduce = builderSlice.reducer;

describe('builder state', () => {
  it('is dirty after an edit and clean after a save', () => {
    let s = reduce(undefined, loaded(doc(1)));
    expect(s.dirty).toBe(false);
    const next = addBlock(s.body!, { en: 'A' }).body;
    s = reduce(s, edited(next));
    expect(s.dirty).toBe(true);
    s = reduce(s, savingStarted());
    s = reduce(s, saved(doc(2, next)));
    expect(s).toMatchObject({ dirty: false, saving: false, revision: 2 });
    expect(s.saved).toEqual(next);
  });
  it('discard restores the last saved copy', () => {
    let s = reduce(undefined, loaded(doc(1)));
    const original = s.body;
    s = reduce(s, edited(addBlock(s.body!, { en: 'A' }).body));
    s = reduce(s, discarded());
    expect(s.body).toEqual(original);
    expect(s.dirty).toBe(false);
  });
  it('a background save leaves the saving and dirty flags alone', () => {
    let s = reduce(undefined, loaded(doc(1)));
    const next = addBlock(s.body!, { en: 'A' }).body;
    s = reduce(s, edited(next));
    s = reduce(s, savingStarted());
    s = reduce(s, backgroundSaved(doc(2, next)));
    expect(s).toMatchObject({ dirty: true, saving: true, revision: 2 });
  });
});
