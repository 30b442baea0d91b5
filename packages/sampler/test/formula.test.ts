// The formula conformance table: every case of formula-conformance.json against Excel's result.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileFormula,
  FormulaCompileError,
  FormulaError,
  NOT_SAVED_SUFFIX,
  type EvalContext,
  type Value,
} from '../src/index.js';

interface Case {
  formula: string;
  expected: number | string | boolean | { error: string } | { compile: string };
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
  it('has at least 300 cases', () => expect(cases.length).toBeGreaterThanOrEqual(300));

  it.each(cases.map((c) => [c.formula, c] as const))('%s', (_f, c) => {
    const got = run(c.formula);
    const e = c.expected;
    if (typeof e === 'number') {
      expect(typeof got, JSON.stringify(got)).toBe('number');
      expect(got as number).toBeCloseTo(e, 9);
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
