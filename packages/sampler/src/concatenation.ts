// Concatenation questions (spec 001 §5): a comma-separated list of at least two question names; the parts are
// joined with underscores, spaces become underscores, dates become year_month_day.
import { isAnswered, type Answers } from './conditions.js';
import { text, type Item, type SchemaBody } from './schema.js';

export const CONCATENATION_TYPES = ['date', 'open', 'choice', 'binary', 'number'] as const;

export const CONCATENATION_MESSAGES = {
  invalidName: (name: string) => `Invalid concatenation. ${name} is not a valid question`,
  invalid: 'Invalid concatenation. Please modify to continue',
  answer: (question: string) => `Please answer '${question}' to see the concatenation`,
  unknownType: (type: string) => `Unknown question type: ${type}`,
} as const;

function parts(spec: string): string[] {
  return spec.split(',').map((p) => p.trim());
}

function byName(body: SchemaBody, name: string): Item | undefined {
  return Object.values(body.entities.items).find((i) => !i.deleted && i.codeName === name);
}

/** The error of a concatenation definition, or undefined when it is valid. */
export function concatenationError(body: SchemaBody, spec: string): string | undefined {
  const names = parts(spec);
  if (names.length < 2 || names.some((n) => n === '')) return CONCATENATION_MESSAGES.invalid;
  for (const n of names) if (!byName(body, n)) return CONCATENATION_MESSAGES.invalidName(n);
  return undefined;
}

function datePart(value: unknown): string {
  const d = new Date(String(value));
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}_${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** The concatenated answer, or the message that stops it. */
export function concatenate(
  body: SchemaBody,
  spec: string,
  answers: Answers,
  lang: string,
): { value: string } | { error: string } {
  const invalid = concatenationError(body, spec);
  if (invalid) return { error: invalid };
  const out: string[] = [];
  for (const name of parts(spec)) {
    const item = byName(body, name)!;
    const v = answers[String(item.id)];
    if (!(CONCATENATION_TYPES as readonly string[]).includes(item.type))
      return { error: CONCATENATION_MESSAGES.unknownType(item.type) };
    if (!isAnswered(v)) return { error: CONCATENATION_MESSAGES.answer(text(item.name, lang) || item.codeName) };
    let part: string;
    if (item.type === 'date') part = datePart(v);
    else if (item.type === 'choice' || item.type === 'binary') {
      part = (Array.isArray(v) ? v : [v])
        .map((c) => text(body.entities.choices[String(c)]?.name, lang) || String(c))
        .join('_');
    } else part = String(v);
    out.push(part.trim().replace(/\s+/g, '_'));
  }
  return { value: out.join('_') };
}
