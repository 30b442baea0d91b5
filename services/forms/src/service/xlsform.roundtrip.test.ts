// The corpus round trip (issue 23 item 6): each public XLSForm that imports is exported and imported again, and the
// second form must equal the first: questions (names, types, labels in every language), choices, required, rules,
// conditions, formulas, hints and group nesting, compared as trees that name everything by code name, not by id.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversionRefused, type Converted } from '../domain/convert.js';
import { convertUpload } from '../domain/workbook.js';
import { xlsFormFile } from '../domain/xlsform-export.js';
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
    const exported = await xlsFormFile(first.body, { title: first.name ?? file });
    const second = await load(exported.content);
    expect(shape(second.body)).toEqual(shape(first.body));
    expect(second.name ?? file).toBe(first.name ?? file);
    // The importer's own output is XLSForm through and through: nothing it made is a loss when written back.
    expect(exported.notes).toEqual([]);
    expect(second.questions).toBe(first.questions);
  });
});
