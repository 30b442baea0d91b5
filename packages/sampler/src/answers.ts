// What an answer may be, per question type, and the record as it is stored: data keyed by repeat number, then
// question id (spec 001 §3 Response). Calculated and concatenation answers are recomputed, never taken as sent.
import { offeredChoices } from './cascade.js';
import { calculate } from './calculation.js';
import { concatenate } from './concatenation.js';
import { isAnswered, visibility, type Answers, type ConditionContext, type Visibility } from './conditions.js';
import { recordValidity, requiredUnanswered, type RecordValidity } from './record.js';
import { matchesPattern } from './patterns.js';
import { text as localized, type Bound, type Item, type SchemaBody } from './schema.js';

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
  minLength: (n: number) => `Ensure this field has at least ${n} characters.`,
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  pattern: 'Enter a value in the expected format.',
  minChoices: (n: number) => `Choose at least ${n} answers.`,
  maxChoices: (n: number) => `Choose at most ${n} answers.`,
  date: 'Enter a date as YYYY-MM-DD.',
  geotag: 'Enter a location as a point of two coordinates.',
  media: 'Upload the file first and send the key it returned.',
  noAnswer: 'This item takes no answer.',
  /** Cascading choices: the answer is not among the choices its filter question's answer offers. */
  notOffered: (filter: string) => `This choice is not offered for the answer to "${filter}".`,
  filterUnanswered: (filter: string) => `Answer "${filter}" first: its answer decides the choices offered here.`,
} as const;

/** The problem of a choice answer its filter question's answer does not offer (cascading choices), else undefined. */
export function offeredProblem(
  body: SchemaBody,
  item: Item,
  value: unknown,
  answers: Answers,
  lang?: string,
): string | undefined {
  const filter = item.options.choiceFilter;
  if (!filter || item.type !== 'choice' || !isAnswered(value)) return undefined;
  const offered = new Set(offeredChoices(body, item, answers));
  const ids = Array.isArray(value) ? value : [value];
  if (ids.every((c) => typeof c === 'number' && offered.has(c))) return undefined;
  const parent = body.entities.items[filter.itemId];
  const name =
    localized(parent?.name, lang ?? body.primary_language, body.primary_language) ||
    parent?.codeName ||
    String(filter.itemId);
  return offered.size === 0 && !isAnswered(answers[String(filter.itemId)])
    ? ANSWER_MESSAGES.filterUnanswered(name)
    : ANSWER_MESSAGES.notOffered(name);
}

const MAX_TEXT = 10_000;

function dateOf(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(v.trim());
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 ? d.toISOString().slice(0, 10) : undefined;
}

/** The bound's number when it is active and set, else undefined. */
function bound(b: Bound<number | string> | undefined): number | undefined {
  if (!b?.active || b.value === '' || b.value === null) return undefined;
  const n = Number(b.value);
  return Number.isFinite(n) ? n : undefined;
}

/** Length and pattern rules of a text answer (open and barcode questions). */
function textProblem(item: Item, value: string, lang: string | undefined): string | undefined {
  const o = item.options;
  // Characters as the person sees them (code points), not UTF-16 units.
  const length = [...value].length;
  const min = bound(o.minLength);
  const max = bound(o.maxLength);
  if (min !== undefined && length < min) return ANSWER_MESSAGES.minLength(min);
  if (max !== undefined && length > max) return ANSWER_MESSAGES.maxLength(max);
  if (o.pattern?.active && o.pattern.value !== '' && !matchesPattern(o.pattern.value, value)) {
    return localized(o.pattern.message, lang ?? '') || ANSWER_MESSAGES.pattern;
  }
  return undefined;
}

/**
 * The problem with one answer, or undefined when it fits the question. Empty answers always fit. `lang` chooses the
 * language of a form designer's own message (a pattern's).
 */
export function answerProblem(body: SchemaBody, item: Item, value: unknown, lang?: string): string | undefined {
  if (!isAnswered(value)) return undefined;
  const o = item.options;
  switch (item.type) {
    case 'number':
    case 'currency': {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && value.trim() !== ''
            ? Number(value)
            : Number.NaN;
      if (!Number.isFinite(n)) return ANSWER_MESSAGES.number;
      if (o.allowDecimal === false && !Number.isInteger(n)) return ANSWER_MESSAGES.integer;
      if (o.minimum?.active && o.minimum.value !== '' && n < Number(o.minimum.value))
        return ANSWER_MESSAGES.min(o.minimum.value);
      if (o.maximum?.active && o.maximum.value !== '' && n > Number(o.maximum.value))
        return ANSWER_MESSAGES.max(o.maximum.value);
      return undefined;
    }
    case 'choice':
    case 'binary': {
      const ids = Array.isArray(value) ? value : [value];
      const allowed = new Set((o.choices ?? []).filter((c) => !body.entities.choices[c]?.deleted));
      if (!ids.every((c) => typeof c === 'number' && allowed.has(c))) return ANSWER_MESSAGES.choice;
      if ((item.type === 'binary' || !o.multiselect) && ids.length > 1) return ANSWER_MESSAGES.single;
      if (o.multiselect) {
        const min = bound(o.minChoices);
        const max = bound(o.maxChoices);
        if (min !== undefined && ids.length < min) return ANSWER_MESSAGES.minChoices(min);
        if (max !== undefined && ids.length > max) return ANSWER_MESSAGES.maxChoices(max);
      }
      return undefined;
    }
    case 'open':
    case 'barcode':
      if (typeof value !== 'string' || value.length > MAX_TEXT) return ANSWER_MESSAGES.text;
      return textProblem(item, value, lang);
    case 'reference_project':
      return typeof value === 'string' && value.length <= MAX_TEXT ? undefined : ANSWER_MESSAGES.text;
    case 'date': {
      const d = dateOf(value);
      if (!d) return ANSWER_MESSAGES.date;
      if (o.minimum?.active && typeof o.minimum.value === 'string' && o.minimum.value !== '' && d < o.minimum.value)
        return ANSWER_MESSAGES.min(o.minimum.value);
      if (o.maximum?.active && typeof o.maximum.value === 'string' && o.maximum.value !== '' && d > o.maximum.value)
        return ANSWER_MESSAGES.max(o.maximum.value);
      return undefined;
    }
    case 'geotag': {
      const g = value as { coordinates?: unknown; latitude?: unknown; longitude?: unknown };
      const [lng, lat] = Array.isArray(g.coordinates) ? g.coordinates : [g.longitude, g.latitude];
      const ok =
        typeof lng === 'number' &&
        typeof lat === 'number' &&
        Math.abs(lat) <= 90 &&
        Math.abs(lng) <= 180 &&
        (!Array.isArray(g.coordinates) || g.coordinates.length === 2);
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

/** What a required (or primary-key, or lookup) question says when it is shown and not answered. */
export const REQUIRED_MESSAGE = 'This question is required.';

export interface CheckOptions {
  /** The schema's id: conditions name the questions of their own schema by it (or by 0). */
  schemaId: number;
  /** Answers of the parent and ancestor responses and of referenced projects, by schema id. */
  other?: Record<number, Answers>;
  /** A draft (a plain save): answers must fit their questions, but required questions may wait. */
  lenient?: boolean;
  /** The language of the form designer's own messages. */
  lang?: string;
}

export interface ResponseCheck {
  /** The answers as stored: checked, normalised, hidden ones dropped, calculated and concatenated ones recomputed. */
  data: ResponseData;
  /** Problems of the answers by "repeat.itemId" (or by repeat for a malformed repeat). */
  problems: Record<string, string>;
  /** Shown primary-key, lookup and required questions left unanswered (none when lenient), in form order. */
  missing: number[];
  /** The record validity of spec 001 §5 (the first repeat), in the spec's words. */
  record: RecordValidity;
  /** What the first repeat shows, after its hidden answers were dropped. */
  shown: { blocks: Map<number, Visibility>; items: Map<number, Visibility> };
}

/** Visibility of a repeat and its answers without those of skipped questions (repeated until a drop hides nothing more). */
function visibleAnswers(body: SchemaBody, answers: Answers, ctx: Omit<ConditionContext, 'answers'>, base: Answers) {
  let current = answers;
  for (let round = 0; ; round++) {
    const shown = visibility(body, { ...ctx, answers: { ...base, ...current } });
    // Most rounds hide no answer: the copy without the skipped ones is made only when one is.
    const skipped = (id: string) => shown.items.get(Number(id)) === 'skipped';
    if (!Object.keys(current).some(skipped) || round > 50) return { shown, answers: current };
    current = Object.fromEntries(Object.entries(current).filter(([id]) => !skipped(id)));
  }
}

/**
 * The one check of a response, run by the web form before it queues or sends anything and by the responses service
 * before it stores anything: every answer against its question's rules, answers of skipped questions dropped (a
 * hidden question is never required and keeps no answer), calculated and concatenation answers recomputed, and
 * unless lenient every shown required, primary-key and lookup question answered. A filtered choice question (cascading
 * choices) takes only the choices its filter question's answer offers.
 */
export function checkResponse(body: SchemaBody, data: ResponseData, options: CheckOptions): ResponseCheck {
  const lang = options.lang ?? body.primary_language;
  const problems: Record<string, string> = {};
  const out: ResponseData = {};
  let first: ResponseCheck['shown'] = { blocks: new Map(), items: new Map() };
  const ctx = { schemaId: options.schemaId, ...(options.other ? { other: options.other } : {}) };
  for (const [repeat, raw] of Object.entries(data)) {
    if (!/^\d{1,4}$/.test(repeat) || typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems[repeat] = 'Answers are keyed by repeat number, then question id.';
      continue;
    }
    const known: Answers = {};
    for (const [id, value] of Object.entries(raw as Answers)) {
      const item = body.entities.items[id];
      if (!item || item.deleted) problems[`${repeat}.${id}`] = ANSWER_MESSAGES.unknown;
      else if (item.type !== 'calculated' && item.type !== 'concatenation') known[id] = value;
    }
    // A later repeat sees the first repeat's answers in its conditions.
    const base = repeat === '0' ? {} : (data['0'] ?? {});
    const { shown, answers } = visibleAnswers(body, known, ctx, typeof base === 'object' && base !== null ? base : {});
    if (repeat === '0') first = shown;
    const clean: Answers = {};
    // Cascading choices: a filter question may sit in the first repeat (a category asked once).
    const seen = { ...(typeof base === 'object' && base !== null ? base : {}), ...answers };
    for (const [id, value] of Object.entries(answers)) {
      const item = body.entities.items[id]!;
      const p = answerProblem(body, item, value, lang) ?? offeredProblem(body, item, value, seen, lang);
      if (p) problems[`${repeat}.${id}`] = p;
      else if (isAnswered(value))
        clean[id] =
          item.type === 'date'
            ? dateOf(value)
            : item.type === 'number' || item.type === 'currency'
              ? Number(value)
              : value;
    }
    for (const item of Object.values(body.entities.items)) {
      if (item.deleted || shown.items.get(item.id) === 'skipped') continue;
      if (item.type === 'calculated') {
        const r = calculate(body, item.id, clean, lang);
        if (r && 'value' in r) clean[String(item.id)] = r.value;
      } else if (item.type === 'concatenation') {
        const r = concatenate(body, item.options.concatenation ?? '', clean, lang);
        if ('value' in r) clean[String(item.id)] = r.value;
      }
    }
    out[repeat] = clean;
  }
  const answers = out['0'] ?? {};
  const record = recordValidity(body, answers, first.items, options.lenient === true);
  const missing = options.lenient ? [] : requiredUnanswered(body, answers, first.items);
  return { data: out, problems, missing, record, shown: first };
}

/** Every problem of a check by "repeat.itemId": the answers' and the unanswered required questions'. */
export function checkProblems(check: Pick<ResponseCheck, 'problems' | 'missing'>): Record<string, string> {
  const all = { ...check.problems };
  for (const id of check.missing) all[`0.${id}`] ??= REQUIRED_MESSAGE;
  return all;
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
