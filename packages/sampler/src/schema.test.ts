import { describe, expect, it } from 'vitest';
import { countQuestions, newSchemaBody } from './schema.js';

describe('newSchemaBody', () => {
  it('starts empty, version 1.0, with one language', () => {
    const body = newSchemaBody('S');
    expect(body).toMatchObject({ version: '1.0', form: [], counters: { blocks: 0, items: 0, languages: 1 } });
    expect(countQuestions(body)).toBe(0);
  });
  it('gives a longitudinal schema the Enrollment category: Identifier (primary key, 0 to 10000000) and Name (lookup)', () => {
    const body = newSchemaBody('L');
    expect(body.entities.blocks['1']!.name.en).toBe('Enrollment');
    expect(body.entities.items['1']).toMatchObject({
      codeName: 'longitudinal_id',
      type: 'number',
      options: { isPrimaryKey: true, minimum: { value: 0 }, maximum: { value: 10_000_000 } },
    });
    expect(body.entities.items['2']).toMatchObject({
      codeName: 'name',
      type: 'open',
      options: { isLookupQuestion: true },
    });
    expect(countQuestions(body)).toBe(2);
  });
  it('does not count deleted items, instructions or empty items', () => {
    const body = newSchemaBody('L');
    body.entities.items['2']!.deleted = true;
    body.entities.items['3'] = {
      id: 3,
      name: { en: 'Read this' },
      codeName: 'i',
      type: 'instruction',
      options: {},
      deleted: false,
    };
    expect(countQuestions(body)).toBe(1);
  });
});
