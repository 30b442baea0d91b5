// The form's problems, by question: those packages/sampler finds before anything is queued or sent (the check the
// responses service runs too), and those the server answered with a refusal ("data.0.12" field errors and the rest).
import { checkProblems, checkResponse, type Answers, type ResponseCheck, type SchemaBody } from '@fieldwork/sampler';

export interface FormProblems {
  /** The message at each question, by item id. */
  byItem: Map<number, string>;
  /** Messages that belong to no question (the record's validity, the server's non-field errors). */
  general: string[];
}

export const NO_PROBLEMS: FormProblems = { byItem: new Map(), general: [] };

export function hasProblems(p: FormProblems): boolean {
  return p.byItem.size > 0 || p.general.length > 0;
}

/** The sampler's check of the first repeat's answers; `complete` asks for the required questions too. */
export function checkForm(
  body: SchemaBody,
  schemaId: number,
  answers: Answers,
  options: { complete: boolean; other?: Record<number, Answers>; lang?: string },
): { check: ResponseCheck; problems: FormProblems } {
  const check = checkResponse(
    body,
    { '0': answers },
    {
      schemaId,
      lenient: !options.complete,
      ...(options.other ? { other: options.other } : {}),
      ...(options.lang ? { lang: options.lang } : {}),
    },
  );
  const byItem = new Map<number, string>();
  for (const [key, message] of Object.entries(checkProblems(check))) {
    const id = Number(key.split('.')[1]);
    if (Number.isSafeInteger(id)) byItem.set(id, message);
  }
  const general = check.record.valid ? [] : [check.record.message];
  return { check, problems: { byItem, general } };
}

/** A refusal's body (spec error shapes: detail, non_field_errors, field errors) as problems at questions and the rest. */
export function serverProblems(body: unknown, fallback: string): FormProblems {
  const byItem = new Map<number, string>();
  const general: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { byItem, general: [fallback] };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const first = Array.isArray(value)
      ? value.find((v): v is string => typeof v === 'string')
      : typeof value === 'string'
        ? value
        : undefined;
    if (first === undefined) continue;
    const item = /^data\.\d+\.(\d+)$/.exec(key);
    if (item) byItem.set(Number(item[1]), first);
    else if (key === 'non_field_errors' || key === 'detail' || key === 'error_message') general.push(first);
    else general.push(`${key}: ${first}`);
  }
  if (byItem.size === 0 && general.length === 0) general.push(fallback);
  return { byItem, general };
}

/** Problems kept with a queued response as plain JSON (IndexedDB keeps no Map). */
export function problemsToStored(p: FormProblems): { items: Record<string, string>; general: string[] } {
  return { items: Object.fromEntries([...p.byItem].map(([id, m]) => [String(id), m])), general: p.general };
}

export function problemsFromStored(s: { items: Record<string, string>; general: string[] } | undefined): FormProblems {
  if (!s) return NO_PROBLEMS;
  return { byItem: new Map(Object.entries(s.items).map(([id, m]) => [Number(id), m])), general: s.general };
}
