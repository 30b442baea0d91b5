// Generated and mutated survey rows (odd characters, deep nesting, long expressions, repeated names) fed to the
// XLSForm converter: it never throws, never produces a form the builder would refuse, reports losses at real rows,
// and its work stays proportional to its input (entities built, measured, not wall-clock time).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFormula, itemValid } from '@fieldwork/sampler';
import { documentProblems } from './document.js';
import type { Sheet } from './convert.js';
import { fromXlsForm, MAX_GROUP_DEPTH } from './xlsform.js';
import { HEADER, row, sheets } from '../../test/xlsform-arbitraries.js';

describe('fromXlsForm on generated survey rows', () => {
  it('never throws, builds only what the builder accepts, and does work proportional to the rows', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), (rows) => {
        const input = sheets(rows);
        const c = fromXlsForm(input, 'S');
        const rowNumbers = new Set([...input.survey.rows, ...input.choices.rows].map((r) => r.row));
        for (const n of c.notes) {
          if (n.sheet === 'survey') expect(rowNumbers.has(n.row), `note on row ${n.row}`).toBe(true);
        }
        const body = c.body;
        for (const item of Object.values(body.entities.items)) {
          expect(itemValid(item, body.primary_language, body), item.codeName).toBe(true);
          if (item.type === 'calculated') expect(() => compileFormula(item.options.formula ?? '')).not.toThrow();
        }
        expect(documentProblems(body)).toEqual({});
        // Work: at most three items, two categories and three choices (+ the list) per row; one note per cell at most.
        expect(Object.keys(body.entities.items).length).toBeLessThanOrEqual(3 * rows.length);
        expect(Object.keys(body.entities.blocks).length).toBeLessThanOrEqual(2 * rows.length + 1);
        expect(Object.keys(body.entities.choices).length).toBeLessThanOrEqual(5 * rows.length);
        expect(c.notes.length).toBeLessThanOrEqual(rows.length * (HEADER.length + 2) + 1);
        expect(new Set(Object.values(body.entities.items).map((i) => i.codeName)).size).toBe(
          Object.keys(body.entities.items).length,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('survives 10,000 nested groups and a 4,000-character expression, keeping nesting bounded', () => {
    const rows: Sheet['rows'] = [{ row: 1, values: ['type', 'name', 'label', 'relevant', 'calculation'] }];
    for (let d = 0; d < 10_000; d++) rows.push({ row: d + 2, values: ['begin group', `g${d}`, `G${d}`, '', ''] });
    const long = Array.from({ length: 1000 }, () => '${a}').join(' + ');
    rows.push(
      { row: 10_002, values: ['integer', 'a', 'A', '', ''] },
      { row: 10_003, values: ['calculate', 'sum', '', '('.repeat(500) + '1' + ')'.repeat(500), long] },
    );
    const c = fromXlsForm({ survey: { name: 'survey', rows } }, 'S');
    const depth = (id: number, seen = 0): number => {
      const parent = Object.values(c.body.entities.blocks).find((b) =>
        b.entities.some((e) => e.type === 'block' && e.id === id),
      );
      return parent ? depth(parent.id, seen + 1) : seen + 1;
    };
    const deepest = Math.max(...Object.values(c.body.entities.blocks).map((b) => depth(b.id)));
    expect(deepest).toBe(MAX_GROUP_DEPTH);
    expect(c.questions).toBe(1);
    expect(c.notes.filter((n) => n.message.includes('nested deeper')).length).toBe(10_000 - MAX_GROUP_DEPTH);
    expect(c.notes.find((n) => n.row === 10_003 && n.column === 'calculation')?.message).toContain('not converted');
    expect(c.notes.find((n) => n.row === 10_003 && n.column === 'relevant')?.message).toContain('not converted');
  });
});
