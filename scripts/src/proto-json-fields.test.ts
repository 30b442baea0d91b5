// Proto fields carried as JSON text are the free-form ones listed in docs/architecture.md ("Proto fields that stay
// JSON text"), nothing else: a new `*_json` field is either typed as a message or added to that list with its reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** Every `*_json` field of proto/, as `<file>.<Message>.<field>` (file without .proto; nested messages dotted). */
export function jsonFields(file: string, text: string): string[] {
  const out: string[] = [];
  // The enclosing blocks: a message's name, or null for oneof, enum, service and other braces.
  const blocks: (string | null)[] = [];
  let statement = '';
  for (const ch of text.replace(/\/\/.*$/gm, '')) {
    if (ch !== '{' && ch !== '}' && ch !== ';') {
      statement += ch;
      continue;
    }
    const s = statement.trim();
    statement = '';
    if (ch === '{') blocks.push(/^message\s+(\w+)$/.exec(s)?.[1] ?? null);
    else if (ch === '}') blocks.pop();
    else {
      const field = /^(?:repeated\s+|optional\s+)?[\w.]+(?:<[\w.,\s]+>)?\s+(\w+_json)\s*=\s*\d+/.exec(s);
      if (field) out.push([file, ...blocks.filter((b): b is string => b !== null), field[1]].join('.'));
    }
  }
  return out;
}

/** The fields the architecture notes allow, from their list under "Proto fields that stay JSON text". */
export function allowedFields(markdown: string): string[] {
  const start = markdown.indexOf('### Proto fields that stay JSON text');
  if (start < 0) return [];
  const end = markdown.indexOf('\n#', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^- `([\w.]+_json)`:/gm)].map((m) => m[1]!);
}

describe('proto *_json fields', () => {
  const proto = join(repo, 'proto');
  const found = readdirSync(proto)
    .filter((f) => f.endsWith('.proto'))
    .flatMap((f) => jsonFields(f.replace(/\.proto$/, ''), readFileSync(join(proto, f), 'utf8')));
  const allowed = allowedFields(readFileSync(join(repo, 'docs/architecture.md'), 'utf8'));

  it('reads fields by message, nested and in a oneof, and not reserved names or comments', () => {
    const text = [
      'message A {',
      '  reserved "old_json";',
      '  // was string x_json = 9;',
      '  string a_json = 1;',
      '  message B { repeated string b_json = 2; }',
      '  oneof c { string c_json = 3; }',
      '  map<string, string> d_json = 4;',
      '}',
    ].join('\n');
    expect(jsonFields('f', text)).toEqual(['f.A.a_json', 'f.A.B.b_json', 'f.A.c_json', 'f.A.d_json']);
  });

  it('finds the list in the architecture notes', () => {
    expect(allowed.length).toBeGreaterThan(0);
  });

  it('has no *_json field that the list does not allow', () => {
    expect(found.filter((f) => !allowed.includes(f))).toEqual([]);
  });

  it('lists no field that is gone', () => {
    expect(allowed.filter((f) => !found.includes(f))).toEqual([]);
  });
});
