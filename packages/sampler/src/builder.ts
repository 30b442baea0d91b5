// Edits of a sampler schema (spec 001 §4 Form builder), pure: each takes a schema and returns a new one. Deleting
// only marks an entity deleted and removes its reference.
import { DUPLICATE_CODE_PREFIX, DUPLICATE_NAME_PREFIX, type ItemType } from './constants.js';
import { defaultOptions } from './items.js';
import {
  parentOf,
  type Block,
  type ConditionEntry,
  type EntityRef,
  type Item,
  type LocalizedText,
  type SchemaBody,
} from './schema.js';

export class SchemaEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaEditError';
  }
}

const clone = (body: SchemaBody): SchemaBody => structuredClone(body);

function block(body: SchemaBody, id: number): Block {
  const b = body.entities.blocks[id];
  if (!b || b.deleted) throw new SchemaEditError(`no category ${id}`);
  return b;
}

function item(body: SchemaBody, id: number): Item {
  const i = body.entities.items[id];
  if (!i || i.deleted) throw new SchemaEditError(`no question ${id}`);
  return i;
}

/** A code name from a label: lower case words joined by underscores, unique in the schema. */
export function codeNameFor(body: SchemaBody, label: string, fallback: string): string {
  const base =
    label
      .trim()
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\w]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || fallback;
  const taken = new Set(
    Object.values(body.entities.items)
      .filter((i) => !i.deleted)
      .map((i) => i.codeName),
  );
  let name = /^\d/.test(base) ? `q_${base}` : base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

/** A new, empty block: asked every time, no conditions, no marks. */
export function newBlock(id: number, name: LocalizedText): Block {
  return {
    id,
    name,
    askOnce: false,
    entities: [],
    conditions: [],
    markTypes: { allQuestionsRequired: false, allQuestionsOptional: false },
    deleted: false,
  };
}

export function addBlock(body: SchemaBody, name: LocalizedText, parentId?: number): { body: SchemaBody; id: number } {
  const next = clone(body);
  const id = ++next.counters.blocks;
  next.entities.blocks[id] = newBlock(id, name);
  if (parentId === undefined) next.form.push(id);
  else block(next, parentId).entities.push({ type: 'block', id });
  return { body: next, id };
}

export function updateBlock(
  body: SchemaBody,
  id: number,
  patch: Partial<Pick<Block, 'name' | 'askOnce' | 'conditions' | 'markTypes'>>,
): SchemaBody {
  const next = clone(body);
  Object.assign(block(next, id), structuredClone(patch));
  return next;
}

/** Marks the category and what it holds deleted and drops its reference; answers the first remaining category. */
export function deleteBlock(body: SchemaBody, id: number): { body: SchemaBody; selected: number | undefined } {
  const next = clone(body);
  const mark = (b: Block) => {
    b.deleted = true;
    for (const ref of b.entities) {
      if (ref.type === 'item') next.entities.items[ref.id]!.deleted = true;
      else mark(next.entities.blocks[ref.id]!);
    }
  };
  const target = block(next, id);
  const parent = parentOf(next, { type: 'block', id });
  mark(target);
  next.form = next.form.filter((b) => b !== id);
  if (parent) parent.entities = parent.entities.filter((e) => !(e.type === 'block' && e.id === id));
  return { body: next, selected: next.form.find((b) => !next.entities.blocks[b]?.deleted) };
}

/** Adds a question (or instruction) at the end of a category, or after `afterItemId`. */
export function addItem(
  body: SchemaBody,
  blockId: number,
  type: ItemType,
  lang: string,
  label = '',
  afterItemId?: number,
): { body: SchemaBody; id: number } {
  let next = clone(body);
  const target = block(next, blockId);
  const id = ++next.counters.items;
  const created: Item = {
    id,
    name: label === '' ? {} : { [lang]: label },
    codeName: codeNameFor(next, label, `q${id}`),
    type,
    options: defaultOptions(type),
    ...(type === 'instruction' ? { instruction: {} } : {}),
    deleted: false,
  };
  next.entities.items[id] = created;
  const at =
    afterItemId === undefined ? -1 : target.entities.findIndex((e) => e.type === 'item' && e.id === afterItemId);
  target.entities.splice(at < 0 ? target.entities.length : at + 1, 0, { type: 'item', id });
  // New binary questions get two choices (spec 001 §9).
  if (type === 'binary') {
    for (const [name, code] of [
      ['Yes', 'yes'],
      ['No', 'no'],
    ] as const)
      next = addChoice(next, id, lang, name, code).body;
  }
  return { body: next, id };
}

/**
 * Updates an item's texts and options. Its type cannot change this way (a type change rebuilds the item); a primary
 * key inside a category with conditions is not allowed.
 */
export function updateItem(
  body: SchemaBody,
  id: number,
  patch: Partial<Pick<Item, 'name' | 'codeName' | 'options' | 'instruction' | 'type'>>,
): SchemaBody {
  const next = clone(body);
  const target = item(next, id);
  if (patch.type !== undefined && patch.type !== target.type)
    throw new SchemaEditError("An item's type cannot be changed by a plain update.");
  if (patch.name) target.name = { ...patch.name };
  if (patch.codeName !== undefined) target.codeName = patch.codeName.trim();
  if (patch.instruction) target.instruction = { ...patch.instruction };
  if (patch.options) target.options = { ...target.options, ...structuredClone(patch.options) };
  return next;
}

/** A type change rebuilds the item, keeping only the required flag (a calculated question keeps it false). */
export function changeItemType(body: SchemaBody, id: number, type: ItemType, lang: string): SchemaBody {
  let next = clone(body);
  const old = item(next, id);
  for (const c of old.options.choices ?? []) if (next.entities.choices[c]) next.entities.choices[c].deleted = true;
  untie(next, old.options.choices ?? []);
  next.entities.items[id] = {
    id,
    name: old.name,
    codeName: old.codeName,
    type,
    options: {
      ...defaultOptions(type),
      isRequiredQuestion: type === 'calculated' ? false : old.options.isRequiredQuestion === true,
    },
    ...(type === 'instruction' ? { instruction: {} } : {}),
    deleted: false,
  };
  if (type === 'binary')
    for (const [name, code] of [
      ['Yes', 'yes'],
      ['No', 'no'],
    ] as const)
      next = addChoice(next, id, lang, name, code).body;
  return next;
}

/** A copy right after the original: 'Duplicate of ' names, 'copy_of_' code, its own choices. */
export function duplicateItem(body: SchemaBody, id: number): { body: SchemaBody; id: number } {
  const next = clone(body);
  const original = item(next, id);
  const copyId = ++next.counters.items;
  const copies = new Map<number, number>();
  const choices = (original.options.choices ?? []).map((c) => {
    const choice = next.entities.choices[c]!;
    const newId = ++next.counters.choices;
    next.entities.choices[newId] = { ...structuredClone(choice), id: newId };
    copies.set(c, newId);
    return newId;
  });
  // Cascading choices: the copy's choices are tied as the original's are.
  const filter = original.options.choiceFilter;
  const copiedFilter = filter && {
    itemId: filter.itemId,
    ties: Object.fromEntries(
      Object.entries(filter.ties ?? {}).map(([c, to]) => [String(copies.get(Number(c)) ?? c), structuredClone(to)]),
    ),
  };
  next.entities.items[copyId] = {
    ...structuredClone(original),
    id: copyId,
    name: Object.fromEntries(Object.entries(original.name).map(([l, n]) => [l, `${DUPLICATE_NAME_PREFIX}${n}`])),
    codeName: codeNameFor(
      next,
      `${DUPLICATE_CODE_PREFIX}${original.codeName}`,
      `${DUPLICATE_CODE_PREFIX}${original.codeName}`,
    ),
    options: {
      ...structuredClone(original.options),
      ...(original.options.choices ? { choices } : {}),
      ...(copiedFilter ? { choiceFilter: copiedFilter } : {}),
      isPrimaryKey: false,
    },
    source: id,
  };
  const parent = parentOf(next, { type: 'item', id })!;
  parent.entities.splice(parent.entities.findIndex((e) => e.type === 'item' && e.id === id) + 1, 0, {
    type: 'item',
    id: copyId,
  });
  return { body: next, id: copyId };
}

export function deleteItem(body: SchemaBody, id: number): SchemaBody {
  const next = clone(body);
  item(next, id).deleted = true;
  const parent = parentOf(next, { type: 'item', id });
  if (parent) parent.entities = parent.entities.filter((e) => !(e.type === 'item' && e.id === id));
  return next;
}

export function addChoice(
  body: SchemaBody,
  itemId: number,
  lang: string,
  label: string,
  code?: string,
): { body: SchemaBody; id: number } {
  const next = clone(body);
  const target = item(next, itemId);
  const id = ++next.counters.choices;
  next.entities.choices[id] = {
    id,
    codeName:
      code ??
      (label
        .trim()
        .toLowerCase()
        .replace(/[^\w]+/g, '_') ||
        `c${id}`),
    name: { [lang]: label },
    stop: false,
    deleted: false,
  };
  target.options.choices = [...(target.options.choices ?? []), id];
  return { body: next, id };
}

export function updateChoice(
  body: SchemaBody,
  id: number,
  patch: Partial<{ name: LocalizedText; codeName: string; stop: boolean }>,
): SchemaBody {
  const next = clone(body);
  const choice = next.entities.choices[id];
  if (!choice || choice.deleted) throw new SchemaEditError(`no choice ${id}`);
  Object.assign(choice, structuredClone(patch));
  return next;
}

export function deleteChoice(body: SchemaBody, itemId: number, choiceId: number): SchemaBody {
  const next = clone(body);
  const target = item(next, itemId);
  const choice = next.entities.choices[choiceId];
  if (choice) choice.deleted = true;
  target.options.choices = (target.options.choices ?? []).filter((c) => c !== choiceId);
  untie(next, [choiceId]);
  return next;
}

/** Cascading choices: choices that are gone are tied to nothing, and nothing is tied to them any more (in place). */
function untie(body: SchemaBody, gone: readonly number[]): void {
  if (gone.length === 0) return;
  const set = new Set(gone);
  for (const other of Object.values(body.entities.items)) {
    const filter = other.options.choiceFilter;
    if (!filter?.ties) continue;
    for (const c of set) Reflect.deleteProperty(filter.ties, String(c));
    for (const [c, to] of Object.entries(filter.ties))
      if (Array.isArray(to) && to.some((t) => set.has(t))) filter.ties[c] = to.filter((t) => !set.has(t));
  }
}

/** Choices used by finalized conditions (they ask before being deleted). */
export function choicesInUse(body: SchemaBody): Set<number> {
  const used = new Set<number>();
  for (const b of Object.values(body.entities.blocks)) {
    if (b.deleted) continue;
    for (const e of b.conditions)
      if ('itemId' in e && e.finalized && Array.isArray(e.condition)) for (const c of e.condition) used.add(c);
  }
  return used;
}

/** Moves an item or block into a category at `index`; moving into a category with conditions clears primary keys. */
export function moveEntity(body: SchemaBody, ref: EntityRef, toBlockId: number, index: number): SchemaBody {
  const next = clone(body);
  const target = block(next, toBlockId);
  if (ref.type === 'block' && (ref.id === toBlockId || isInside(next, toBlockId, ref.id)))
    throw new SchemaEditError('A category cannot move into itself.');
  const from = parentOf(next, ref);
  if (from) from.entities = from.entities.filter((e) => !(e.type === ref.type && e.id === ref.id));
  else if (ref.type === 'block') next.form = next.form.filter((b) => b !== ref.id);
  target.entities.splice(Math.max(0, Math.min(index, target.entities.length)), 0, ref);
  if (target.conditions.length > 0) {
    const clear = (r: EntityRef) => {
      if (r.type === 'item') next.entities.items[r.id]!.options.isPrimaryKey = false;
      else for (const child of next.entities.blocks[r.id]!.entities) clear(child);
    };
    clear(ref);
  }
  return next;
}

function isInside(body: SchemaBody, candidate: number, ancestor: number): boolean {
  for (let b = parentOf(body, { type: 'block', id: candidate }); b; b = parentOf(body, { type: 'block', id: b.id }))
    if (b.id === ancestor) return true;
  return false;
}

/** Moves a top-level category in the form. */
export function moveBlock(body: SchemaBody, id: number, index: number): SchemaBody {
  const next = clone(body);
  if (!next.form.includes(id)) throw new SchemaEditError(`category ${id} is not at the top level`);
  next.form = next.form.filter((b) => b !== id);
  next.form.splice(Math.max(0, Math.min(index, next.form.length)), 0, id);
  return next;
}

const sameConditions = (a: ConditionEntry[], b: ConditionEntry[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A follow-up question asked when `conditions` hold: it goes into an adjacent category (right after the question's
 * own entry) whose conditions match, otherwise into a new conditional category placed there.
 */
export function addFollowUp(
  body: SchemaBody,
  afterItemId: number,
  conditions: ConditionEntry[],
  type: ItemType,
  lang: string,
  label = '',
): { body: SchemaBody; blockId: number; id: number } {
  let next = clone(body);
  const parent = parentOf(next, { type: 'item', id: afterItemId });
  if (!parent) throw new SchemaEditError(`no question ${afterItemId}`);
  const at = parent.entities.findIndex((e) => e.type === 'item' && e.id === afterItemId);
  const neighbours = [parent.entities[at + 1], parent.entities[at - 1]].filter(
    (e): e is EntityRef => e?.type === 'block',
  );
  const reuse = neighbours.find((e) => sameConditions(next.entities.blocks[e.id]!.conditions, conditions));
  let blockId: number;
  if (reuse) blockId = reuse.id;
  else {
    const made = addBlock(next, {}, parent.id);
    next = made.body;
    blockId = made.id;
    const p = next.entities.blocks[parent.id]!;
    p.entities = p.entities.filter((e) => !(e.type === 'block' && e.id === blockId));
    p.entities.splice(at + 1, 0, { type: 'block', id: blockId });
    next.entities.blocks[blockId]!.conditions = structuredClone(conditions);
  }
  const added = addItem(next, blockId, type, lang, label);
  return { body: added.body, blockId, id: added.id };
}

// Languages.

export function addLanguage(body: SchemaBody, iso: string, name: string): SchemaBody {
  const next = clone(body);
  if (Object.values(next.entities.languages).some((l) => !l.deleted && l.iso_code_1 === iso))
    throw new SchemaEditError(`The form already has ${name}.`);
  const id = ++next.counters.languages;
  const sort =
    Math.max(
      -1,
      ...Object.values(next.entities.languages)
        .filter((l) => !l.deleted)
        .map((l) => l.sort),
    ) + 1;
  next.entities.languages[id] = { iso_code_1: iso, name, deleted: false, sort };
  return next;
}

export function renameLanguage(body: SchemaBody, iso: string, name: string): SchemaBody {
  const next = clone(body);
  const lang = Object.values(next.entities.languages).find((l) => !l.deleted && l.iso_code_1 === iso);
  if (!lang) throw new SchemaEditError(`no language ${iso}`);
  lang.name = name;
  return next;
}

/** Orders the languages as `isoCodes` lists them. */
export function sortLanguages(body: SchemaBody, isoCodes: string[]): SchemaBody {
  const next = clone(body);
  for (const l of Object.values(next.entities.languages)) {
    const at = isoCodes.indexOf(l.iso_code_1);
    if (at >= 0) l.sort = at;
  }
  return next;
}

export function deleteLanguage(body: SchemaBody, iso: string): SchemaBody {
  if (iso === body.primary_language) throw new SchemaEditError('The primary language cannot be deleted.');
  const next = clone(body);
  const lang = Object.values(next.entities.languages).find((l) => !l.deleted && l.iso_code_1 === iso);
  if (!lang) throw new SchemaEditError(`no language ${iso}`);
  lang.deleted = true;
  return next;
}

/** Languages in their sort order. */
export function languages(body: SchemaBody) {
  return Object.values(body.entities.languages)
    .filter((l) => !l.deleted)
    .sort((a, b) => a.sort - b.sort);
}
