// Cascading choices (XLSForm `choice_filter`): which choices of a filtered choice question are offered, given the
// answer to its filter question (see ChoiceFilter in schema.ts), and what is wrong with a filter a designer set.
import { isAnswered, type Answers } from './conditions.js';
import { itemsInOrder, type Item, type SchemaBody } from './schema.js';

export const CHOICE_FILTER_MESSAGES = {
  unknown: 'The question that filters these choices is not in this form.',
  notSingle: 'Choices can only be filtered by a single choice question.',
  notBefore: 'The question that filters these choices must come before this one.',
  unknownChoice: 'A choice is tied to a choice the filter question does not have.',
  notOwnChoice: 'A tie names a choice this question does not have.',
} as const;

/** A single choice question (not multiselect): the only kind that may filter another's choices. */
export function isSingleChoice(item: Pick<Item, 'type' | 'options'> | undefined): boolean {
  return item !== undefined && item.type === 'choice' && item.options.multiselect !== true;
}

/** The choice id a single choice answer holds (a number, or a list of one), else undefined. */
export function singleChoiceOf(value: unknown): number | undefined {
  if (!isAnswered(value)) return undefined;
  const v = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
  return typeof v === 'number' ? v : undefined;
}

/**
 * The choices of `item` offered given `answers` (by item id, the filter question's included), in the question's
 * order; every choice not deleted when the question has no filter.
 */
export function offeredChoices(body: Pick<SchemaBody, 'entities'>, item: Item, answers: Answers): number[] {
  const all = (item.options.choices ?? []).filter((c) => body.entities.choices[c] && !body.entities.choices[c]!.deleted);
  const filter = item.options.choiceFilter;
  if (!filter) return all;
  const parent = singleChoiceOf(answers[String(filter.itemId)]);
  if (parent === undefined) return [];
  return all.filter((c) => {
    const to: unknown = filter.ties?.[String(c)];
    return Array.isArray(to) && to.includes(parent);
  });
}

/** Each placed item's position in form order. */
export function formPositions(body: SchemaBody): Map<number, number> {
  return new Map(itemsInOrder(body).map((e, i) => [e.item.id, i]));
}

/** The problems of an item's choice filter (form rules), in words for the designer; `positions` from formPositions. */
export function choiceFilterProblems(body: SchemaBody, item: Item, positions = formPositions(body)): string[] {
  const filter = item.options.choiceFilter;
  if (!filter || item.type !== 'choice') return [];
  const parent = body.entities.items[filter.itemId];
  if (!parent || parent.deleted) return [CHOICE_FILTER_MESSAGES.unknown];
  const out: string[] = [];
  if (!isSingleChoice(parent)) out.push(CHOICE_FILTER_MESSAGES.notSingle);
  const at = positions.get(item.id);
  const parentAt = positions.get(parent.id);
  if (at !== undefined && (parentAt === undefined || parentAt >= at)) out.push(CHOICE_FILTER_MESSAGES.notBefore);
  const own = new Set(item.options.choices ?? []);
  const theirs = new Set(parent.options.choices ?? []);
  const ties: [string, unknown][] = typeof filter.ties === 'object' && filter.ties !== null ? Object.entries(filter.ties) : [];
  if (ties.some(([c]) => !own.has(Number(c)))) out.push(CHOICE_FILTER_MESSAGES.notOwnChoice);
  if (ties.some(([, to]) => !Array.isArray(to) || to.some((c) => typeof c !== 'number' || !theirs.has(c)))) out.push(CHOICE_FILTER_MESSAGES.unknownChoice);
  return out;
}
