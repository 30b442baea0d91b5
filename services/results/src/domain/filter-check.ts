// The checks of a results filter model against the forms and the project (issue 20, bad input): a question, a
// choice or a site the filter names must exist, and a date range must not end before it starts. Each problem is a
// field message, so the caller answers 400 instead of a query that silently matches nothing. Pure.
import { idList, type FilterModel, type SchemaBody } from '@fieldwork/sampler';

export const FILTER_MESSAGES = {
  question: (id: number) => `Question ${id} is not a question of this form.`,
  choice: (choice: number, question: number) => `Choice ${choice} is not a choice of question ${question}.`,
  notDate: (id: number) => `Question ${id} is not a date question.`,
  site: (id: number) => `Site ${id} is not a site of this project.`,
  inverted: 'The start of a date range must not be after its end.',
} as const;

const CHOICE_TYPES = new Set(['choice', 'binary']);

/** Whether the filter names sites (only then are the project's sites needed). */
export const namesSites = (f: FilterModel) => idList(f.site).length > 0;
/** Whether the filter names questions (only then are the forms needed). */
export const namesQuestions = (f: FilterModel) =>
  f.filters.length > 0 || f.date_ranges.some((r) => r.entity !== 'response');

/**
 * The problems of `f` by field (empty: none). `bodies`: the forms the query reads (a question must be in one of
 * them); `sites`: the project's site ids, or null when not needed.
 */
export function filterProblems(
  f: FilterModel,
  bodies: SchemaBody[],
  sites: ReadonlySet<number> | null,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    const list = (out[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const itemOf = (id: number) => {
    for (const b of bodies) {
      const item = b.entities.items[String(id)];
      if (item && !item.deleted) return { item, body: b };
    }
    return undefined;
  };
  for (const q of f.filters) {
    const found = itemOf(q.question);
    if (!found) {
      add('filters', FILTER_MESSAGES.question(q.question));
      continue;
    }
    const { item, body } = found;
    if (!CHOICE_TYPES.has(item.type) || !(Array.isArray(q.value) || q.operator === 'in')) continue;
    const live = new Set(
      (item.options.choices ?? [])
        .filter((c) => {
          const choice = body.entities.choices[String(c)];
          return choice !== undefined && !choice.deleted;
        })
        .map(Number),
    );
    for (const v of Array.isArray(q.value) ? q.value : [q.value]) {
      const n = Number(v);
      if (!live.has(n)) add('filters', FILTER_MESSAGES.choice(Number.isFinite(n) ? n : -1, item.id));
    }
  }
  for (const r of f.date_ranges) {
    if (r.entity !== 'response') {
      const found = itemOf(r.entity);
      if (!found) add('date_ranges', FILTER_MESSAGES.question(r.entity));
      else if (found.item.type !== 'date') add('date_ranges', FILTER_MESSAGES.notDate(r.entity));
    }
    const start = r.startDateTime;
    const end = r.endDateTime;
    if (start !== null && start !== undefined && end !== null && end !== undefined && start > end)
      add('date_ranges', FILTER_MESSAGES.inverted);
  }
  if (sites) for (const s of idList(f.site)) if (!sites.has(s)) add('site', FILTER_MESSAGES.site(s));
  return out;
}
