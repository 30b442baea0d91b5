// XLSForm column headers and language names as pyxform reads them: case-insensitive, `::` (or the legacy single `:`)
// between a column and its language, the `bind::`, `control::` and `media::` prefixes, and the legacy aliases
// (`list name`, `constraint message`, `relevance`, `caption`, `value`...). Language columns name a language as
// `English (en)`, `English`, `en` or a native name; each becomes an ISO 639-1 code.
import ISO6391 from 'iso-639-1';

/** Columns whose second part is a language. */
const TRANSLATABLE = new Set([
  'label',
  'hint',
  'guidance_hint',
  'constraint_message',
  'required_message',
  'image',
  'big-image',
  'audio',
  'video',
]);

const ALIASES: Record<string, string> = {
  // survey
  command: 'type',
  tag: 'name',
  value: 'name',
  caption: 'label',
  relevance: 'relevant',
  readonly: 'read_only',
  calculate: 'calculation',
  constraint_message: 'constraint_message',
  constraining_message: 'constraint_message',
  'jr:constraintmsg': 'constraint_message',
  requiredmsg: 'required_message',
  'jr:requiredmsg': 'required_message',
  count: 'repeat_count',
  'jr:count': 'repeat_count',
  noapperrorstring: 'no_app_error_string',
  'jr:noapperrorstring': 'no_app_error_string',
  // choices
  list: 'list_name',
  // settings
  set_form_title: 'form_title',
  title: 'form_title',
  set_form_id: 'form_id',
  id_string: 'form_id',
};

export interface Column {
  /** Index in the sheet's row values. */
  index: number;
  /** The header as written (for reports). */
  header: string;
  /** The normalized column: label, hint, type, list_name... */
  key: string;
  /** The language part of a translatable column, as written (`English (en)`); undefined for none. */
  lang?: string;
}

const canonical = (s: string) => {
  const k = s.trim().toLowerCase().replace(/\s+/g, '_');
  return ALIASES[k] ?? k;
};

/** The column a header names. */
export function parseHeader(header: string, index: number): Column {
  const h = header.replace(/\s+/g, ' ').trim();
  const whole = canonical(h);
  if (!h.includes(':') || whole === 'repeat_count' || whole === 'constraint_message' || whole === 'required_message')
    return { index, header: h, key: whole };
  // `label::English (en)`, `bind::relevant`; the legacy single colon (`label:English`, `bind:relevant`) splits once.
  const parts = h.includes('::') ? h.split('::') : [h.slice(0, h.indexOf(':')), h.slice(h.indexOf(':') + 1)];
  let head = parts[0]!.trim().toLowerCase();
  let rest = parts.slice(1);
  if ((head === 'bind' || head === 'control' || head === 'media' || head === 'body') && rest.length > 0) {
    head = rest[0]!.trim();
    rest = rest.slice(1);
  }
  const key = canonical(head);
  const lang = rest.join('::').trim();
  if (TRANSLATABLE.has(key)) return { index, header: h, key, ...(lang ? { lang } : {}) };
  return { index, header: h, key: lang ? `${key}::${lang.toLowerCase()}` : key };
}

export interface LanguageName {
  code: string;
  name: string;
  /** True when no ISO 639-1 code was found and the code was made from the name. */
  invented?: boolean;
}

const byName = new Map<string, string>();
for (const code of ISO6391.getAllCodes()) {
  byName.set(ISO6391.getName(code).toLowerCase(), code);
  byName.set(ISO6391.getNativeName(code).toLowerCase(), code);
}
// Names the field writes that ISO 639-1's English names spell differently.
for (const [name, code] of Object.entries({
  chinese: 'zh',
  mandarin: 'zh',
  farsi: 'fa',
  burmese: 'my',
  nepalese: 'ne',
  swahili: 'sw',
  kiswahili: 'sw',
  khmer: 'km',
  haitian: 'ht',
  kirundi: 'rn',
  pashto: 'ps',
  kyrgyz: 'ky',
  castilian: 'es',
  español: 'es',
  français: 'fr',
  português: 'pt',
}))
  byName.set(name, code);

/** `English (en)`, `English`, `en`, `العربية` → its ISO 639-1 code and name. */
export function parseLanguage(written: string): LanguageName {
  const text = written.replace(/\s+/g, ' ').trim();
  const paren = /^(.*?)\s*\(\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)?\s*\)$/.exec(text);
  if (paren) {
    const code = paren[2]!.toLowerCase();
    const name = paren[1]!.trim() || (ISO6391.validate(code) ? ISO6391.getName(code) : code);
    if (ISO6391.validate(code)) return { code, name };
    const fromName = byName.get(name.toLowerCase());
    if (fromName) return { code: fromName, name };
    return { code, name, invented: true };
  }
  const lower = text.toLowerCase();
  const bare = /^([a-z]{2})(?:[-_][a-z0-9]+)?$/.exec(lower);
  if (bare && ISO6391.validate(bare[1]!)) return { code: bare[1]!, name: ISO6391.getName(bare[1]!) };
  const code = byName.get(lower) ?? byName.get(lower.replace(/[-_].*$/, ''));
  if (code) return { code, name: text };
  const made =
    lower
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '')
      .slice(0, 20) || 'xx';
  return { code: made, name: text, invented: true };
}

/** The value of a yes/no column as pyxform reads it; undefined when it is an expression. */
export function yesNo(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return false;
  if (['yes', 'true', 'true()', '1', 'y'].includes(v)) return true;
  if (['no', 'false', 'false()', '0', 'n'].includes(v)) return false;
  return undefined;
}
