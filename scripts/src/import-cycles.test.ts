// Import cycles that ESLint's import-x/no-cycle cannot see: it skips `import type`, so two modules that import each
// other's types (web/src/app/store.ts and components/noticesSlice.ts did) pass the lint. This walks every source
// file's imports, types included, and fails on any cycle.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!['node_modules', 'dist', 'gen'].includes(name)) sources(path, out);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The file a relative specifier names ('./x', './x.js' for x.ts, a folder's index), or undefined. */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.js$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
}

/** The strongly connected components of more than one file (each holds at least one cycle), by Tarjan. */
export function importCycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, ts.preProcessFile(readFileSync(f, 'utf8'), true, true).importedFiles.map((i) => resolveImport(f, i.fileName)).filter((x): x is string => x !== undefined)]));
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.map((f) => relative(repo, f)).sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

describe('import cycles', () => {
  it('sees a cycle made of type imports only, through .js specifiers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a';\nexport type B = A | number;\n");
      writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
      expect(importCycles(sources(dir)).map((c) => c.map((f) => f.replace(/.*\//, '')))).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });


  it.each(['web/src', 'gateway/src', 'services', 'packages', 'scripts/src'])('none in %s, type imports included', (root) => {
    expect(importCycles(sources(join(repo, root)))).toEqual([]);
  });
});
