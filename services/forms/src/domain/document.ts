// A schema document sent by the builder: its shape is checked before anything else, then the rules of spec 001 §5.
import {
  concatenationError,
  formProblems,
  formulaProblems,
  ITEM_TYPES,
  ruleProblems,
  type SchemaBody,
} from '@fieldwork/sampler';

export type FieldErrors = Record<string, string[]>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The document as a SchemaBody, or the problems with its shape. */
export function parseDocument(json: string): { body: SchemaBody } | { errors: FieldErrors } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { errors: { schema: ['The schema is not valid JSON.'] } };
  }
  const errors: string[] = [];
  if (!isObject(raw)) return { errors: { schema: ['The schema must be an object.'] } };
  const { form, counters, entities } = raw;
  if (!Array.isArray(form) || !form.every((x) => Number.isSafeInteger(x)))
    errors.push('form must be a list of category ids.');
  if (
    !isObject(counters) ||
    !['blocks', 'items', 'choices', 'languages'].every((k) => Number.isSafeInteger(counters[k]))
  ) {
    errors.push('counters must hold blocks, items, choices and languages.');
  }
  if (!isObject(entities) || !['blocks', 'items', 'choices', 'languages'].every((k) => isObject(entities[k]))) {
    errors.push('entities must hold blocks, items, choices and languages.');
  }
  if (errors.length > 0) return { errors: { schema: errors } };
  const e = entities as SchemaBody['entities'];
  const c = counters as SchemaBody['counters'];
  for (const [key, item] of Object.entries(e.items)) {
    if (!isObject(item) || item.id !== Number(key)) errors.push(`item ${key}: its id does not match.`);
    else if (!(ITEM_TYPES as readonly string[]).includes(item.type))
      errors.push(`item ${key}: unknown type ${String(item.type)}.`);
    else if (!isObject(item.name) || !isObject(item.options)) errors.push(`item ${key}: name and options are needed.`);
    else if (item.id > c.items) errors.push(`item ${key}: beyond counters.items.`);
  }
  for (const [key, block] of Object.entries(e.blocks)) {
    if (
      !isObject(block) ||
      block.id !== Number(key) ||
      !Array.isArray(block.entities) ||
      !Array.isArray(block.conditions)
    ) {
      errors.push(`category ${key}: id, entities and conditions are needed.`);
      continue;
    }
    for (const ref of block.entities as unknown[]) {
      const r = ref as { type?: string; id?: number };
      const target =
        r.type === 'item' ? e.items[String(r.id)] : r.type === 'block' ? e.blocks[String(r.id)] : undefined;
      if (!target) errors.push(`category ${key}: refers to a missing ${r.type ?? 'entity'} ${String(r.id)}.`);
    }
  }
  for (const id of form as number[]) if (!e.blocks[String(id)]) errors.push(`form refers to a missing category ${id}.`);
  if (Object.values(e.languages).filter((l) => isObject(l) && !l.deleted).length === 0)
    errors.push('a schema needs a language.');
  if (errors.length > 0) return { errors: { schema: errors.slice(0, 20) } };
  const body = raw as unknown as SchemaBody;
  return {
    body: {
      version: typeof body.version === 'string' ? body.version : '1.0',
      primary_language:
        typeof body.primary_language === 'string' ? body.primary_language : Object.values(e.languages)[0]!.iso_code_1,
      form: body.form,
      counters: body.counters,
      entities: body.entities,
      results: isObject(body.results) ? body.results : {},
      profiles: isObject(body.profiles) ? body.profiles : {},
    },
  };
}

/**
 * The form rules (spec 001 §5) a save must meet, as field errors: every problem of `formProblems` under
 * `items.<id>.<field>` or `blocks.<id>.<field>` (where the builder shows it), after the summary lists `formula`,
 * `concatenation` and `rules` ("<code>: <message>") that clients of the first API read. `schemaId` is the schema's own id.
 */
export function documentProblems(body: SchemaBody, schemaId = 0): FieldErrors {
  const errors: FieldErrors = {};
  for (const item of Object.values(body.entities.items)) {
    if (item.deleted) continue;
    if (item.type === 'calculated') {
      const p = formulaProblems(body, item.id);
      if (p.length > 0) (errors.formula ??= []).push(`${item.codeName}: ${p.map((x) => x.message).join(' ')}`);
    }
    if (item.type === 'concatenation') {
      const p = concatenationError(body, item.options.concatenation ?? '');
      if (p) (errors.concatenation ??= []).push(`${item.codeName}: ${p}`);
    }
    for (const p of ruleProblems(item)) (errors.rules ??= []).push(`${item.codeName}: ${p}`);
  }
  for (const p of formProblems(body, schemaId))
    (errors[`${p.entity.type === 'item' ? 'items' : 'blocks'}.${p.entity.id}.${p.field}`] ??= []).push(p.message);
  return errors;
}
