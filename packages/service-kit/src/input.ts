// JSON text carried in a gRPC field (filters, comparisons, payloads), parsed against a zod schema; what does not fit
// becomes the per-field messages of a 400, keyed by the path below `field`.
import type { z } from 'zod';
import { problems, type FieldErrors } from './problems.js';

/** Zod issues as field errors keyed by their dotted path under `prefix` ("filters.filters.0.operator"). */
export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix?: string,
): FieldErrors {
  const out: FieldErrors = {};
  for (const i of issues) {
    const key = [...(prefix ? [prefix] : []), ...i.path.map(String)].join('.') || 'non_field_errors';
    (out[key] ??= []).push(i.message);
  }
  return out;
}

/** Parses `text` (empty means `empty`) with `schema`; bad JSON answers `notJson` on `field`. */
export function parseJsonInput<S extends z.ZodType>(
  text: string,
  schema: S,
  field: string,
  options: { empty: unknown; notJson: string },
): z.infer<S> {
  let raw: unknown = options.empty;
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw problems.invalidFields({ [field]: [options.notJson] });
    }
  }
  const parsed = schema.safeParse(raw ?? options.empty);
  if (!parsed.success) throw problems.invalidFields(fieldErrorsOf(parsed.error.issues, field));
  return parsed.data;
}
