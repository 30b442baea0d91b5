// The postgres driver is patched (patches/postgres@3.4.9.patch, porsager/postgres#1154 and #1208): a deferred write
// that runs after its socket closed threw from setImmediate and killed the service (seen in the faults test when
// PostgreSQL restarted). Its connection queues also kept every slot they ever shifted out while they never drained
// (the busy connections under steady load), so each query scanned all the queries before it: a bench of project
// reads spent 7% of the responses service in Queue.remove. This fails if an upgrade or a reinstall drops the patch.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = dirname(dirname(createRequire(import.meta.url).resolve('postgres')));

describe('the patched postgres driver', () => {
  it.each(['src/connection.js', 'cjs/src/connection.js'])(
    'guards a deferred write against a closed socket in %s',
    (file) => {
      const source = readFileSync(join(root.endsWith('cjs') ? dirname(root) : root, file), 'utf8');
      const nextWrite = source.slice(
        source.indexOf('function nextWrite('),
        source.indexOf('function connectTimedOut('),
      );
      expect(nextWrite).toMatch(/if \(!socket\) \{[^}]*error\(Errors\.connection\('CONNECTION_CLOSED'/);
      // terminate() and closed() forget the cancelled timer and the buffered bytes (else the connection never writes again).
      expect(source.match(/\n {4}clearImmediate\(nextWriteTimer\)\n\s*chunk = nextWriteTimer = null/g)).toHaveLength(2);
    },
  );

  it('keeps a connection queue that never drains as cheap at the millionth query as at the first', async () => {
    const base = root.endsWith('cjs') ? dirname(root) : root;
    const { default: Queue } = (await import(pathToFileURL(join(base, 'src/queue.js')).href)) as {
      default: <T>() => { length: number; push(x: T): T; shift(): T; remove(x: T): T | null };
    };
    // What the pool does with a busy connection for each query: take the oldest, then move it back to the end.
    const busy = Queue<{ id: number }>();
    for (let id = 0; id < 10; id++) busy.push({ id });
    const cycle = (n: number) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        const c = busy.shift();
        busy.remove(c);
        busy.push(c);
      }
      return performance.now() - started;
    };
    cycle(100_000);
    const late = cycle(5_000);
    expect(busy.length).toBe(10);
    // Unpatched, each of these last queries scans 100,000 dead slots (about 40 µs each here: 200 ms in all);
    // patched, the 5,000 take about a millisecond.
    expect(late).toBeLessThan(25);
  });
});
