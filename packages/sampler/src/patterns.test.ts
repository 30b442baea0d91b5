import { describe, expect, it } from 'vitest';
import { matchesPattern, PATTERN_PROBLEMS, patternProblem } from './patterns.js';

describe(patternProblem.name, () => {
  it('accepts the patterns forms use', () => {
    for (const p of [
      '^[A-Z]{3}[0-9]{4}$',
      '^\\d{10}$',
      '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$',
      'yes|no',
      '^(\\+254|0)7\\d{8}$',
      '[\\(?=]',
    ])
      expect(patternProblem(p), p).toBeUndefined();
  });
  it('refuses what is empty, too long or not a regular expression', () => {
    expect(patternProblem(' ')).toBe(PATTERN_PROBLEMS.empty);
    expect(patternProblem('a'.repeat(501))).toBe(PATTERN_PROBLEMS.long);
    expect(patternProblem('([a-z]')).toBe(PATTERN_PROBLEMS.invalid);
  });
  it('refuses back-references and look-arounds, which only a backtracking engine runs', () => {
    for (const p of ['(a)\\1', '(?<x>a)\\k<x>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
      expect(patternProblem(p), p).toBe(PATTERN_PROBLEMS.unsupported);
  });
  it('refuses nested repetition, which can take exponential time', () => {
    for (const p of ['(a+)+$', '^(\\w+\\s?)*$', '(x*)*y']) expect(patternProblem(p), p).toBe(PATTERN_PROBLEMS.slow);
  });
});

describe(matchesPattern.name, () => {
  it('searches, so an anchored pattern matches the whole answer', () => {
    expect(matchesPattern('\\d{3}', 'ab123')).toBe(true);
    expect(matchesPattern('^\\d{3}$', 'ab123')).toBe(false);
  });
  it('matches nothing with a pattern a form may not hold, at once, whatever the answer', () => {
    const started = performance.now();
    expect(matchesPattern('(a+)+$', `${'a'.repeat(10_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
