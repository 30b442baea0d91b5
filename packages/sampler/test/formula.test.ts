// The formula conformance table: every case of formula-conformance.json against Excel's result.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileFormula,
  FormulaCompileError,
  FormulaError,
  NOT_SAVED_SUFFIX,
  parseWithOhm,
  FUNCTIONS,
  type EvalContext,
  type Value,
} from '../src/index.js';
import { fastParse } from '../src/formula/fast-parse.js';

interface Case {
  formula: string;
  expected: number | string | boolean | null | { error: string } | { compile: string };
  /** "LO" (LibreOffice Calc gives the same), or why Excel's or the spec's value is taken instead. */
  source: string;
}
const { cases } = JSON.parse(
  readFileSync(new URL('./conformance/formula-conformance.json', import.meta.url), 'utf8'),
) as { cases: Case[] };

const answers: Record<string, Value> = { '1_1': 10, '1_2': 4, '1_3': 'Nairobi', '1_4': null, '1_5': 2.5, '2_1': 45000 };
const ctx: EvalContext = {
  now: () => new Date('2026-11-22T12:00:00Z'),
  ref: (block, item) => {
    if (item === '*')
      return Object.entries(answers)
        .filter(([k]) => k.startsWith(`${block}_`))
        .map(([, v]) => v as Exclude<Value, unknown[]>);
    const k = `${block}_${item}`;
    return k in answers ? answers[k]! : new FormulaError('REF');
  },
};

function run(formula: string): Value | { compile: string } {
  try {
    return compileFormula(formula).evaluate(ctx);
  } catch (err) {
    if (err instanceof FormulaCompileError) return { compile: err.code };
    throw err;
  }
}

describe('formula conformance table', () => {
  it('has at least 1,500 cases, each with its source', () => {
    expect(cases.length).toBeGreaterThanOrEqual(1500);
    expect(cases.filter((c) => !c.source || c.source === 'none').map((c) => c.formula)).toEqual([]);
    // The few cases not LibreOffice's name Excel's rule or the spec's line.
    for (const c of cases.filter((c) => c.source !== 'LO'))
      expect(c.source).toMatch(/Excel|spec 001|Fieldwork|IronCalc/);
  });

  it('tries every function and every operator many times', () => {
    for (const name of Object.keys(FUNCTIONS)) {
      const n = cases.filter((c) => new RegExp(`\\b${name}\\(`, 'i').test(c.formula)).length;
      expect(n, name).toBeGreaterThanOrEqual(name === 'TODAY' || name === 'NOW' ? 8 : 20);
    }
    const outside = (f: string) => f.replace(/"[^"]*"|'[^']*'/g, '');
    for (const op of ['+', '-', '*', '/', '^', '%', '&', '=', '<>', '<', '>', '<=', '>=']) {
      const n = cases.filter((c) => outside(c.formula).includes(op)).length;
      expect(n, op).toBeGreaterThanOrEqual(30);
    }
  });

  it.each(cases.map((c) => [c.formula, c] as const))('%s', (_f, c) => {
    const got = run(c.formula);
    const e = c.expected;
    if (typeof e === 'number') {
      expect(typeof got, JSON.stringify(got)).toBe('number');
      expect(Math.abs((got as number) - e), `${String(got)} vs ${e}`).toBeLessThanOrEqual(
        1e-9 * Math.max(1, Math.abs(e)),
      );
    } else if (e === null) {
      expect(got).toBeNull();
    } else if (typeof e === 'object' && 'error' in e) {
      expect(got).toBeInstanceOf(FormulaError);
      expect((got as FormulaError).code).toBe(e.error);
    } else if (typeof e === 'object' && 'compile' in e) {
      expect(got).toEqual({ compile: e.compile });
    } else {
      expect(got).toBe(e);
    }
  });
});

describe('formula messages', () => {
  it('reports parse errors with the line, the column and what was expected, and the not-saved suffix', () => {
    try {
      compileFormula('1+\n(2*');
      expect.unreachable();
    } catch (err) {
      const e = err as FormulaCompileError;
      expect(e.code).toBe('ERROR');
      expect(e.position).toMatchObject({ line: 2, column: 4 });
      expect(e.message).toMatch(/^Not a valid formula! Line 2, col 4: expected /);
      expect(e.display.endsWith(' Your calculation will not be saved until fixed.')).toBe(true);
      expect(NOT_SAVED_SUFFIX).toBe(' Your calculation will not be saved until fixed.');
    }
  });
  it('names the error values of spec 001 §8', () => {
    expect(new FormulaError('DIV_ZERO').message).toBe('Cannot divide by 0!');
    expect(new FormulaError('NAME').message).toBe('Name not found!');
    expect(() => compileFormula('ROUND(1)')).toThrow('Less than necessary arguments!');
    expect(() => compileFormula('NOT(1,2)')).toThrow('More than necessary arguments!');
  });
  it('compiles each formula once (the same closure is reused)', () => {
    expect(compileFormula('Q1_1*2+1')).toBe(compileFormula('Q1_1*2+1'));
  });
});

describe('no NaN, infinity or JavaScript text reaches a user (issue 21)', () => {
  /** True when v is what a user may see: a finite number, text without JavaScript words, a logical, empty, an error. */
  const shown = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(shown);
    if (typeof v === 'number') return Number.isFinite(v);
    if (typeof v === 'string') return !/undefined|\[object|NaN|Infinity/.test(v);
    return typeof v === 'boolean' || v === null || v instanceof FormulaError;
  };
  const strange: unknown[] = [undefined, {}, Number.NaN, Infinity, -Infinity, [undefined, {}, Number.NaN], () => 1];
  const withRef = (x: unknown): EvalContext => ({ now: ctx.now, ref: () => x as Value });

  it('turns what a question reference should never give into empty or an error value', () => {
    const formulas = ['Q1_1', 'Q1_1&""', 'Q1_1+1', 'CONCATENATE(Q1_1,"!")', 'SUM(Q1_*)', 'IF(TRUE,Q1_1)', 'LEN(Q1_1)'];
    for (const x of strange) {
      for (const f of [...formulas, 'UPPER(Q1_1)', 'Q1_1=1', 'COUNTA(Q1_*)', 'IFERROR(Q1_1,"x")', 'TRIM(Q1_1)&Q1_1']) {
        const got = compileFormula(f).evaluate(withRef(x));
        expect(shown(got), `${f} with ${String(x)}: ${String(got)}`).toBe(true);
      }
    }
    // By hand: an undefined answer is an unanswered question (0 in arithmetic, "" in text, Excel's empty cell);
    // NaN and infinities are #NUM!, an object #VALUE!.
    expect(compileFormula('Q1_1+1').evaluate(withRef(undefined))).toBe(1);
    expect(compileFormula('Q1_1&"x"').evaluate(withRef(undefined))).toBe('x');
    expect((compileFormula('Q1_1&"x"').evaluate(withRef(Number.NaN)) as FormulaError).code).toBe('NUM');
    expect((compileFormula('Q1_1*2').evaluate(withRef(Infinity)) as FormulaError).code).toBe('NUM');
    expect((compileFormula('Q1_1&"x"').evaluate(withRef({})) as FormulaError).code).toBe('VALUE');
  });

  it('gives a value a user may see for every function at the ends of the number range', () => {
    const extremes = ['1e308', '-1e308', '1e-308', '0', '-1', '""', '"x"', 'TRUE', 'Q1_4', '1e400', '400', '-400'];
    let calls = 0;
    for (const [name, def] of Object.entries(FUNCTIONS)) {
      const n = Math.min(Math.max(def.min, 1), def.max, 3);
      if (def.max === 0) continue;
      for (const x of extremes) {
        const arglists = [Array(n).fill(x), [x, ...Array(n - 1).fill('2')], ['2', ...Array(n - 1).fill(x)]];
        for (const args of arglists) {
          const f = `${name}(${args.join(',')})`;
          const got = compileFormula(f).evaluate(ctx);
          expect(shown(got), `${f}: ${String(got)}`).toBe(true);
          const text = compileFormula(`${f}&""`).evaluate(ctx);
          expect(shown(text), `${f}&"": ${String(text)}`).toBe(true);
          calls++;
        }
      }
    }
    expect(calls).toBeGreaterThan(1000);
  });

  it('compiles 1e400 to #NUM!, never Infinity or "InfinityE+NaN" (Excel: #NUM!)', () => {
    for (const f of ['1e400', '1e400&""', '"x"&10^308*10', 'ROUND(1e308*10,2)']) {
      const got = compileFormula(f).evaluate(ctx);
      expect((got as FormulaError).code, f).toBe('NUM');
    }
  });
});

describe('the spec’s infix NOT and empty arguments (issue 21)', () => {
  it('reads a NOT b as a <> b at the comparisons’ precedence, and keeps NOT( ) the function', () => {
    // Spec 001 §5: "Operators: & (concatenation); = > < >= <> NOT".
    expect(compileFormula('Q1_1 NOT Q1_2').evaluate(ctx)).toBe(true);
    expect(compileFormula('2*5 not 10').evaluate(ctx)).toBe(false);
    expect(compileFormula('NOT(TRUE)').evaluate(ctx)).toBe(false);
    expect(() => compileFormula('1 NOT')).toThrow(FormulaCompileError);
    expect(() => compileFormula('NOTE(1)')).toThrow('Name not found!');
  });
  it('counts an empty argument against the argument count (Excel: NOT(TRUE,) has too many arguments)', () => {
    expect(() => compileFormula('NOT(TRUE,)')).toThrow('More than necessary arguments!');
    expect(() => compileFormula('ROUND(,)')).not.toThrow();
    expect(() => compileFormula('ABS()')).toThrow('Less than necessary arguments!');
  });
});

describe('the fast path of the parser builds the tree ohm-js builds (issue 21, speed)', () => {
  const treeOf = (f: string) => {
    try {
      return parseWithOhm(f);
    } catch (err) {
      return err instanceof FormulaCompileError ? 'error' : 'threw';
    }
  };
  it('agrees with ohm-js on every conformance formula, and takes most of them', () => {
    let fast = 0;
    for (const c of cases) {
      const tree = fastParse(c.formula);
      if (tree === undefined) continue;
      fast++;
      expect(tree, c.formula).toEqual(treeOf(c.formula));
    }
    expect(fast).toBeGreaterThan(cases.length * 0.8);
  });
  it('agrees with ohm-js on random formulas wherever it answers (a seeded fuzz of 3,000)', () => {
    const parts = [
      '1',
      '2.5',
      '.5',
      '1e3',
      '1E-2',
      '1.',
      '"a"',
      "'b'",
      '""""',
      'TRUE',
      'false',
      'Q1_1',
      'q2_3',
      'Q1_*',
      'Q1_',
      'x',
      '+',
      '-',
      '*',
      '/',
      '^',
      '%',
      '&',
      '=',
      '<>',
      '<',
      '>',
      '<=',
      '>=',
      ' NOT ',
      'not',
      '(',
      ')',
      ',',
      ' ',
      'SUM(',
      'IF(',
      'NOT(',
      'ROUND(',
      'é',
      '10:30',
      '\t',
      '=',
      '1e',
      'Q1_*2',
      'TRUE(',
    ];
    let seed = 21;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let answered = 0;
    for (let k = 0; k < 3000; k++) {
      const len = 1 + Math.floor(random() * 9);
      const f = Array.from({ length: len }, () => parts[Math.floor(random() * parts.length)]).join('');
      const tree = fastParse(f);
      if (tree === undefined) continue;
      answered++;
      expect(tree, f).toEqual(treeOf(f));
    }
    expect(answered).toBeGreaterThan(100);
  });
});

describe('evaluation', () => {
  it('keeps each evaluation’s answers when a formula is evaluated again from within one of its references', () => {
    const f = compileFormula('SUM(Q1_1, 1) + IF(TRUE, Q1_1)');
    const inner: EvalContext = { now: ctx.now, ref: () => 5 };
    const outer: EvalContext = { now: ctx.now, ref: () => f.evaluate(inner) }; // inner: 5+1 + 5 = 11
    expect(f.evaluate(outer)).toBe(23); // 11+1 + 11, by hand
  });
});
