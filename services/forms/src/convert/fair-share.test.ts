import { describe, expect, it } from 'vitest';
import { admit, nextLane, shareLimits, type LaneLoad } from './fair-share.js';

const lanes = (o: Record<string, [running: number, waiting: number]>) =>
  new Map<string, LaneLoad>(Object.entries(o).map(([w, [running, waiting]]) => [w, { running, waiting }]));

describe('the conversions shared between workspaces (fair-share.ts)', () => {
  const two = shareLimits(2, 4, 1);
  const one = shareLimits(1, 4, 1);

  it('keeps each workspace within its share of the workers, leaving one for the others', () => {
    expect(admit('a', lanes({}), two)).toEqual({ kind: 'run' });
    // A runs its share: its next waits although a worker is free, and B's runs on it.
    expect(admit('a', lanes({ a: [1, 0] }), two)).toEqual({ kind: 'wait' });
    expect(admit('b', lanes({ a: [1, 3] }), two)).toEqual({ kind: 'run' });
    expect(admit('c', lanes({ a: [1, 0], b: [1, 0] }), two)).toEqual({ kind: 'wait' });
  });

  it('lets a workspace alone fill the queue, then refuses it as the whole pool being busy', () => {
    expect(admit('a', lanes({ a: [1, 3] }), one)).toEqual({ kind: 'wait' });
    expect(admit('a', lanes({ a: [1, 4] }), one)).toEqual({ kind: 'refuse', overShare: false });
  });

  it('gives a full queue’s newest place of the workspace holding the most to one holding less (never a swap)', () => {
    expect(admit('b', lanes({ a: [1, 4] }), one)).toEqual({ kind: 'wait', evict: 'a' });
    expect(admit('c', lanes({ a: [1, 3], b: [0, 1] }), one)).toEqual({ kind: 'wait', evict: 'a' });
    // B holds 2 and A 3: taking A's place would leave A holding less than B: refused, B being over its share.
    expect(admit('b', lanes({ a: [1, 2], b: [0, 2] }), one)).toEqual({ kind: 'refuse', overShare: true });
    // A past its share while B waits: refused with the workspace's own answer.
    expect(admit('a', lanes({ a: [1, 3], b: [0, 1] }), one)).toEqual({ kind: 'refuse', overShare: true });
  });

  it('gives a freed worker to the workspaces in turn, skipping those at their share', () => {
    const l = lanes({ a: [0, 3], b: [0, 1], c: [0, 0] });
    expect(nextLane(['a', 'b', 'c'], 'a', l, two)).toBe('b');
    expect(nextLane(['a', 'b', 'c'], 'b', l, two)).toBe('a');
    expect(nextLane(['a', 'b', 'c'], undefined, l, two)).toBe('a');
    expect(nextLane(['a', 'b'], 'b', lanes({ a: [1, 3], b: [0, 2] }), two)).toBe('b');
    expect(nextLane(['a'], 'a', lanes({ a: [1, 3] }), two)).toBeUndefined();
    expect(nextLane([], undefined, lanes({}), two)).toBeUndefined();
  });

  it('sizes a workspace’s share within the pool', () => {
    expect(shareLimits(1, 4, 0)).toEqual({ workers: 1, queue: 4, workspaceWorkers: 1 });
    expect(shareLimits(4, 4, 3)).toEqual({ workers: 4, queue: 4, workspaceWorkers: 3 });
    expect(shareLimits(2, 0, 9)).toEqual({ workers: 2, queue: 0, workspaceWorkers: 2 });
  });
});
