#!/usr/bin/env node
// Writes the problems table of docs/errors.md from the catalogue (packages/service-kit: problems.ts and
// problem-docs.ts, built); `--check` fails, writing nothing, when the committed file differs (as gen:api --check).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { problems } from '../packages/service-kit/dist/problems.js';
import { PROBLEM_DOCS, problemsTable, withProblemsTable } from '../packages/service-kit/dist/problem-docs.js';

const file = fileURLToPath(new URL('../docs/errors.md', import.meta.url));
const current = readFileSync(file, 'utf8');
const next = withProblemsTable(current, problemsTable(problems, PROBLEM_DOCS));
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('docs/errors.md differs from the problem catalogue: run pnpm run gen:errors and commit it.');
    process.exit(1);
  }
  console.log('docs/errors.md matches the problem catalogue.');
} else {
  writeFileSync(file, next);
  console.log('docs/errors.md written from the problem catalogue.');
}
