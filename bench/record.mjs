// Records a benchmark's figures in docs/benchmarks.md: the section with the same title is replaced, or the section
// is appended. Every benchmark and load test records through this.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BENCHMARKS_MD = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/** `section` starts with `title` (a "## " heading) and holds everything down to the next section. */
export function recordSection(title, section) {
  let doc = existsSync(BENCHMARKS_MD) ? readFileSync(BENCHMARKS_MD, 'utf8') : '# Benchmarks\n';
  const re = new RegExp(`${title.replace(/[()[\]*+?.^$|\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n## |$)`);
  doc = re.test(doc) ? doc.replace(re, section) : `${doc.trimEnd()}\n\n${section}`;
  writeFileSync(BENCHMARKS_MD, doc);
  console.log('recorded in docs/benchmarks.md');
}
