// The form-rule problems the builder shows at each item: its own check (formProblems, the rules the API applies) and,
// after a refused save, the server's per-item field errors (`items.<id>.<field>`, `blocks.<id>.<field>`).
import type { FormProblem } from '@fieldwork/sampler';

const KEY = /^(items|blocks)\.(\d+)\.(\w+)$/;

/** The per-item field errors of a refused save, as problems; other fields and other errors give none. */
export function serverProblems(error: unknown): FormProblem[] {
  const data =
    typeof error === 'object' && error !== null && 'data' in error ? (error as { data: unknown }).data : undefined;
  if (typeof data !== 'object' || data === null) return [];
  const out: FormProblem[] = [];
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const m = KEY.exec(key);
    if (!m) continue;
    const entity = { type: m[1] === 'items' ? ('item' as const) : ('block' as const), id: Number(m[2]) };
    for (const message of Array.isArray(value) ? value : [value])
      out.push({ entity, field: m[3]!, message: String(message) });
  }
  return out;
}

/** Local and server problems of one item or category, each message once. */
export function problemsAt(
  local: readonly FormProblem[],
  server: readonly FormProblem[],
  type: 'item' | 'block',
  id: number,
): FormProblem[] {
  const seen = new Set<string>();
  return [...local, ...server].filter((p) => {
    if (p.entity.type !== type || p.entity.id !== id) return false;
    const k = `${p.field}\n${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
