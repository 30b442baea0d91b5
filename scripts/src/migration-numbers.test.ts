// Each service's migrations run in the order of their four-digit numbers, one number once (service-kit db.ts refuses
// to start otherwise). Two branches that each add "the next" migration merge into two files with one number: this
// fails on that in the unit tests, before any database sees it.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const services = fileURLToPath(new URL('../../services', import.meta.url));

describe('migration numbers', () => {
  for (const service of readdirSync(services)) {
    const dir = join(services, service, 'migrations');
    if (!existsSync(dir)) continue;
    it(`${service}: every migration file has a number of its own`, () => {
      const files = readdirSync(dir).filter((f) => f.endsWith('.sql'));
      expect(
        files.filter((f) => !/^\d{4}-[\w-]+\.sql$/.test(f)),
        'files the migrator would skip',
      ).toEqual([]);
      const byNumber = new Map<string, string[]>();
      for (const f of files) byNumber.set(f.slice(0, 4), [...(byNumber.get(f.slice(0, 4)) ?? []), f]);
      expect([...byNumber.values()].filter((fs) => fs.length > 1)).toEqual([]);
    });
  }
});
