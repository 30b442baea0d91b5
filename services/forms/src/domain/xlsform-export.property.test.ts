// Generated XLSForms through the round trip: import, export, import again. Whatever the rows, the export never throws,
// and the second form is the first unless the export said what it changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sheet } from './convert.js';
import { fromXlsForm } from './xlsform.js';
import { toXlsForm } from './xlsform-export.js';
import { row, sheets } from '../../test/xlsform-arbitraries.js';
import { shape } from '../../test/form-shape.js';

const asSheet = (name: string, table: string[][]): Sheet => ({
  name,
  rows: table.map((values, i) => ({ row: i + 1, values })),
});

describe('toXlsForm on generated forms', () => {
  it('writes what imports again as the same form, or says what it changed', () => {
    let exact = 0;
    let noted = 0;
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const first = fromXlsForm(sheets(rows), 'S');
        const { tables, notes } = toXlsForm(first.body, { title: first.name ?? 'Generated' });
        const second = fromXlsForm(
          {
            survey: asSheet('survey', tables.survey),
            choices: asSheet('choices', tables.choices),
            settings: asSheet('settings', tables.settings),
          },
          'S',
        );
        if (notes.length > 0) {
          noted++;
          return;
        }
        expect(shape(second.body)).toEqual(shape(first.body));
        exact++;
      }),
      { numRuns: 300 },
    );
    console.log(`round trip of generated forms: ${exact} exact, ${noted} with export notes`);
    // About half the generated forms have nothing the export needs to note (the rest mostly have names that are no
    // XLSForm names, such as "a b"): the comparison runs often enough not to be vacuous.
    expect(exact).toBeGreaterThanOrEqual(75);
  });
});
