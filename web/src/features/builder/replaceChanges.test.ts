import { describe, expect, it } from 'vitest';
import { replaceRefusal } from './replaceChanges';

describe('replaceRefusal', () => {
  it('reads the message and the added, removed and retyped questions of a 409', () => {
    const error = {
      status: 409,
      data: {
        detail: 'This form has 1 response: replacing it changes 3 questions.',
        changes: {
          fuel: ['removed', 'choice'],
          adults: ['retyped', 'number', 'open'],
          name: ['added', 'open'],
          odd: ['renamed'],
          bad: 'x',
        },
      },
    };
    expect(replaceRefusal(error)).toEqual({
      detail: 'This form has 1 response: replacing it changes 3 questions.',
      changes: [
        { code: 'fuel', kind: 'removed', type: 'choice' },
        { code: 'adults', kind: 'retyped', from: 'number', to: 'open' },
        { code: 'name', kind: 'added', type: 'open' },
      ],
    });
  });

  it('is undefined for other errors', () => {
    expect(
      replaceRefusal({ status: 409, data: { detail: 'A newer revision of this form already exists.' } }),
    ).toBeUndefined();
    expect(replaceRefusal({ status: 400, data: { non_field_errors: ['x'] } })).toBeUndefined();
    expect(replaceRefusal(undefined)).toBeUndefined();
  });
});
