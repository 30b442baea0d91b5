// Items: the options each type starts with (spec 001 §3 table, §9 defaults) and item validity (spec 001 §5).
import { BARCODE_FORMATS, type ItemType } from './constants.js';
import { patternProblem } from './patterns.js';
import { isQuestion, text, type Item, type ItemOptions, type SchemaBody } from './schema.js';

/** Number defaults: range 0 to 100, integers only (spec 001 §9). */
export const NUMBER_DEFAULTS = { minimum: 0, maximum: 100, allowDecimal: false } as const;

/** The options a new item of `type` starts with (choices of a binary question are added by the builder). */
export function defaultOptions(type: ItemType): ItemOptions {
  const flags = { isPrimaryKey: false, isLookupQuestion: false, isRequiredQuestion: false };
  switch (type) {
    case 'binary':
      return { ...flags, choices: [] };
    case 'choice':
      return { ...flags, multiselect: false, choices: [] };
    case 'number':
      return {
        ...flags,
        allowDecimal: NUMBER_DEFAULTS.allowDecimal,
        minimum: { active: true, value: NUMBER_DEFAULTS.minimum },
        maximum: { active: true, value: NUMBER_DEFAULTS.maximum },
      };
    case 'date':
      return { ...flags, minimum: { active: false, value: '' }, maximum: { active: false, value: '' } };
    case 'currency':
      return {
        ...flags,
        allowDecimal: true,
        currency: 'USD',
        minimum: { active: false, value: 0 },
        maximum: { active: false, value: 0 },
      };
    case 'calculated':
      return {
        ...flags,
        showInForm: true,
        showInResults: true,
        allowDecimal: true,
        formula: '',
        calculation: null,
        editorState: null,
        error: '',
      };
    case 'concatenation':
      return { ...flags, showInForm: true, showInResults: true, concatenation: '', error: '' };
    case 'barcode':
      return { ...flags, codeTypes: [], restrictType: false };
    case 'signature':
      return { ...flags, agreement: { active: false, value: false, text: {} } };
    case 'instruction':
      return {};
    default:
      return flags;
  }
}

const blank = (s: string | undefined) => (s ?? '').trim() === '';
const numeric = (v: number | string | undefined) => (v === undefined || v === '' ? 0 : Number(v));

/**
 * Item validity (spec 001 §5): empty is never valid; number and currency need a name and a minimum not above the
 * maximum (blank counts as 0); choice needs a name and a choice; instruction a name and its text; barcode a name
 * and, when restricted, code types; every other type a name.
 */
export function itemValid(item: Item, lang: string, body?: Pick<SchemaBody, 'entities'>): boolean {
  const name = text(item.name, lang);
  switch (item.type) {
    case 'empty':
      return false;
    case 'number':
    case 'currency': {
      if (blank(item.name[lang])) return false;
      const min = item.options.minimum;
      const max = item.options.maximum;
      if (min?.active && max?.active && numeric(min.value) > numeric(max.value)) return false;
      return true;
    }
    case 'choice': {
      const choices = (item.options.choices ?? []).filter((id) => !body || !body.entities.choices[id]?.deleted);
      return !blank(name) && choices.length > 0;
    }
    case 'instruction':
      return !blank(name) && !blank(text(item.instruction, lang));
    case 'barcode':
      return (
        !blank(name) &&
        (!item.options.restrictType ||
          (item.options.codeTypes ?? []).some((c) => (BARCODE_FORMATS as readonly string[]).includes(c)))
      );
    default:
      return !blank(item.name[lang]);
  }
}

export const RULE_PROBLEMS = {
  negative: 'A count of characters or choices cannot be negative.',
  lengths: 'The fewest characters must not be more than the most.',
  choices: 'The fewest choices must not be more than the most.',
} as const;

/** What is wrong with the answer rules a designer set on a question (lengths, pattern, choice counts). */
export function ruleProblems(item: Item): string[] {
  const o = item.options;
  const out: string[] = [];
  const n = (b: { active: boolean; value: number } | undefined) =>
    b?.active && Number.isFinite(Number(b.value)) ? Number(b.value) : undefined;
  const bounds = [n(o.minLength), n(o.maxLength), n(o.minChoices), n(o.maxChoices)];
  if (bounds.some((v) => v !== undefined && v < 0)) out.push(RULE_PROBLEMS.negative);
  const [minLength, maxLength, minChoices, maxChoices] = bounds;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) out.push(RULE_PROBLEMS.lengths);
  if (minChoices !== undefined && maxChoices !== undefined && minChoices > maxChoices) out.push(RULE_PROBLEMS.choices);
  if (o.pattern?.active) {
    const p = patternProblem(o.pattern.value);
    if (p) out.push(p);
  }
  return out;
}

/** Primary key questions of a schema; more than one is flagged (hasMultiplePrimaryKeys). */
export function primaryKeys(body: SchemaBody): Item[] {
  return Object.values(body.entities.items).filter(
    (i) => !i.deleted && isQuestion(i) && i.options.isPrimaryKey === true,
  );
}

export function hasMultiplePrimaryKeys(body: SchemaBody): boolean {
  return primaryKeys(body).length > 1;
}

/** The schema save refusals of spec 001 §5, in the spec's words; undefined when the save may go ahead. */
export const SAVE_REFUSALS = {
  notEditable: 'Cannot edit schema for this project!',
  longitudinalWithoutKey: 'Cannot save longitudinal schema without a primary key!',
  multipleKeys: 'Cannot save schema with multiple primary keys!',
  invalidSchemaId: 'Invalid Schema Id!',
} as const;

export function saveRefusal(projectState: string, projectType: string, body: SchemaBody): string | undefined {
  if (projectState === 'O' || projectState === 'F') return SAVE_REFUSALS.notEditable;
  const keys = primaryKeys(body).length;
  if (projectType === 'L' && keys === 0) return SAVE_REFUSALS.longitudinalWithoutKey;
  if (keys > 1) return SAVE_REFUSALS.multipleKeys;
  return undefined;
}

/** Currencies (code, name, symbol) from the platform's ISO 4217 data. */
export function currencies(locale = 'en'): { code: string; name: string; symbol: string }[] {
  const codes = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.(
    'currency',
  ) ?? ['USD', 'EUR', 'KES'];
  const names = new Intl.DisplayNames([locale], { type: 'currency' });
  return codes.map((code) => {
    const symbol =
      new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' })
        .formatToParts(0)
        .find((p) => p.type === 'currency')?.value ?? code;
    return { code, name: names.of(code) ?? code, symbol };
  });
}
