import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boundFields, moreErrorsMessage, Problem, PROBLEM_LIMITS, problems } from './problems.js';

const many = (n: number, message = 'No question of this form has this id.') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`data.0.${100000 + i}`, [message]]));

describe(Problem.name, () => {
  it('keeps the first fields of a refusal with thousands, and says how many more there are', () => {
    const p = problems.invalidFields({
      non_field_errors: ['All required questions must be answered to save this record.'],
      ...many(3000),
    });
    expect(Object.keys(p.fields!)).toHaveLength(PROBLEM_LIMITS.fields + 1);
    expect(p.fields!.non_field_errors).toEqual([
      'All required questions must be answered to save this record.',
      moreErrorsMessage(3000 - PROBLEM_LIMITS.fields),
    ]);
    expect(p.fields!['data.0.100000']).toEqual(['No question of this form has this id.']);
    expect(new TextEncoder().encode(JSON.stringify(p.fields)).length).toBeLessThanOrEqual(PROBLEM_LIMITS.bytes);
  });

  it('bounds bytes, messages per field and their length', () => {
    const fields = boundFields(many(40, 'x'.repeat(5000)));
    expect(new TextEncoder().encode(JSON.stringify(fields)).length).toBeLessThanOrEqual(PROBLEM_LIMITS.bytes);
    expect(fields['data.0.100000']![0]!.length).toBe(PROBLEM_LIMITS.messageChars);
    expect(fields.non_field_errors![0]).toMatch(/^\d+ more errors not shown/);
    expect(boundFields({ a: ['1', '2', '3', '4', '5'] }).a).toEqual(['1', '2', '3']);
    expect(new Problem('400.2', 'y'.repeat(10_000)).message.length).toBe(PROBLEM_LIMITS.messageChars * 2);
  });

  it('changes nothing that is already bounded (a problem crossing a gRPC hop is bounded again)', () => {
    const once = problems.invalidFields(many(3000)).fields!;
    expect(new Problem('400.1', 'Invalid input.', once).fields).toEqual(once);
    const small = { email: ['Enter a valid email address.'] };
    expect(problems.invalidFields(small).fields).toEqual(small);
  });
});

describe('docs/errors.md', () => {
  it('lists every code of the catalogue', () => {
    const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    const codes = Object.values(problems).map((make) => (make as (...a: unknown[]) => Problem)('x', 1).code);
    expect(codes.filter((code) => !doc.includes(`| ${code} |`))).toEqual([]);
  });
});
