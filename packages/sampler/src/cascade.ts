// Cascading choices (XLSForm `choice_filter`): which choices of a filtered choice question are offered, given the
// answer to its filter question (see ChoiceFilter in schema.ts), and what is wrong with a filter a designer set.
import { isAnswered, type Answers } from './conditions.js';
import { itemsInOrder, type ChoiceFilter, type Item, type SchemaBody } from './schema.js';

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
  const all = (item.options.choices ?? []).filter(
    (c) => body.entities.choices[c] && !body.entities.choices[c]!.deleted,
  );
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
  const filter: unknown = item.options.choiceFilter;
  if (filter === undefined || filter === null || item.type !== 'choice') return [];
  if (typeof filter !== 'object' || typeof (filter as ChoiceFilter).itemId !== 'number')
    return [CHOICE_FILTER_MESSAGES.unknown];
  const { itemId, ties: rawTies } = filter as ChoiceFilter;
  const parent = body.entities.items[itemId];
  if (!parent || parent.deleted) return [CHOICE_FILTER_MESSAGES.unknown];
  const out: string[] = [];
  if (!isSingleChoice(parent)) out.push(CHOICE_FILTER_MESSAGES.notSingle);
  const at = positions.get(item.id);
  const parentAt = positions.get(parent.id);
  if (at !== undefined && (parentAt === undefined || parentAt >= at)) out.push(CHOICE_FILTER_MESSAGES.notBefore);
  const own = new Set(item.options.choices ?? []);
  const theirs = new Set(parent.options.choices ?? []);
  const plain = typeof rawTies === 'object' && rawTies !== null && !Array.isArray(rawTies);
  const ties: [string, unknown][] = plain ? Object.entries(rawTies) : [];
  if (ties.some(([c]) => !own.has(Number(c)))) out.push(CHOICE_FILTER_MESSAGES.notOwnChoice);
  if (!plain || ties.some(([, to]) => !Array.isArray(to) || to.some((c) => typeof c !== 'number' || !theirs.has(c))))
    out.push(CHOICE_FILTER_MESSAGES.unknownChoice);
  return out;
}

/** Whether any question of the form has a choice filter (so answers may need clearing when one changes). */
export function hasChoiceFilters(body: Pick<SchemaBody, 'entities'>): boolean {
  return Object.values(body.entities.items).some(
    (i) => !i.deleted && i.type === 'choice' && i.options.choiceFilter !== undefined,
  );
}

/**
 * The answers without the choices their filter question's answer no longer offers, in form order (so a cascade of
 * several levels clears down the chain): a single choice answer not offered is cleared, a multiselect answer keeps
 * its offered choices. The same object when nothing changes.
 */
export function withoutUnoffered(body: SchemaBody, answers: Answers): Answers {
  if (!hasChoiceFilters(body)) return answers;
  let out = answers;
  for (const { item } of itemsInOrder(body)) {
    if (item.type !== 'choice' || !item.options.choiceFilter) continue;
    const value = out[String(item.id)];
    if (!isAnswered(value)) continue;
    const offered = new Set(offeredChoices(body, item, out));
    const ids: unknown[] = Array.isArray(value) ? value : [value];
    const kept = ids.filter((c) => typeof c === 'number' && offered.has(c));
    if (kept.length === ids.length) continue;
    out = { ...out, [String(item.id)]: Array.isArray(value) ? kept : null };
  }
  return out;
}
