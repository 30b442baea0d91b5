// The corpus round trip (issue 23 item 6): each public XLSForm that imports is exported and imported again, and the
// second form must equal the first: questions (names, types, labels in every language), choices, required, rules,
// conditions, formulas, hints and group nesting, compared as trees that name everything by code name, not by id.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Block, ConditionEntry, Item, SchemaBody } from '@fieldwork/sampler';
import { ConversionRefused, type Converted } from '../domain/convert.js';
import { convertUpload } from '../domain/workbook.js';
import { xlsFormFile } from '../domain/xlsform-export.js';

const DIR = join(import.meta.dirname, '../../test/fixtures/xlsforms');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.xlsx'));

/** The form as a tree without ids: blocks and items in order, references by code name. */
export function shape(body: SchemaBody) {
  const { items, choices, blocks } = body.entities;
  const code = (id: number) => items[id]?.codeName ?? `?${id}`;
  const conditions = (entries: ConditionEntry[]) =>
    entries.map((e) => {
      if ('operator' in e) return e.operator;
      const item = items[e.itemId];
      const condition = Array.isArray(e.condition) ? e.condition.map((c) => (item?.options.choices?.includes(c) ? choices[c]?.codeName : `?${c}`)) : e.condition;
      return { item: code(e.itemId), schema: e.schemaId, condition, finalized: e.finalized };
    });
  const item = (i: Item) => {
    const o = i.options;
    return {
      code: i.codeName,
      type: i.type,
      name: i.name,
      instruction: i.instruction,
      required: o.isRequiredQuestion,
      multiselect: o.multiselect,
      allowDecimal: o.allowDecimal,
      rules: { minimum: o.minimum, maximum: o.maximum, minLength: o.minLength, maxLength: o.maxLength, minChoices: o.minChoices, maxChoices: o.maxChoices, pattern: o.pattern },
      formula: o.formula?.replace(/Q(\d+)_(\d+)/g, (_m, _b, id: string) => `{${code(Number(id))}}`),
      choices: (o.choices ?? []).map((c) => ({ code: choices[c]!.codeName, name: choices[c]!.name })),
    };
  };
  const block = (b: Block): unknown => ({
    name: b.name,
    conditions: conditions(b.conditions),
    entities: b.entities.map((e) => (e.type === 'item' ? item(items[e.id]!) : block(blocks[e.id]!))),
  });
  return {
    primary: body.primary_language,
    languages: Object.values(body.entities.languages).map((l) => ({ code: l.iso_code_1, name: l.name })),
    form: body.form.map((id) => block(blocks[id]!)),
  };
}

const load = async (content: Buffer): Promise<Converted> => (await convertUpload('xlsx', content, 'S')).converted;

describe('the XLSForm corpus round trip', () => {
  it.each(FILES)('%s: export, import again, same form', async (file) => {
    let first: Converted;
    try {
      first = await load(readFileSync(join(DIR, file)));
    } catch (err) {
      // Forms the importer refuses (no survey sheet, no questions) have nothing to export; the corpus test covers them.
      expect(err).toBeInstanceOf(ConversionRefused);
      return;
    }
    const exported = await xlsFormFile(first.body, { title: first.name ?? file });
    const second = await load(exported.content);
    expect(shape(second.body)).toEqual(shape(first.body));
    expect(second.name ?? file).toBe(first.name ?? file);
    // The importer's own output is XLSForm through and through: nothing it made is a loss when written back.
    expect(exported.notes).toEqual([]);
    expect(second.questions).toBe(first.questions);
  });
});
