// docs/errors.md is generated from the catalogue: the committed file must be what `pnpm run gen:errors` writes, so a
// new problem, a changed message or a removed code changes the docs in the same commit.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBLEM_DOCS, problemsTable, withProblemsTable } from './problem-docs.js';
import { problems } from './problems.js';

const docsFile = fileURLToPath(new URL('../../../docs/errors.md', import.meta.url));

describe('docs/errors.md', () => {
  it('is what the problem catalogue generates (pnpm run gen:errors)', () => {
    const committed = readFileSync(docsFile, 'utf8');
    expect(withProblemsTable(committed, problemsTable(problems, PROBLEM_DOCS))).toBe(committed);
  });

  it('lists every code of the catalogue once, and no other', () => {
    const committed = readFileSync(docsFile, 'utf8');
    const listed = [...committed.matchAll(/^\| (\d+\.\d+) \|/gm)].map((m) => m[1]);
    const codes = Object.values(problems).map(
      (make) => (make as (...a: string[]) => { code: string })('x', 'x', 'x').code,
    );
    expect([...listed].sort()).toEqual([...codes].sort());
    expect(new Set(listed).size).toBe(listed.length);
    // The feature-off refusal of issue 19 is among them, with its message.
    expect(committed).toContain('| 403.19 | `This needs the workspace feature "<value>", which is off');
  });

  it('a table with a code the catalogue no longer has is regenerated without it', () => {
    const committed = readFileSync(docsFile, 'utf8');
    const stale = committed.replace('| 403.19 |', '| 499.1 | `Gone.` | never |\n| 403.19 |');
    expect(stale).not.toBe(committed);
    expect(withProblemsTable(stale, problemsTable(problems, PROBLEM_DOCS))).toBe(committed);
  });
});
