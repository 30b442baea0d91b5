// The form rules (spec 001 §5 item validity, calculated questions, concatenation, answer rules) as one list of
// problems, each placed at its item or category: the API refuses a save with any, the builder shows them at the item
// and the importers never produce one.
import { choiceFilterProblems, formPositions } from './cascade.js';
import { concatenationError } from './concatenation.js';
import { BARCODE_FORMATS, ITEM_TYPES } from './constants.js';
import { formulaProblems } from './calculation.js';
import { placementValid } from './conditions.js';
import { ruleProblems } from './items.js';
import { text, type Item, type SchemaBody } from './schema.js';

/** One broken rule: where it is (an item or a category, and the field) and what is wrong, in words for the designer. */
export interface FormProblem {
  entity: { type: 'item' | 'block'; id: number };
  field: string;
  message: string;
  /** The offending name (a formula's unknown function, a reference), shown beside the message, not in it. */
  name?: string;
}

export const FORM_RULE_MESSAGES = {
  empty: 'Empty is never valid: choose a type for this item.',
  unknownType: (type: string) => `Unknown question type: ${type}`,
  name: 'A name is needed in the primary language.',
  choices: 'A choice question needs at least one choice.',
  range: 'The minimum must not be above the maximum.',
  instruction: 'An instruction needs its text.',
  codeTypes: 'A restricted barcode needs at least one code type.',
  codeBlank: 'A question code is needed.',
  codeDuplicate: (code: string) => `The question code ${code} is used by another item.`,
  conditionUnknown: (id: number) => `The condition refers to question ${id}, which is not in this form.`,
  conditionPlacement:
    'This condition is always false: it cannot start with an operator other than NOT, cannot end with an operator, and needs exactly one operator between two tests.',
} as const;

const blank = (s: string | undefined) => (s ?? '').trim() === '';
/** Blank counts as 0 for numbers (spec 001 §5). */
const numeric = (v: number | string | undefined) => (v === undefined || v === '' ? 0 : Number(v));

/** Minimum above maximum, both active: numbers and currencies (blank is 0) and dates (ISO text, blank is unset). */
function rangeBroken(item: Item): boolean {
  const { minimum: min, maximum: max } = item.options;
  if (!min?.active || !max?.active) return false;
  if (item.type === 'date')
    return !blank(String(min.value)) && !blank(String(max.value)) && String(min.value) > String(max.value);
  return numeric(min.value) > numeric(max.value);
}

/** The problems of one item on its own (no other item involved). */
function itemProblems(
  body: SchemaBody,
  item: Item,
  positions: () => Map<number, number>,
): Omit<FormProblem, 'entity'>[] {
  const out: Omit<FormProblem, 'entity'>[] = [];
  const add = (field: string, message: string, name?: string) =>
    out.push(name === undefined ? { field, message } : { field, message, name });
  if (item.type === 'empty') {
    add('type', FORM_RULE_MESSAGES.empty);
    return out;
  }
  if (!(ITEM_TYPES as readonly string[]).includes(item.type)) {
    add('type', FORM_RULE_MESSAGES.unknownType(String(item.type)));
    return out;
  }
  const options = item.options ?? {};
  if (blank(item.name?.[body.primary_language])) add('name', FORM_RULE_MESSAGES.name);
  switch (item.type) {
    case 'number':
    case 'currency':
    case 'date':
      if (rangeBroken(item)) add('maximum', FORM_RULE_MESSAGES.range);
      break;
    case 'choice': {
      const choices = (options.choices ?? []).filter(
        (id) => body.entities.choices[id] && !body.entities.choices[id].deleted,
      );
      if (choices.length === 0) add('choices', FORM_RULE_MESSAGES.choices);
      if (options.choiceFilter) for (const p of choiceFilterProblems(body, item, positions())) add('choiceFilter', p);
      break;
    }
    case 'instruction':
      if (blank(text(item.instruction, body.primary_language))) add('instruction', FORM_RULE_MESSAGES.instruction);
      break;
    case 'barcode':
      if (
        options.restrictType &&
        !(options.codeTypes ?? []).some((c) => (BARCODE_FORMATS as readonly string[]).includes(c))
      )
        add('codeTypes', FORM_RULE_MESSAGES.codeTypes);
      break;
    case 'calculated': {
      for (const p of formulaProblems(body, item.id)) add('formula', p.message, p.name);
      break;
    }
    case 'concatenation': {
      const p = concatenationError(body, options.concatenation ?? '');
      if (p) add('concatenation', p);
      break;
    }
    default:
      break;
  }
  for (const p of ruleProblems(item)) add('rules', p);
  return out;
}

/**
 * Every broken form rule of a schema, item by item in id order, then category conditions: type empty or unknown, a
 * blank name in the primary language, a choice question without choices, a minimum above the maximum, an
 * instruction without text, a restricted barcode without code types, a blank or duplicate question code, formula and
 * concatenation errors, impossible answer rules, choice filters (cascading choices) that name no earlier single
 * choice question or choices it does not have, conditions whose operators are misplaced (spec 001 §5: such a
 * condition is always false, so it is refused rather than saved), and conditions on questions the form does not hold. `schemaId` is
 * the schema's own id: condition tests on it (or on 0, "this schema") must name one of its questions.
 */
export function formProblems(body: SchemaBody, schemaId = 0): FormProblem[] {
  const out: FormProblem[] = [];
  const items = Object.values(body.entities.items)
    .filter((i) => !i.deleted)
    .sort((a, b) => a.id - b.id);
  const codes = new Map<string, number>();
  for (const item of items) {
    const code = (item.codeName ?? '').trim();
    if (code !== '') codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  let order: Map<number, number> | undefined;
  const positions = () => (order ??= formPositions(body));
  for (const item of items) {
    const entity = { type: 'item' as const, id: item.id };
    for (const p of itemProblems(body, item, positions)) out.push({ entity, ...p });
    const code = (item.codeName ?? '').trim();
    if (code === '') out.push({ entity, field: 'codeName', message: FORM_RULE_MESSAGES.codeBlank });
    else if ((codes.get(code) ?? 0) > 1)
      out.push({ entity, field: 'codeName', message: FORM_RULE_MESSAGES.codeDuplicate(code) });
  }
  const blocks = Object.values(body.entities.blocks)
    .filter((b) => !b.deleted)
    .sort((a, b) => a.id - b.id);
  for (const block of blocks) {
    if (!placementValid(block.conditions))
      out.push({
        entity: { type: 'block', id: block.id },
        field: 'conditions',
        message: FORM_RULE_MESSAGES.conditionPlacement,
      });
    const unknown = new Set<number>();
    for (const e of block.conditions) {
      if (!('itemId' in e) || (e.schemaId !== 0 && e.schemaId !== schemaId)) continue;
      const target = body.entities.items[e.itemId];
      if (!target || target.deleted) unknown.add(e.itemId);
    }
    for (const id of unknown)
      out.push({
        entity: { type: 'block', id: block.id },
        field: 'conditions',
        message: FORM_RULE_MESSAGES.conditionUnknown(id),
      });
  }
  return out;
}

/** The problems of one item (what the builder shows under it). */
export function problemsOf(problems: readonly FormProblem[], type: 'item' | 'block', id: number): FormProblem[] {
  return problems.filter((p) => p.entity.type === type && p.entity.id === id);
}
