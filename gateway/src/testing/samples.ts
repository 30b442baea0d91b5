// Values made from a route's declared JSON schema: one that the schema accepts, and ones it must refuse (a wrong JSON
// type in one field, a text past its maxLength), so that a route's refusals are checked from whatever it declares.

type Schema = Record<string, unknown>;
/** Resolves `{$ref: 'Name#'}` to the shared schema of that id. */
export type Resolve = (ref: string) => Schema | undefined;

const typesOf = (s: Schema): string[] =>
  s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];

function deref(s: Schema, resolve: Resolve): Schema {
  let out = s;
  for (let i = 0; i < 8 && typeof out.$ref === 'string'; i++) out = resolve(out.$ref) ?? {};
  return out;
}

/** A value `schema` accepts: its required fields only, each the smallest of its kind (undefined where no usual text fits). */
export function validSample(schema: Schema, resolve: Resolve): unknown {
  const s = deref(schema, resolve);
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('const' in s) return s.const;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) return validSample(options[0] as Schema, resolve);
  }
  const types = typesOf(s);
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(required.map((k) => [k, validSample(props[k] ?? {}, resolve)]));
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: min }, () => validSample((s.items ?? {}) as Schema, resolve));
    }
    case 'integer':
    case 'number': {
      const n = typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
      return typeof s.maximum === 'number' && n > s.maximum ? s.maximum : n;
    }
    case 'boolean':
      return false;
    case 'string':
      return sampleText(s);
    case 'null':
      return null;
    default:
      return {};
  }
}

/** Texts tried, in order, for a string with a format or a pattern. */
const TEXTS = [
  'x',
  '1',
  'someone@example.com',
  '2026-01-02T03:04:05Z',
  '2026-01-02',
  '00000000-0000-4000-8000-000000000000',
  'https://example.com/',
  'token-0123456789',
];
const FORMATS: Record<string, string> = {
  email: 'someone@example.com',
  'date-time': '2026-01-02T03:04:05Z',
  date: '2026-01-02',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/',
};

/** A text `s` accepts (its format, pattern and minLength), or undefined when none of the usual kinds fits. */
function sampleText(s: Schema): string | undefined {
  const min = typeof s.minLength === 'number' ? Math.max(s.minLength, 1) : 1;
  if (typeof s.format === 'string') return FORMATS[s.format];
  if (typeof s.pattern !== 'string') return 'x'.repeat(min);
  const pattern = new RegExp(s.pattern, 'u');
  return TEXTS.find((text) => pattern.test(text) && text.length >= min);
}

/** A value of path parameter `name` that the route's params schema accepts when it constrains it (else undefined). */
export function paramSample(params: unknown, name: string, resolve: Resolve): string | undefined {
  if (!params) return undefined;
  const prop = ((deref(params as Schema, resolve).properties ?? {}) as Record<string, Schema>)[name];
  if (!prop) return undefined;
  const p = deref(prop, resolve);
  if (typesOf(p).includes('integer')) return '3';
  return typeof p.pattern === 'string' || typeof p.format === 'string' ? sampleText(p) : undefined;
}

const CANDIDATES: [unknown, string[]][] = [
  [12, ['integer', 'number']],
  ['x', ['string']],
  [true, ['boolean']],
  [[], ['array']],
  [{}, ['object']],
];

/** A JSON value of a type `schema` does not allow, or undefined when it names no type (any value). */
export function wrongValue(schema: Schema, resolve: Resolve): unknown {
  const types = typesOf(deref(schema, resolve));
  if (types.length === 0) return undefined;
  return CANDIDATES.find(([, kinds]) => !kinds.some((k) => types.includes(k)))?.[0];
}

export interface Refusal {
  /** Where the wrong value goes. */
  part: 'body' | 'querystring';
  /** The field of that part given the wrong value. */
  field: string;
  value: unknown;
}

/**
 * Wrong values for a route's declared body and query string: each declared body property given a value of a JSON type
 * its schema does not allow; each declared query field given a text one character past its maxLength.
 */
export function refusals(schema: { body?: unknown; querystring?: unknown }, resolve: Resolve): Refusal[] {
  const out: Refusal[] = [];
  if (schema.body) {
    const body = deref(schema.body as Schema, resolve);
    for (const [field, prop] of Object.entries((body.properties ?? {}) as Record<string, Schema>)) {
      const value = wrongValue(prop, resolve);
      if (value !== undefined) out.push({ part: 'body', field, value });
    }
  }
  if (schema.querystring) {
    const query = deref(schema.querystring as Schema, resolve);
    for (const [field, prop] of Object.entries((query.properties ?? {}) as Record<string, Schema>)) {
      const p = deref(prop, resolve);
      if (typeof p.maxLength === 'number') out.push({ part: 'querystring', field, value: 'x'.repeat(p.maxLength + 1) });
    }
  }
  return out;
}
