// Record validity (spec 001 §5): what a response needs before it can be saved, unless it is forced valid.
import { isAnswered, type Answers, type Visibility } from './conditions.js';
import { isQuestion, itemsInOrder, type SchemaBody } from './schema.js';

export const RECORD_MESSAGES = {
  noAnswer: 'At least one question must be answered to save this record.',
  primaryKey: 'Primary question must be answered to save this record.',
  lookup: 'All lookup questions must be answered to save this record.',
  required: 'All required questions must be answered to save this record.',
} as const;

export type RecordValidity = { valid: true } | { valid: false; message: string; itemIds: number[] };

/**
 * At least one question answered; shown lookup questions answered (the primary key first); shown required
 * questions answered. `lenient` (the third argument) skips the lookup and required checks, for drafts.
 */
export function recordValidity(
  body: SchemaBody,
  answers: Answers,
  shown: Map<number, Visibility>,
  lenient = false,
): RecordValidity {
  const questions = Object.values(body.entities.items).filter(
    (i) => !i.deleted && isQuestion(i) && i.type !== 'calculated' && i.type !== 'concatenation',
  );
  if (!questions.some((q) => isAnswered(answers[String(q.id)])))
    return { valid: false, message: RECORD_MESSAGES.noAnswer, itemIds: [] };
  if (lenient) return { valid: true };
  const visible = questions.filter((q) => shown.get(q.id) === 'shown');
  const missing = (ids: number[]) => ids.filter((id) => !isAnswered(answers[String(id)]));
  const key = visible.filter((q) => q.options.isPrimaryKey).map((q) => q.id);
  const lookups = visible.filter((q) => q.options.isLookupQuestion || q.options.isPrimaryKey).map((q) => q.id);
  if (missing(key).length > 0) return { valid: false, message: RECORD_MESSAGES.primaryKey, itemIds: missing(key) };
  if (missing(lookups).length > 0) return { valid: false, message: RECORD_MESSAGES.lookup, itemIds: missing(lookups) };
  const required = visible
    .filter((q) => q.options.isRequiredQuestion === true || blockRequiresAll(body, q.id))
    .map((q) => q.id);
  if (missing(required).length > 0)
    return { valid: false, message: RECORD_MESSAGES.required, itemIds: missing(required) };
  return { valid: true };
}

/** Every shown question that must be answered (primary key, lookup, required) and is not, in form order. */
export function requiredUnanswered(body: SchemaBody, answers: Answers, shown: Map<number, Visibility>): number[] {
  return itemsInOrder(body)
    .map((e) => e.item)
    .filter(
      (q) => isQuestion(q) && q.type !== 'calculated' && q.type !== 'concatenation' && shown.get(q.id) === 'shown',
    )
    .filter(
      (q) =>
        q.options.isPrimaryKey ||
        q.options.isLookupQuestion ||
        q.options.isRequiredQuestion === true ||
        blockRequiresAll(body, q.id),
    )
    .filter((q) => !isAnswered(answers[String(q.id)]))
    .map((q) => q.id);
}

/** A category marked "all questions required" makes its questions required. */
function blockRequiresAll(body: SchemaBody, itemId: number): boolean {
  return Object.values(body.entities.blocks).some(
    (b) =>
      !b.deleted && b.markTypes.allQuestionsRequired && b.entities.some((e) => e.type === 'item' && e.id === itemId),
  );
}
