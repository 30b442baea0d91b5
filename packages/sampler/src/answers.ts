// What an answer may be, per question type, and the record as it is stored: data keyed by repeat number, then
// question id (spec 001 §3 Response). Calculated and concatenation answers are recomputed, never taken as sent.
import { calculate } from './calculation.js';
import { concatenate } from './concatenation.js';
import { isAnswered, type Answers } from './conditions.js';
import type { Item, SchemaBody } from './schema.js';

/** Answers by repeat number ("0" for a category asked once), then by question id. */
export type ResponseData = Record<string, Answers>;

export const ANSWER_MESSAGES = {
  unknown: 'No question of this form has this id.',
  number: 'Enter a number.',
  integer: 'Enter a whole number.',
  min: (v: number | string) => `Ensure this value is greater than or equal to ${v}.`,
  max: (v: number | string) => `Ensure this value is less than or equal to ${v}.`,
  choice: 'Choose among the choices of this question.',
  single: 'Choose one answer only.',
  text: 'Enter text of at most 10000 characters.',
  date: 'Enter a date as YYYY-MM-DD.',
  geotag: 'Enter a location as a point of two coordinates.',
  media: 'Upload the file first and send the key it returned.',
  noAnswer: 'This item takes no answer.',
} as const;

const MAX_TEXT = 10_000;

function dateOf(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(v.trim());
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 ? d.toISOString().slice(0, 10) : undefined;
}

/** The problem with one answer, or undefined when it fits the question. Empty answers always fit. */
export function answerProblem(body: SchemaBody, item: Item, value: unknown): string | undefined {
  if (!isAnswered(value)) return undefined;
  const o = item.options;
  switch (item.type) {
    case 'number':
    case 'currency': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) return ANSWER_MESSAGES.number;
      if (o.allowDecimal === false && !Number.isInteger(n)) return ANSWER_MESSAGES.integer;
      if (o.minimum?.active && o.minimum.value !== '' && n < Number(o.minimum.value)) return ANSWER_MESSAGES.min(o.minimum.value);
      if (o.maximum?.active && o.maximum.value !== '' && n > Number(o.maximum.value)) return ANSWER_MESSAGES.max(o.maximum.value);
      return undefined;
    }
    case 'choice':
    case 'binary': {
      const ids = Array.isArray(value) ? value : [value];
      const allowed = new Set((o.choices ?? []).filter((c) => !body.entities.choices[c]?.deleted));
      if (!ids.every((c) => typeof c === 'number' && allowed.has(c))) return ANSWER_MESSAGES.choice;
      if ((item.type === 'binary' || !o.multiselect) && ids.length > 1) return ANSWER_MESSAGES.single;
      return undefined;
    }
    case 'open':
    case 'barcode':
    case 'reference_project':
      return typeof value === 'string' && value.length <= MAX_TEXT ? undefined : ANSWER_MESSAGES.text;
    case 'date': {
      const d = dateOf(value);
      if (!d) return ANSWER_MESSAGES.date;
      if (o.minimum?.active && typeof o.minimum.value === 'string' && o.minimum.value !== '' && d < o.minimum.value) return ANSWER_MESSAGES.min(o.minimum.value);
      if (o.maximum?.active && typeof o.maximum.value === 'string' && o.maximum.value !== '' && d > o.maximum.value) return ANSWER_MESSAGES.max(o.maximum.value);
      return undefined;
    }
    case 'geotag': {
      const g = value as { coordinates?: unknown; latitude?: unknown; longitude?: unknown };
      const [lng, lat] = Array.isArray(g.coordinates) ? g.coordinates : [g.longitude, g.latitude];
      const ok = typeof lng === 'number' && typeof lat === 'number' && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && (!Array.isArray(g.coordinates) || g.coordinates.length === 2);
      return ok ? undefined : ANSWER_MESSAGES.geotag;
    }
    case 'image':
    case 'signature':
      return typeof value === 'string' && value.length <= 1024 ? undefined : ANSWER_MESSAGES.media;
    case 'instruction':
    case 'empty':
      return ANSWER_MESSAGES.noAnswer;
    default:
      return undefined;
  }
}

/**
 * Checks every answer of a record against its schema and recomputes calculated and concatenation answers.
 * Answers the cleaned data and the problems by "repeat.itemId".
 */
export function checkResponseData(body: SchemaBody, data: ResponseData, lang = body.primary_language): { data: ResponseData; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const out: ResponseData = {};
  for (const [repeat, answers] of Object.entries(data)) {
    if (!/^\d{1,4}$/.test(repeat) || typeof answers !== 'object' || answers === null) {
      problems[repeat] = 'Answers are keyed by repeat number, then question id.';
      continue;
    }
    const clean: Answers = {};
    for (const [id, value] of Object.entries(answers)) {
      const item = body.entities.items[id];
      if (!item || item.deleted) {
        problems[`${repeat}.${id}`] = ANSWER_MESSAGES.unknown;
        continue;
      }
      if (item.type === 'calculated' || item.type === 'concatenation') continue;
      const p = answerProblem(body, item, value);
      if (p) problems[`${repeat}.${id}`] = p;
      else if (isAnswered(value)) clean[id] = item.type === 'date' ? dateOf(value) : item.type === 'number' || item.type === 'currency' ? Number(value) : value;
    }
    for (const item of Object.values(body.entities.items)) {
      if (item.deleted) continue;
      if (item.type === 'calculated') {
        const r = calculate(body, item.id, clean, lang);
        if ('value' in r) clean[String(item.id)] = r.value;
      } else if (item.type === 'concatenation') {
        const r = concatenate(body, item.options.concatenation ?? '', clean, lang);
        if ('value' in r) clean[String(item.id)] = r.value;
      }
    }
    out[repeat] = clean;
  }
  return { data: out, problems };
}

/** The answers of the primary-key and lookup questions (what identifies a record of a longitudinal project). */
export function lookupAnswers(body: SchemaBody, answers: Answers): { key: unknown; lookups: Record<string, unknown> } {
  let key: unknown;
  const lookups: Record<string, unknown> = {};
  for (const item of Object.values(body.entities.items)) {
    if (item.deleted) continue;
    const v = answers[String(item.id)];
    if (item.options.isPrimaryKey && isAnswered(v)) key = v;
    if ((item.options.isLookupQuestion || item.options.isPrimaryKey) && isAnswered(v)) lookups[String(item.id)] = v;
  }
  return { key, lookups };
}
