// Generated XLSForm survey rows for property-based tests: odd characters, deep nesting, long expressions, repeated
// names, blank rows; and the survey and choices sheets made of them.
import fc from 'fast-check';
import type { Sheet } from '../src/domain/convert.js';

export const HEADER = [
  'type',
  'name',
  'label',
  'label::Français (fr)',
  'hint',
  'required',
  'relevant',
  'calculation',
  'constraint',
  'constraint_message',
  'appearance',
  'choice_filter',
];
const NAMES = ['a', 'b', 'c', 'age', 'name', 'x_1', 'Ünï', 'a b', '${a}', ''];
const TYPES = [
  'text',
  'integer',
  'decimal',
  'range',
  'date',
  'datetime',
  'time',
  'geopoint',
  'geotrace',
  'image',
  'audio',
  'barcode',
  'note',
  'calculate',
  'acknowledge',
  'select_one yn',
  'select_multiple yn',
  'select_one yn or_other',
  'select one from yn',
  'select_one missing',
  'select_one_from_file f.csv',
  'rank yn',
  'begin group',
  'begin_group',
  'end group',
  'end_group',
  'begin repeat',
  'end repeat',
  'start',
  'end',
  'deviceid',
  'teleport',
  '',
  'BEGIN GROUP',
  'end   group',
];
const odd = fc.string({
  unit: fc.constantFrom(
    'a',
    'é',
    '中',
    '\u0000',
    '\n',
    '"',
    "'",
    '$',
    '{',
    '}',
    '(',
    ')',
    '.',
    '=',
    ' ',
    '<',
    '>',
    '\u202e',
    '😀',
  ),
  maxLength: 30,
});
const ref = fc.constantFrom(...NAMES).map((n) => `\${${n}}`);
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    ref,
    fc.integer({ min: -1000, max: 1000 }).map(String),
    fc.constantFrom(
      "'yes'",
      "'no'",
      '.',
      'today()',
      "selected(${a}, 'yes')",
      'string-length(.)',
      "regex(., '^[0-9]+$')",
      'count-selected(.)',
    ),
    fc
      .tuple(
        tie('e'),
        fc.constantFrom(' + ', ' - ', ' * ', ' div ', ' mod ', ' = ', ' != ', ' > ', ' <= ', ' and ', ' or '),
        tie('e'),
      )
      .map(([l, op, r]) => l + op + r),
    tie('e').map((e) => `(${e})`),
    tie('e').map((e) => `not(${e})`),
    fc
      .tuple(fc.constantFrom('if', 'round', 'concat', 'coalesce', 'int', 'pow'), fc.array(tie('e'), { maxLength: 3 }))
      .map(([f, a]) => `${f}(${a.join(', ')})`),
  ),
})).e;
const cell = fc.oneof(odd, expr, fc.constant(''));

export const row = fc.record({
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

export function sheets(rows: (typeof row extends fc.Arbitrary<infer T> ? T : never)[]) {
  const survey: Sheet = { name: 'survey', rows: [{ row: 1, values: HEADER }] };
  let n = 1;
  for (const r of rows) {
    n += 1 + r.blanks; // blank rows are not listed, but counted
    survey.rows.push({
      row: n,
      values: [
        r.type,
        r.name,
        r.label,
        r.fr,
        r.hint,
        r.required,
        r.relevant,
        r.calculation,
        r.constraint,
        r.message,
        r.appearance,
        r.filter,
      ],
    });
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
