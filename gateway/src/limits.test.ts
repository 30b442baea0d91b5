import { describe, expect, it } from 'vitest';
import { jsonTooDeep } from './limits.js';

describe('JSON depth bound', () => {
  it('counts nested objects and lists, not brackets inside strings', () => {
    const nest = (n: number) => `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`; // 2n levels
    expect(jsonTooDeep(nest(32))).toBe(false); // 64 levels
    expect(jsonTooDeep(nest(32).replace(/^/, '['), 64)).toBe(true); // 65
    expect(jsonTooDeep('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 3)).toBe(
      false,
    );
    expect(jsonTooDeep('{"a":"\\"[[[[[", "b": [[[[1]]]]}', 4)).toBe(true); // an escaped quote does not end the string
    expect(jsonTooDeep('{"a":"\\\\", "b": [[1]]}', 3)).toBe(false); // an escaped backslash does
  });

  it('scans a body nested 50,000 deep at once', () => {
    const body = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const started = performance.now();
    expect(jsonTooDeep(body)).toBe(true);
    expect(jsonTooDeep('[1,'.repeat(500_000) + '1' + ']'.repeat(500_000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
