// The 409.2 answer of an import over a form that has responses: its message and the questions it would change.
export type QuestionChange =
  | { code: string; kind: 'added' | 'removed'; type: string }
  | { code: string; kind: 'retyped'; from: string; to: string };

export interface ReplaceRefusal {
  detail: string;
  changes: QuestionChange[];
}

/** The refusal in an RTK Query error, or undefined for any other error. Unknown entries are skipped. */
export function replaceRefusal(error: unknown): ReplaceRefusal | undefined {
  if (typeof error !== 'object' || error === null || (error as { status?: unknown }).status !== 409) return undefined;
  const data = (error as { data?: unknown }).data as { detail?: unknown; changes?: unknown } | undefined;
  if (typeof data?.detail !== 'string' || typeof data.changes !== 'object' || data.changes === null) return undefined;
  const changes: QuestionChange[] = [];
  for (const [code, value] of Object.entries(data.changes as Record<string, unknown>)) {
    if (!Array.isArray(value)) continue;
    const [kind, a, b] = value.map(String);
    if ((kind === 'added' || kind === 'removed') && a !== undefined) changes.push({ code, kind, type: a });
    else if (kind === 'retyped' && a !== undefined && b !== undefined) changes.push({ code, kind, from: a, to: b });
  }
  return { detail: data.detail, changes };
}
