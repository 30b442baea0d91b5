import { describe, expect, it } from 'vitest';
import { compileFormula, FormulaCompileError } from './formula/index.js';

/** The error compiling `text` throws, or undefined when it compiles. */
function refusal(text: string): FormulaCompileError | undefined {
  try {
    compileFormula(text);
    return undefined;
  } catch (err) {
    if (err instanceof FormulaCompileError) return err;
    throw err;
  }
}

const chain = (n: number, op = '+') => Array.from({ length: n }, (_, i) => `Q1_${i + 1}`).join(op);

describe('formula bounds (issue 18: nested and huge formulas answered 500)', () => {
  it('refuses a formula longer than 4000 characters before parsing it, at once', () => {
    const huge = chain(40_000); // 40,000 terms: seconds of CPU, then a stack overflow, before the bound
    const start = performance.now();
    const err = refusal(huge);
    expect(performance.now() - start).toBeLessThan(100);
    expect(err?.message).toBe('Not a valid formula! A formula holds at most 4000 characters.');
    expect(err?.code).toBe('ERROR');
    expect(err?.display).toBe(
      'Not a valid formula! A formula holds at most 4000 characters. Your calculation will not be saved until fixed.',
    );
    expect(refusal(`1${' '.repeat(3998)}`)).toBeUndefined();
  });

  it('refuses more than 256 operators, counting signs and comparisons, not characters inside strings', () => {
    expect(refusal(chain(257))).toBeUndefined(); // 256 operators
    expect(refusal(chain(258))?.message).toBe('Not a valid formula! A formula holds at most 256 operators.');
    expect(refusal(Array.from({ length: 129 }, () => '1%').join('+'))?.message).toBe(
      'Not a valid formula! A formula holds at most 256 operators.',
    );
    expect(refusal(`"${'+'.repeat(1000)}" & "x"`)).toBeUndefined();
    expect(refusal(chain(200, '*'))).toBeUndefined();
  });

  it('refuses nesting deeper than 32 levels of parentheses, functions and signs', () => {
    const depth = 'Not a valid formula! A formula nests at most 32 levels of parentheses, functions and signs.';
    expect(refusal(`${'('.repeat(32)}1${')'.repeat(32)}`)).toBeUndefined();
    expect(refusal(`${'ABS('.repeat(16)}${'('.repeat(16)}Q1_2${')'.repeat(32)}`)).toBeUndefined();
    for (const d of [33, 100, 150, 50_000 / 2]) {
      expect(refusal(`${'('.repeat(d)}1${')'.repeat(d)}`)?.message, `parentheses ${d}`).toBe(
        d * 2 + 1 > 4000 ? 'Not a valid formula! A formula holds at most 4000 characters.' : depth,
      );
      expect(
        refusal(`${'SQRT('.repeat(Math.min(d, 600))}4${')'.repeat(Math.min(d, 600))}`)?.message,
        `functions ${d}`,
      ).toBe(depth);
    }
    expect(refusal(`${'-'.repeat(33)}1`)?.message).toBe(depth);
    expect(refusal(`1+${'-'.repeat(31)}1`)?.message).toBeUndefined();
    // Parentheses in strings are text.
    expect(refusal(`"${'('.repeat(100)}" & ")"`)).toBeUndefined();
    expect(refusal(`'it''s ${'('.repeat(100)}' & 1`)).toBeUndefined();
  });

  it('still compiles and evaluates formulas at the bounds (deep inside a call stack as in a service)', () => {
    const deep = (n: number, f: () => number): number => (n === 0 ? f() : deep(n - 1, f) + 0);
    const ops = ['+', '*', '-', '/', '^', '&'];
    const mixed = Array.from({ length: 250 }, (_, i) => `Q1_${i + 2}`).reduce(
      (a, b, i) => `${a}${ops[i % ops.length]}${b}`,
    );
    const text = `${'ABS('.repeat(13)}${'('.repeat(13)}${mixed}${')'.repeat(26)}`;
    expect(text.length).toBeLessThanOrEqual(4000);
    expect(
      deep(5000, () => {
        compileFormula(text).evaluate({ ref: () => 1 } as never);
        return 1;
      }),
    ).toBe(1);
  });
});

describe('bad input gives the spec’s error with its position (issue 21)', () => {
  it('answers a formula 10,000 levels deep or 1 MB long with Not a valid formula! and where it stopped', () => {
    const deep = refusal(`${'('.repeat(10_000)}1${')'.repeat(10_000)}`);
    expect(deep?.code).toBe('ERROR');
    expect(deep?.position).toEqual({ line: 1, column: 4001, expected: [] }); // the 4001st character passes the bound
    const long = refusal(`${'1+\n'.repeat(350_000)}1`); // 1 MB over 350,000 lines
    expect(long?.message).toBe('Not a valid formula! A formula holds at most 4000 characters.');
    expect(long?.position).toMatchObject({ line: 1334, column: 2 }); // character 4001: 1333 lines of 3, then "1+"
    const nested = refusal(`${'ABS('.repeat(40)}1${')'.repeat(40)}`);
    expect(nested?.message).toBe(
      'Not a valid formula! A formula nests at most 32 levels of parentheses, functions and signs.',
    );
    expect(nested?.position).toEqual({ line: 1, column: 132, expected: [] }); // the 33rd "(" (4 characters each)
  });

  it('names an unknown function or a wrong argument count with its place in the formula', () => {
    const unknown = refusal('SUM(1, "FOO(", foo(2))');
    expect(unknown?.message).toBe('Name not found!');
    expect(unknown?.token).toBe('FOO');
    expect(unknown?.position).toEqual({ line: 1, column: 16, expected: [] }); // not the FOO inside the text
    const few = refusal('1+\n  ROUND(2)');
    expect(few?.message).toBe('Less than necessary arguments!');
    expect(few?.position).toEqual({ line: 2, column: 3, expected: [] });
  });
});
