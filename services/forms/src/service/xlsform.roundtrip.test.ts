// The corpus round trip (issue 23 item 6): each public XLSForm that imports is exported and imported again, and the
// second form must equal the first: questions (names, types, labels in every language), choices, required, rules,
// conditions, formulas, hints and group nesting, compared as trees that name everything by code name, not by id;
// and the levels made of repeats, each form compared the same way.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversionRefused, type Converted } from '../domain/convert.js';
import { convertUpload } from '../domain/workbook.js';
import { xlsFormFile } from '../domain/xlsform-export.js';
import { levelSchemaPlaceholder } from '../domain/xlsform.js';
import { shape } from '../../test/form-shape.js';

const DIR = join(import.meta.dirname, '../../test/fixtures/xlsforms');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.xlsx'));

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
    // The levels made of repeats are written back as repeats (their conditions name the parent level's questions by
    // the importer's placeholder ids, which stand for the schema ids here).
    const levels = (first.levels ?? []).map((l, i) => ({ name: l.name, body: l.body, schemaId: levelSchemaPlaceholder(i + 1) }));
    const exported = await xlsFormFile(first.body, { title: first.name ?? file, schemaId: levelSchemaPlaceholder(0), levels });
    const second = await load(exported.content);
    expect(shape(second.body)).toEqual(shape(first.body));
    const forms = (c: Converted) => [c.body, ...(c.levels ?? []).map((l) => l.body)];
    const shapes = (c: Converted) => forms(c).map((f, i) => shape(f, i > 0 ? { [levelSchemaPlaceholder(i - 1)]: forms(c)[i - 1]! } : {}));
    expect(shapes(second)).toEqual(shapes(first));
    expect(second.levels?.map((l) => l.name)).toEqual(first.levels?.map((l) => l.name));
    expect(second.name ?? file).toBe(first.name ?? file);
    // The importer's own output is XLSForm through and through: nothing it made is a loss when written back.
    expect(exported.notes).toEqual([]);
    expect(second.questions).toBe(first.questions);
  });
});
