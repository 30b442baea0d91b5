import { describe, expect, it } from 'vitest';
import { childTrace, formatTraceparent, parseTraceparent } from './trace.js';

describe('W3C trace context', () => {
  it('continues a valid traceparent with a new span and starts a trace otherwise', () => {
    const parent = parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(parent).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: '01' });
    const child = childTrace(parent);
    expect(child.traceId).toBe(parent!.traceId);
    expect(child.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(child.spanId).not.toBe(parent!.spanId);
    expect(formatTraceparent(child)).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    for (const bad of [
      undefined,
      '',
      'nonsense',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7',
    ]) {
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
    }
    const root = childTrace(undefined);
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.flags).toBe('01');
  });

  it('never hands out the same id twice, across refills of its random pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const t = childTrace(undefined);
      expect(t.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(t.spanId).toMatch(/^[0-9a-f]{16}$/);
      seen.add(t.traceId).add(t.spanId);
    }
    expect(seen.size).toBe(4000);
  });
});
