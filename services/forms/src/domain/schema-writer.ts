// Builds a sampler schema in one pass for the converters: each block, item and choice is created once in place, so a
// form of n rows costs O(n). The builder's edits (packages/sampler builder.ts) copy the whole schema on each change,
// which made imports quadratic (issue 23).
import {
  defaultOptions,
  newBlock,
  newSchemaBody,
  type Block,
  type Choice,
  type Item,
  type ItemType,
  type LocalizedText,
  type SchemaBody,
} from '@fieldwork/sampler';

export class SchemaWriter {
  readonly body: SchemaBody;
  private readonly codes = new Set<string>();

  constructor(projectType: string, language: { iso_code_1: string; name: string }) {
    this.body = newSchemaBody(projectType, language);
    for (const item of Object.values(this.body.entities.items)) this.codes.add(item.codeName);
  }

  addLanguage(iso: string, name: string): void {
    const id = ++this.body.counters.languages;
    this.body.entities.languages[id] = { iso_code_1: iso, name, deleted: false, sort: id - 1 };
  }

  /** A block at the end of the form, or at the end of `parent`. */
  addBlock(name: LocalizedText, parent?: Block): Block {
    const id = ++this.body.counters.blocks;
    const block = newBlock(id, name);
    this.body.entities.blocks[id] = block;
    if (parent) parent.entities.push({ type: 'block', id });
    else this.body.form.push(id);
    return block;
  }

  /** An item with the type's default options; not yet placed in a block (see place). */
  addItem(type: ItemType, name: LocalizedText, codeName: string): Item {
    const id = ++this.body.counters.items;
    const item: Item = {
      id,
      name,
      codeName: this.uniqueCode(codeName, `q${id}`),
      type,
      options: defaultOptions(type),
      deleted: false,
    };
    if (type === 'instruction') item.instruction = {};
    this.body.entities.items[id] = item;
    return item;
  }

  place(item: Item, block: Block): void {
    block.entities.push({ type: 'item', id: item.id });
  }

  addChoice(item: Item, name: LocalizedText, codeName: string): Choice {
    const id = ++this.body.counters.choices;
    const choice: Choice = { id, codeName, name, stop: false, deleted: false };
    this.body.entities.choices[id] = choice;
    (item.options.choices ??= []).push(id);
    return choice;
  }

  /** Forgets an item that turned out not to be convertible (it was never placed). */
  drop(item: Item): void {
    for (const c of item.options.choices ?? []) Reflect.deleteProperty(this.body.entities.choices, c);
    Reflect.deleteProperty(this.body.entities.items, item.id);
    this.codes.delete(item.codeName);
  }

  /** Code names are unique in a schema: a repeated one gets _2, _3... */
  private uniqueCode(wanted: string, fallback: string): string {
    const base = wanted.trim() || fallback;
    let code = base;
    for (let n = 2; this.codes.has(code); n++) code = `${base}_${n}`;
    this.codes.add(code);
    return code;
  }
}
