// The response filter model (spec 001 §3 Response filter): lists of ids, one id, and "no filter".
import { describe, expect, it } from 'vitest';
import { filterModel, idList } from './filters.js';

describe('filterModel ids', () => {
  it('reads an empty list as no filter, not as id 0', () => {
    const f = filterModel.parse({ site: [], group: [], team: [], collector: [] });
    expect([f.site, f.group, f.team, f.collector]).toEqual([[], [], [], []]);
    expect(idList(f.site)).toEqual([]);
  });

  it('reads one id, a list, text digits and the -1 default', () => {
    const f = filterModel.parse({ site: 5, group: [3, '4'], team: '7', createdBy: -1 });
    expect([idList(f.site), idList(f.group), idList(f.team), idList(f.createdBy)]).toEqual([[5], [3, 4], [7], []]);
  });

  it('refuses a list that is not of whole numbers', () => {
    expect(filterModel.safeParse({ site: ['x'] }).success).toBe(false);
    expect(filterModel.safeParse({ site: 1.5 }).success).toBe(false);
  });
});
