import { describe, expect, it } from 'vitest';
import { filtersBody, percent } from './ViewParts';

describe('views', () => {
  it('sends the filters chosen as lists of ids, and nothing for "All"', () => {
    expect(filtersBody({ site: 3, group: undefined, collector: 7 })).toEqual({ site: [3], collector: [7] });
    expect(filtersBody({})).toEqual({});
  });

  it('shows progress with at most one decimal, and a dash without a target', () => {
    expect(percent(33.333)).toBe('33.3 %');
    expect(percent(125)).toBe('125 %');
    expect(percent(null)).toBe('—');
  });
});
