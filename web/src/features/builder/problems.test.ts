import { describe, expect, it } from 'vitest';
import { FORM_RULE_MESSAGES, type FormProblem } from '@fieldwork/sampler';
import { problemsAt, serverProblems } from './problems';

describe(serverProblems.name, () => {
  it('reads items.<id>.<field> and blocks.<id>.<field>, and ignores the rest', () => {
    const error = {
      status: 400,
      data: {
        formula: ['total: Not a valid formula!'],
        'items.3.choices': [FORM_RULE_MESSAGES.choices],
        'blocks.2.conditions': ['x'],
      },
    };
    expect(serverProblems(error)).toEqual([
      { entity: { type: 'item', id: 3 }, field: 'choices', message: FORM_RULE_MESSAGES.choices },
      { entity: { type: 'block', id: 2 }, field: 'conditions', message: 'x' },
    ]);
    expect(serverProblems(undefined)).toEqual([]);
    expect(serverProblems({ status: 'FETCH_ERROR', error: 'offline' })).toEqual([]);
  });
});

describe(problemsAt.name, () => {
  it('merges local and server problems of one item, each message once', () => {
    const p = (id: number, message: string): FormProblem => ({ entity: { type: 'item', id }, field: 'name', message });
    expect(problemsAt([p(1, 'a'), p(2, 'b')], [p(1, 'a'), p(1, 'c')], 'item', 1).map((x) => x.message)).toEqual([
      'a',
      'c',
    ]);
  });
});
