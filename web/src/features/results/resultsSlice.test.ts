import { describe, expect, it } from 'vitest';
import {
  filterModelOf,
  initialResultsState,
  resultsActions as a,
  resultsSlice,
  type ResultsState,
} from './resultsSlice';

const run = (...actions: Parameters<typeof resultsSlice.reducer>[1][]) =>
  actions.reduce<ResultsState>((s, x) => resultsSlice.reducer(s, x), initialResultsState);

describe('results filter bar (spec 001 §4)', () => {
  it('adds, toggles and removes filters, keeping permanent ones', () => {
    const s = run(
      a.addFilter({ key: 'q1', type: 'question', level: 0, question: 7, operator: '>=', value: 3, label: 'Area >= 3' }),
      a.addFilter({
        key: 'd',
        type: 'date_range',
        level: 0,
        entity: 'response',
        start: 10,
        end: 20,
        label: 'dates',
        permanent: true,
      }),
      a.toggleFilter('q1'),
      a.removeFilter('d'),
    );
    expect(s.filters.map((f) => [f.key, f.disabled, f.deleted])).toEqual([
      ['q1', true, false],
      ['d', false, false],
    ]);
    expect(filterModelOf(s.filters)).toEqual({
      date_ranges: [{ entity: 'response', dateType: 'time_created', startDateTime: 10, endDateTime: 20 }],
      filters: [],
    });
    const back = resultsSlice.reducer(s, a.toggleFilter('q1'));
    expect(filterModelOf(back.filters).filters).toEqual([{ question: 7, operator: '>=', value: 3 }]);
    expect(filterModelOf(resultsSlice.reducer(back, a.removeFilter('q1')).filters).filters).toEqual([]);
  });
  it('lets a single-instance filter disable others of its type at the same or lower level', () => {
    const s = run(
      a.addFilter({ key: 's1', type: 'site', level: 1, id: 1, label: 'North' }),
      a.addFilter({ key: 's0', type: 'site', level: 0, id: 5, label: 'Top' }),
      a.addFilter({ key: 's2', type: 'site', level: 0, id: 2, label: 'South' }),
      a.addFilter({ key: 'q', type: 'question', level: 0, question: 3, value: 1, label: 'q' }),
      a.addFilter({ key: 'q2', type: 'question', level: 0, question: 4, value: 1, label: 'q2' }),
    );
    expect(s.filters.filter((f) => f.disabled).map((f) => f.key)).toEqual(['s1', 's0']);
    expect(filterModelOf(s.filters)).toMatchObject({ site: [2] });
    expect(filterModelOf(s.filters).filters).toHaveLength(2);
    // Enabling one again disables the other.
    const t = resultsSlice.reducer(s, a.toggleFilter('s0'));
    expect(t.filters.filter((f) => f.type === 'site' && !f.disabled).map((f) => f.key)).toEqual(['s0']);
  });
  it('keeps the export list unique by question and schema', () => {
    const s = run(
      a.addToExportList({ questionId: 1, schemaId: 2 }),
      a.addToExportList({ questionId: 1, schemaId: 2 }),
      a.addToExportList({ questionId: 3, schemaId: 2 }),
      a.removeFromExportList({ questionId: 1, schemaId: 2 }),
    );
    expect(s.exportList).toEqual([{ questionId: 3, schemaId: 2 }]);
  });
});
