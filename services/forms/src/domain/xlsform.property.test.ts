// Generated and mutated survey rows (odd characters, deep nesting, long expressions, repeated names) fed to the
// XLSForm converter: it never throws, never produces a form the builder would refuse, reports losses at real rows,
// and its work stays proportional to its input (entities built, measured, not wall-clock time).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFormula, itemValid } from '@fieldwork/sampler';
import { documentProblems } from './document.js';
import type { Sheet } from './convert.js';
import { fromXlsForm, MAX_GROUP_DEPTH } from './xlsform.js';

const HEADER = ['type', 'name', 'label', 'label::Français (fr)', 'hint', 'required', 'relevant', 'calculation', 'constraint', 'constraint_message', 'appearance', 'choice_filter'];
const NAMES = ['a', 'b', 'c', 'age', 'name', 'x_1', 'Ünï', 'a b', '${a}', ''];
const TYPES = [
  'text', 'integer', 'decimal', 'range', 'date', 'datetime', 'time', 'geopoint', 'geotrace', 'image', 'audio', 'barcode', 'note', 'calculate', 'acknowledge',
  'select_one yn', 'select_multiple yn', 'select_one yn or_other', 'select one from yn', 'select_one missing', 'select_one_from_file f.csv', 'rank yn',
  'begin group', 'begin_group', 'end group', 'end_group', 'begin repeat', 'end repeat', 'start', 'end', 'deviceid', 'teleport', '', 'BEGIN GROUP', 'end   group',
];
const odd = fc.string({ unit: fc.constantFrom('a', 'é', '中', '\u0000', '\n', '"', "'", '$', '{', '}', '(', ')', '.', '=', ' ', '<', '>', '\u202e', '😀'), maxLength: 30 });
const ref = fc.constantFrom(...NAMES).map((n) => `\${${n}}`);
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    ref,
    fc.integer({ min: -1000, max: 1000 }).map(String),
    fc.constantFrom("'yes'", "'no'", '.', 'today()', "selected(${a}, 'yes')", 'string-length(.)', "regex(., '^[0-9]+$')", 'count-selected(.)'),
    fc.tuple(tie('e'), fc.constantFrom(' + ', ' - ', ' * ', ' div ', ' mod ', ' = ', ' != ', ' > ', ' <= ', ' and ', ' or '), tie('e')).map(([l, op, r]) => l + op + r),
    tie('e').map((e) => `(${e})`),
    tie('e').map((e) => `not(${e})`),
    fc.tuple(fc.constantFrom('if', 'round', 'concat', 'coalesce', 'int', 'pow'), fc.array(tie('e'), { maxLength: 3 })).map(([f, a]) => `${f}(${a.join(', ')})`),
  ),
})).e;
const cell = fc.oneof(odd, expr, fc.constant(''));

const row = fc.record({
  type: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: odd }),
  name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: odd }),
  label: cell,
  fr: cell,
  hint: cell,
  required: fc.constantFrom('', 'yes', 'true()', 'TRUE', '1', 'no', '${a} = 1'),
  relevant: fc.oneof(fc.constant(''), expr),
  calculation: fc.oneof(fc.constant(''), expr),
  constraint: fc.oneof(fc.constant(''), expr),
  message: cell,
  appearance: fc.constantFrom('', 'signature', 'minimal', 'field-list'),
  filter: fc.constantFrom('', "x = 'a'"),
  blanks: fc.nat({ max: 2 }),
});

function sheets(rows: (typeof row extends fc.Arbitrary<infer T> ? T : never)[]) {
  const survey: Sheet = { name: 'survey', rows: [{ row: 1, values: HEADER }] };
  let n = 1;
  for (const r of rows) {
    n += 1 + r.blanks; // blank rows are not listed, but counted
    survey.rows.push({ row: n, values: [r.type, r.name, r.label, r.fr, r.hint, r.required, r.relevant, r.calculation, r.constraint, r.message, r.appearance, r.filter] });
  }
  const choices: Sheet = {
    name: 'choices',
    rows: [
      { row: 1, values: ['list_name', 'name', 'label'] },
      { row: 2, values: ['yn', 'yes', 'Yes'] },
      { row: 3, values: ['yn', 'no', 'No'] },
    ],
  };
  return { survey, choices };
}

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
        expect(new Set(Object.values(body.entities.items).map((i) => i.codeName)).size).toBe(Object.keys(body.entities.items).length);
      }),
      { numRuns: 300 },
    );
  });

  it('survives 10,000 nested groups and a 4,000-character expression, keeping nesting bounded', () => {
    const rows: Sheet['rows'] = [{ row: 1, values: ['type', 'name', 'label', 'relevant', 'calculation'] }];
    for (let d = 0; d < 10_000; d++) rows.push({ row: d + 2, values: ['begin group', `g${d}`, `G${d}`, '', ''] });
    const long = Array.from({ length: 1000 }, () => '${a}').join(' + ');
    rows.push({ row: 10_002, values: ['integer', 'a', 'A', '', ''] }, { row: 10_003, values: ['calculate', 'sum', '', '('.repeat(500) + '1' + ')'.repeat(500), long] });
    const c = fromXlsForm({ survey: { name: 'survey', rows } }, 'S');
    const depth = (id: number, seen = 0): number => {
      const parent = Object.values(c.body.entities.blocks).find((b) => b.entities.some((e) => e.type === 'block' && e.id === id));
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
