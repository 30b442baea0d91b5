// A sampler schema as a tree without ids, for comparing two forms: blocks and items in order, every reference (a
// condition's question and choices, a formula's questions) by code name.
import type { Block, ConditionEntry, Item, SchemaBody } from '@fieldwork/sampler';

/**
 * The form as a tree without ids: blocks and items in order, references by code name. `others`: the forms a
 * condition may name by schema id (a parent level's), so that its question is named by code too.
 */
export function shape(body: SchemaBody, others: Record<number, SchemaBody> = {}) {
  const { items, choices, blocks } = body.entities;
  const code = (id: number) => items[id]?.codeName ?? `?${id}`;
  const conditions = (entries: ConditionEntry[]) =>
    entries.map((e) => {
      if ('operator' in e) return e.operator;
      const from = others[e.schemaId]?.entities ?? body.entities;
      const item = from.items[e.itemId];
      const condition = Array.isArray(e.condition) ? e.condition.map((c) => (item?.options.choices?.includes(c) ? from.choices[c]?.codeName : `?${c}`)) : e.condition;
      return { item: item?.codeName ?? `?${e.itemId}`, schema: e.schemaId, condition, finalized: e.finalized };
    });
  const item = (i: Item) => {
    const o = i.options;
    return {
      code: i.codeName,
      type: i.type,
      name: i.name,
      instruction: i.instruction,
      required: o.isRequiredQuestion,
      multiselect: o.multiselect,
      allowDecimal: o.allowDecimal,
      rules: { minimum: o.minimum, maximum: o.maximum, minLength: o.minLength, maxLength: o.maxLength, minChoices: o.minChoices, maxChoices: o.maxChoices, pattern: o.pattern },
      formula: o.formula?.replace(/Q(\d+)_(\d+)/g, (_m, _b, id: string) => `{${code(Number(id))}}`),
      choices: (o.choices ?? []).map((c) => ({ code: choices[c]!.codeName, name: choices[c]!.name })),
      // Cascading choices: the filter question, and per choice the names of its choices it is offered for.
      choiceFilter: o.choiceFilter && { item: code(o.choiceFilter.itemId), ties: (o.choices ?? []).map((c) => [...new Set((o.choiceFilter!.ties[String(c)] ?? []).map((t) => choices[t]?.codeName ?? `?${t}`))].sort()) },
    };
  };
  const block = (b: Block): unknown => ({
    name: b.name,
    conditions: conditions(b.conditions),
    entities: b.entities.map((e) => (e.type === 'item' ? item(items[e.id]!) : block(blocks[e.id]!))),
  });
  return {
    primary: body.primary_language,
    languages: Object.values(body.entities.languages).map((l) => ({ code: l.iso_code_1, name: l.name })),
    form: body.form.map((id) => block(blocks[id]!)),
  };
}

