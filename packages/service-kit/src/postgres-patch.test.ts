// The postgres driver is patched (patches/postgres@3.4.9.patch, porsager/postgres#1154 and #1208): a deferred write
// that runs after its socket closed threw from setImmediate and killed the service (seen in the faults test when
// PostgreSQL restarted). This fails if an upgrade or a reinstall drops the patch.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
});
