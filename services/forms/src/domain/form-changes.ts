// What replacing a form changes for its responses: questions added, removed and retyped, matched by code name
// (answers are read by code name in exports and results, so a renamed code is a removed and an added question).
import { isQuestion, type SchemaBody } from '@fieldwork/sampler';

export interface FormChanges {
  /** Code names of questions only the new form has, with their type. */
  added: { codeName: string; type: string }[];
  /** Code names of questions only the current form has, with their type. */
  removed: { codeName: string; type: string }[];
  /** Questions in both whose type changed. */
  retyped: { codeName: string; from: string; to: string }[];
}

const questionTypes = (body: SchemaBody) =>
  new Map(
    Object.values(body.entities.items)
      .filter((i) => !i.deleted && isQuestion(i))
      .map((i) => [i.codeName, i.type] as const),
  );

/** The questions `next` adds, removes and retypes compared with `current`, each list sorted by code name. */
export function formChanges(current: SchemaBody, next: SchemaBody): FormChanges {
  const before = questionTypes(current);
  const after = questionTypes(next);
  const byCode = <T extends { codeName: string }>(list: T[]) =>
    list.sort((a, b) => a.codeName.localeCompare(b.codeName));
  return {
    added: byCode([...after].filter(([code]) => !before.has(code)).map(([codeName, type]) => ({ codeName, type }))),
    removed: byCode([...before].filter(([code]) => !after.has(code)).map(([codeName, type]) => ({ codeName, type }))),
    retyped: byCode(
      [...after].flatMap(([codeName, to]) => {
        const from = before.get(codeName);
        return from !== undefined && from !== to ? [{ codeName, from, to }] : [];
      }),
    ),
  };
}

export const changeCount = (c: FormChanges) => c.added.length + c.removed.length + c.retyped.length;

/**
 * The changes as a problem's field detail: one entry per question code, ["added", type], ["removed", type] or
 * ["retyped", from, to], so the client can list them.
 */
export function changeFields(c: FormChanges): Record<string, string[]> {
  return Object.fromEntries([
    ...c.removed.map((q) => [q.codeName, ['removed', q.type]]),
    ...c.retyped.map((q) => [q.codeName, ['retyped', q.from, q.to]]),
    ...c.added.map((q) => [q.codeName, ['added', q.type]]),
  ]);
}
