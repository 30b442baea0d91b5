import { describe, expect, it } from 'vitest';
import { FreshReads, KeyedFreshReads, PayloadLru, resultsCacheKey, type CacheKeyParts } from './results-cache.js';

const base: CacheKeyParts = {
  request: { project_id: 7, schema_id: 3, item_ids: [], filters_json: '', buckets: 0, time_zone: '' },
  scope: { all: true, userId: 11, sites: [] },
  schemas: [{ id: 3, name: 'Household', level: 0, version: '1', time_updated: '2026-11-26T10:00:00.000Z' }],
  mark: 'host/0=1,host/7=12',
};
const key = (change: Partial<CacheKeyParts>) => resultsCacheKey({ ...base, ...change });

describe(resultsCacheKey.name, () => {
  it('is the same for the same request, whatever the order of its fields and of the schemas', () => {
    const reordered = Object.fromEntries(Object.entries(base.request).reverse());
    expect(key({ request: reordered })).toBe(key({}));
    const two = [...base.schemas, { ...base.schemas[0]!, id: 4, name: 'Members', level: 1 }];
    expect(key({ schemas: [...two].reverse() })).toBe(key({ schemas: two }));
  });

  it('shares an entry among the callers who see every response, whoever they are', () => {
    expect(key({ scope: { all: true, userId: 12, sites: [] } })).toBe(key({}));
  });

  it('never shares an entry between scopes: all responses, own responses, other read sites, another user', () => {
    const keys = [
      key({}),
      key({ scope: { all: false, userId: 11, sites: [] } }),
      key({ scope: { all: false, userId: 11, sites: [5] } }),
      key({ scope: { all: false, userId: 11, sites: [5, 6] } }),
      key({ scope: { all: false, userId: 12, sites: [5] } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // The same read sites in another order are the same scope.
    expect(key({ scope: { all: false, userId: 11, sites: [6, 5] } })).toBe(keys[3]);
  });

  it('differs by every request field, filters and comparisons included, and by fields it does not know yet', () => {
    const changes: Record<string, unknown>[] = [
      { project_id: 8 },
      { schema_id: 4 },
      { item_ids: [1] },
      { filters_json: '{"showOnlyCompleted":true}' },
      { comparisons_json: '[{"by":"site"}]' },
      { buckets: 20 },
      { time_zone: 'Europe/Paris' },
      { profile_response_id: 'r1' },
      { aggregator: 'avg' },
    ];
    const keys = changes.map((c) => key({ request: { ...base.request, ...c } }));
    expect(new Set([key({}), ...keys]).size).toBe(changes.length + 1);
  });

  it("differs when the project's mark moves or a schema is saved", () => {
    expect(key({ mark: 'host/0=1,host/7=13' })).not.toBe(key({}));
    expect(key({ mark: 'host/0=2,host/7=12' })).not.toBe(key({}));
    expect(key({ mark: '' })).not.toBe(key({}));
    expect(key({ schemas: [{ ...base.schemas[0]!, time_updated: '2026-11-26T10:00:01.000Z' }] })).not.toBe(key({}));
    expect(key({ schemas: [{ ...base.schemas[0]!, name: 'Renamed' }] })).not.toBe(key({}));
  });
});

describe(PayloadLru.name, () => {
  it('answers what was put, counts hits and misses, and drops the least recently used past its size', () => {
    const lru = new PayloadLru(10);
    lru.set('a', '1234');
    lru.set('b', '5678');
    expect(lru.get('a')).toBe('1234'); // a is now the most recent
    lru.set('c', 'xyz'); // 11 > 10: b goes
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('1234');
    expect(lru.get('c')).toBe('xyz');
    expect(lru.stats).toEqual({ entries: 2, chars: 7 });
    expect([lru.hits, lru.misses]).toEqual([3, 1]);
  });

  it('holds nothing larger than its size, and nothing at size 0', () => {
    const lru = new PayloadLru(3);
    lru.set('a', '1234');
    expect(lru.get('a')).toBeUndefined();
    const off = new PayloadLru(0);
    off.set('a', 'x');
    expect(off.get('a')).toBeUndefined();
    expect(off.stats.entries).toBe(0);
  });
});

describe(FreshReads.name, () => {
  it('answers each caller a read that began after it asked, sharing reads not yet begun', async () => {
    let value = 0;
    const began: number[] = [];
    const releases: (() => void)[] = [];
    const reads = new FreshReads(async () => {
      began.push(value);
      const seen = value;
      await new Promise<void>((r) => releases.push(r));
      return seen;
    });
    const a = reads.get();
    await Promise.resolve();
    await Promise.resolve();
    expect(began).toEqual([0]); // a's read runs
    value = 1; // the data changes while it runs
    const b = reads.get();
    const c = reads.get(); // b and c asked after a's read began: they share the next one
    releases.shift()!();
    expect(await a).toBe(0);
    await new Promise((r) => setTimeout(r, 0));
    expect(began).toEqual([0, 1]);
    releases.shift()!();
    expect([await b, await c]).toEqual([1, 1]);
  });

  it('passes a failed read to its callers and reads again for the next ones', async () => {
    let fail = true;
    const reads = new FreshReads(async () => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    await expect(reads.get()).rejects.toThrow('down');
    fail = false;
    expect(await reads.get()).toBe('ok');
  });
});

describe(KeyedFreshReads.name, () => {
  it('reads each key apart, shares reads of one key, and forgets a key nobody waits on', async () => {
    const began: number[] = [];
    const releases = new Map<number, (() => void)[]>();
    const reads = new KeyedFreshReads(async (project: number) => {
      began.push(project);
      await new Promise<void>((r) => releases.set(project, [...(releases.get(project) ?? []), r]));
      return `mark of ${project}`;
    });
    const a1 = reads.get(1);
    const b = reads.get(2);
    await new Promise((r) => setTimeout(r, 0));
    // Project 2's read runs beside project 1's, not after it.
    expect(began).toEqual([1, 2]);
    const a2 = reads.get(1); // asked while project 1's read runs: waits for the next one
    releases.get(1)!.shift()!();
    expect(await a1).toBe('mark of 1');
    await new Promise((r) => setTimeout(r, 0));
    expect(began).toEqual([1, 2, 1]);
    releases.get(1)!.shift()!();
    releases.get(2)!.shift()!();
    expect([await a2, await b]).toEqual(['mark of 1', 'mark of 2']);
    expect(reads.size).toBe(0);
  });

  it('forgets a key whose read failed', async () => {
    const reads = new KeyedFreshReads(async (project: number) => {
      if (project === 1) throw new Error('down');
      return 'ok';
    });
    await expect(reads.get(1)).rejects.toThrow('down');
    expect(await reads.get(2)).toBe('ok');
    expect(reads.size).toBe(0);
  });
});
