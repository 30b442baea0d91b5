// CI fails on a missing translation: every language has exactly English's keys (same nesting, the plural forms of
// its own language, the same {{variables}}), and every t('key') written in web/src exists in English.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ar } from './ar';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { LANGUAGES } from './index';
import { pt } from './pt';

const RESOURCES = { en, fr, es, pt, ar };

type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Leaf paths (a.b.c) to their text; a non-string, non-object leaf is reported as such. */
function flatten(tree: Tree, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [k, v] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object') flatten(v, path, out);
    else out.set(path, v);
  }
  return out;
}

const variables = (text: unknown) =>
  [...new Set([...String(text).matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!))].sort();

/** English keys grouped: plain keys, and plural bases with their forms. */
function shape(flat: Map<string, unknown>) {
  const plain = new Map<string, unknown>();
  const plurals = new Map<string, Map<string, unknown>>();
  for (const [k, v] of flat) {
    const m = PLURAL.exec(k);
    if (m) {
      const base = k.slice(0, m.index);
      if (!plurals.has(base)) plurals.set(base, new Map());
      plurals.get(base)!.set(m[1]!, v);
    } else plain.set(k, v);
  }
  return { plain, plurals };
}

/** What is wrong with one language's messages, each problem naming the language and the key. */
export function problemsOf(code: string, messages: Tree, reference: Tree): string[] {
  const problems: string[] = [];
  const en = shape(flatten(reference));
  const flat = flatten(messages);
  const own = shape(flat);
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  for (const [key, text] of en.plain) {
    if (!own.plain.has(key)) problems.push(`${code}: missing key "${key}"`);
    else if (typeof own.plain.get(key) !== 'string' || own.plain.get(key) === '')
      problems.push(`${code}: key "${key}" is not a text`);
    else if (variables(own.plain.get(key)).join() !== variables(text).join())
      problems.push(
        `${code}: key "${key}" has the variables [${variables(own.plain.get(key)).join(', ')}], English has [${variables(text).join(', ')}]`,
      );
  }
  for (const key of own.plain.keys())
    if (!en.plain.has(key)) problems.push(`${code}: key "${key}" is not in English (remove it or add it to en.ts)`);
  for (const [base, forms] of en.plurals) {
    const mine = own.plurals.get(base);
    const wanted = variables(forms.get('other')).filter((v) => v !== 'count');
    for (const c of categories) {
      const text = mine?.get(c);
      if (text === undefined) problems.push(`${code}: missing key "${base}_${c}" (plural form "${c}" of ${code})`);
      else if (
        variables(text)
          .filter((v) => v !== 'count')
          .join() !== wanted.join()
      )
        problems.push(`${code}: key "${base}_${c}" has the variables [${variables(text).join(', ')}]`);
    }
    for (const c of mine?.keys() ?? [])
      if (!categories.includes(c as Intl.LDMLPluralRule))
        problems.push(`${code}: key "${base}_${c}" is not a plural form of ${code}`);
  }
  for (const base of own.plurals.keys())
    if (!en.plurals.has(base)) problems.push(`${code}: key "${base}_…" is not in English`);
  return problems;
}

describe('translations', () => {
  it('has the five languages of the picker', () => {
    expect(LANGUAGES.map((l) => l.code)).toEqual(['en', 'fr', 'es', 'pt', 'ar']);
  });
  for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
    it(`${code} has exactly the keys and variables of en`, () => {
      const messages = RESOURCES[code] as unknown as Tree;
      expect(problemsOf(code, messages, RESOURCES.en as unknown as Tree)).toEqual([]);
    });
  }
  it('English plural keys have both forms of English', () => {
    expect(problemsOf('en', RESOURCES.en as unknown as Tree, RESOURCES.en as unknown as Tree)).toEqual([]);
  });
  it('reports a missing key, an extra key and a changed variable by name', () => {
    const reference = { a: { b: 'x {{n}}' }, c_one: 'one', c_other: '{{count}} things' };
    expect(
      problemsOf('fr', { a: { b: 'x {{m}}' }, z: 'extra', c_one: 'un', c_other: '{{count}} choses' }, reference),
    ).toEqual([
      'fr: key "a.b" has the variables [m], English has [n]',
      'fr: key "z" is not in English (remove it or add it to en.ts)',
      'fr: missing key "c_many" (plural form "many" of fr)',
    ]);
  });
});

// web/src (the test runs under jsdom, whose import.meta.url is not a file URL).
const SRC = resolve(__dirname, '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !path.includes(`${join('src', 'i18n')}`))
      out.push(path);
  }
  return out;
}

/** The t('key') literals (and the static prefixes of t(`prefix.${x}`)) of web/src that English lacks. */
export function unknownKeys(files: string[], en: Tree): string[] {
  const flat = flatten(en);
  const leaves = new Set(flat.keys());
  const bases = new Set([...leaves].map((k) => k.replace(PLURAL, '')));
  const branches = new Set(
    [...leaves].flatMap((k) =>
      k
        .split('.')
        .slice(0, -1)
        .map((_, i, a) => a.slice(0, i + 1).join('.')),
    ),
  );
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const where = relative(SRC, file);
    for (const m of text.matchAll(/\bt\(\s*(['"])([\w.-]+)\1/g))
      if (!leaves.has(m[2]!) && !bases.has(m[2]!)) problems.push(`${where}: t('${m[2]}') is not a key of en.ts`);
    for (const m of text.matchAll(/\bt\(\s*`([\w.-]*)\.\$\{/g))
      if (!branches.has(m[1]!)) problems.push(`${where}: t(\`${m[1]}.\${…}\`) is not a group of keys of en.ts`);
  }
  return problems;
}

describe('keys used in the code', () => {
  it('every t() key of web/src exists in en.ts', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    expect(unknownKeys(files, RESOURCES.en as unknown as Tree)).toEqual([]);
  });
});
