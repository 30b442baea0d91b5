import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { answerCount, ANSWERED_CHOICE, byItemAndKind, dayText, numberCounts } from './value-counts.js';

/** The statistics from the answers themselves, sorted, as a textbook computes them. */
function fromAnswers(answers: number[]) {
  const s = [...answers].sort((a, b) => a - b);
  const n = s.length;
  const mean = s.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? s.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) : null;
  const q = (p: number) => {
    const pos = p * (n - 1);
    const f = Math.floor(pos);
    return s[f]! + (pos - f) * (s[Math.min(f + 1, n - 1)]! - s[f]!);
  };
  return { count: n, avg: mean, min: s[0], max: s[n - 1], var: variance, q: [q(0.25), q(0.5), q(0.75)] };
}

describe('numberCounts', () => {
  it('gives from value counts what the sorted answers give', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: -40, max: 40 }).map((x) => x / 4),
          { minLength: 1, maxLength: 60 },
        ),
        (answers) => {
          const counts = new Map<number, number>();
          for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
          const vs = [...counts.keys()].sort((a, b) => a - b);
          const got = numberCounts(
            1,
            vs,
            vs.map((v) => counts.get(v)!),
          );
          const want = fromAnswers(answers);
          expect(got.count).toBe(want.count);
          expect(got.min).toBe(want.min);
          expect(got.max).toBe(want.max);
          expect(got.avg).toBeCloseTo(want.avg, 9);
          if (want.var === null) expect(got.var).toBeNull();
          else expect(got.var).toBeCloseTo(want.var, 9);
          got.q.forEach((x, i) => expect(x).toBeCloseTo(want.q[i]!, 9));
        },
      ),
    );
  });

  it('answers no statistics for no answers', () => {
    expect(numberCounts(1, [], [])).toMatchObject({ count: 0, avg: null, min: null, var: null, q: [] });
  });
});

describe('answerCount', () => {
  it('counts each answer once: other answers, numbers, dates, and those holding a choice', () => {
    const kinds = byItemAndKind([
      { item_id: 1, k: 0, v: 0, n: 2 },
      { item_id: 1, k: 2, v: 5, n: 7 },
      { item_id: 1, k: 2, v: 6, n: 4 },
      { item_id: 1, k: 2, v: ANSWERED_CHOICE, n: 9 },
      { item_id: 1, k: 1, v: 3, n: 0 },
    ]).get(1);
    expect(answerCount(kinds)).toBe(11);
  });
});

describe('dayText', () => {
  it('writes a day number as ClickHouse writes a Date32', () => {
    expect(dayText(20000)).toBe('2024-10-04');
    expect(dayText(-7305)).toBe('1950-01-01');
  });
});
