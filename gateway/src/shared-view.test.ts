import { describe, expect, it } from 'vitest';
import { checkPublicView, queryOfView, sharedProjectAnswers, viewToShare } from './shared-view.js';

const refusal = (fields: string) =>
  `A shared item answers only with the view it was shared with; these cannot be changed: ${fields}.`;

describe('shared item views', () => {
  it('keeps what filters something, and nothing empty', () => {
    expect(
      viewToShare({
        filters: { site: [3], collector: [], createdBy: -1, showDeleted: false, date_ranges: [] },
        comparisons: [],
        buckets: 0,
        time_zone: '',
      }),
    ).toEqual({ filters: { site: [3] } });
    expect(viewToShare({})).toEqual({});
  });

  it('answers the shared view to a body that leaves it out or repeats it, however its keys are ordered', () => {
    const shared = viewToShare({
      filters: { site: [3], team: [1] },
      comparisons: [{ by: 'period', period: 'month' }],
      time_zone: 'UTC',
    });
    expect(() => checkPublicView({}, shared)).not.toThrow();
    expect(() => checkPublicView({ filters: {}, comparisons: [] }, shared)).not.toThrow();
    expect(() =>
      checkPublicView(
        { filters: { team: [1], site: [3] }, comparisons: [{ period: 'month', by: 'period' }], time_zone: 'UTC' },
        shared,
      ),
    ).not.toThrow();
  });

  it('refuses any other filter, breakdown, bucket count, timing column or time zone, naming them', () => {
    expect(() =>
      checkPublicView({ filters: { filters: [{ question: 9, operator: 'contains', value: 'a' }] } }, {}),
    ).toThrow(refusal('filters'));
    expect(() => checkPublicView({ comparisons: [{ by: 'collector' }], buckets: 3 }, {})).toThrow(
      refusal('comparisons, buckets'),
    );
    expect(() => checkPublicView({ timing_column: 'time_updated', time_zone: 'Asia/Tokyo' }, {})).toThrow(
      refusal('timing_column, time_zone'),
    );
    expect(() => checkPublicView({ filters: { site: [4] } }, { filters: { site: [3] } })).toThrow(refusal('filters'));
  });

  it('keeps the aggregator shared (an average stays an average), and refuses another', () => {
    const shared = viewToShare({ aggregator: 'avg', time_zone: 'UTC' });
    expect(shared).toEqual({ aggregator: 'avg', time_zone: 'UTC' });
    expect(queryOfView(shared)).toMatchObject({ aggregator: 'avg' });
    expect(() => checkPublicView({}, shared)).not.toThrow();
    expect(() => checkPublicView({ aggregator: 'sum' }, shared)).toThrow(refusal('aggregator'));
  });

  it('refuses a view too large for a link', () => {
    expect(() =>
      viewToShare({ filters: { filters: [{ question: 1, operator: 'contains', value: 'x'.repeat(600) }] } }),
    ).toThrow(/too large to share/);
  });

  it('gives the results service the view, and nothing for what it leaves out', () => {
    expect(queryOfView({})).toEqual({
      filters_json: '{}',
      timing_column: '',
      comparisons_json: '',
      buckets: 0,
      time_zone: '',
      aggregator: '',
    });
    expect(queryOfView({ filters: { site: [3] }, buckets: 5, comparisons: [{ by: 'site' }] })).toMatchObject({
      filters_json: '{"site":[3]}',
      buckets: 5,
      comparisons_json: '[{"by":"site"}]',
    });
  });
});

describe('the project of a shared item', () => {
  it('shares nothing while the project is deleted, and answers in every other state (restored included)', () => {
    expect(sharedProjectAnswers('D')).toBe(false);
    for (const state of ['P', 'O', 'G', 'F']) expect(sharedProjectAnswers(state)).toBe(true);
  });
});
