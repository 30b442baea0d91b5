import { describe, expect, it } from 'vitest';
import { compileFormula, type EvalContext } from './formula/index.js';

describe('EvalContext.aggregate', () => {
  it('answers SUM, AVERAGE, MIN, MAX and COUNT without the list, with the references the arguments name', () => {
    const seen: string[] = [];
    const ctx: EvalContext = {
      ref: () => {
        throw new Error('the list was read');
      },
      now: () => new Date(0),
      aggregate: (name, args) => {
        seen.push(`${name}(${args.map((a) => (a.refTo ? `Q${a.refTo.block}_${a.refTo.item}` : 'x')).join(',')})`);
        return name === 'COUNT' ? 4 : 10;
      },
    };
    expect(compileFormula('SUM(Q1_2, 3) / COUNT(Q1_*)').evaluate(ctx)).toBe(2.5);
    expect(seen).toEqual(['SUM(Q1_2,x)', 'COUNT(Q1_*)']);
  });

  it('leaves a call to the function itself when the hook answers undefined', () => {
    const ctx: EvalContext = { ref: () => [1, 2, 3], now: () => new Date(0), aggregate: () => undefined };
    expect(compileFormula('SUM(Q1_2)').evaluate(ctx)).toBe(6);
  });
});
