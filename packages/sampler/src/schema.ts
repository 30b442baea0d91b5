// The sampler schema document (spec 001 §3): blocks (categories), items, choices and languages, each with a deleted
// flag; `form` orders the top-level blocks and each block orders its entities (items and nested blocks).
import { FORM_SCHEMA_VERSION, type ItemType } from './constants.js';

/** Text per language (ISO 639-1 code). */
export type LocalizedText = Record<string, string>;

export interface Language {
  iso_code_1: string;
  name: string;
  deleted: boolean;
  sort: number;
}

export interface EntityRef {
  type: 'block' | 'item';
  id: number;
}

export type Operator = 'NOT' | 'AND' | 'AND NOT' | 'OR' | 'OR NOT';
export const OPERATORS: readonly Operator[] = ['NOT', 'AND', 'AND NOT', 'OR', 'OR NOT'];

export interface Range {
  $gt?: number;
  $gte?: number;
  $lt?: number;
  $lte?: number;
}

/** A test on one answer: its choices overlap a list, or it lies in a range. */
export interface ConditionTest {
  itemId: number;
  /** The schema the item belongs to: this one, an ancestor level, or a referenced project's. */
  schemaId: number;
  condition: number[] | Range;
  finalized: boolean;
}

export type ConditionEntry = ConditionTest | { operator: Operator };

export interface Block {
  id: number;
  name: LocalizedText;
  askOnce: boolean;
  entities: EntityRef[];
  conditions: ConditionEntry[];
  markTypes: { allQuestionsRequired: boolean; allQuestionsOptional: boolean };
  deleted: boolean;
}

export interface Bound<T = number> {
  active: boolean;
  value: T;
}

/** Options of every type; which ones apply depends on the type (spec 001 §3 table). */
export interface ItemOptions {
  isPrimaryKey?: boolean;
  isLookupQuestion?: boolean;
  isRequiredQuestion?: boolean;
  multiselect?: boolean;
  choices?: number[];
  allowDecimal?: boolean;
  minimum?: Bound<number | string>;
  maximum?: Bound<number | string>;
  /** Open and barcode answers: fewest and most characters. */
  minLength?: Bound<number>;
  maxLength?: Bound<number>;
  /** Open and barcode answers: a regular expression the answer must match (a search; anchor with ^ and $). */
  pattern?: { active: boolean; value: string; message?: LocalizedText };
  /** Multiselect choice answers: fewest and most choices. */
  minChoices?: Bound<number>;
  maxChoices?: Bound<number>;
  currency?: string;
  showInForm?: boolean;
  showInResults?: boolean;
  formula?: string;
  calculation?: unknown;
  editorState?: unknown;
  error?: string;
  concatenation?: string;
  codeTypes?: string[];
  restrictType?: boolean;
  agreement?: { active: boolean; value: boolean; text: LocalizedText };
  /** Choice questions: cascading choices (XLSForm `choice_filter`), see ChoiceFilter. */
  choiceFilter?: ChoiceFilter;
}

/**
 * Cascading choices: the choices of a choice question are filtered by the answer to an earlier single choice
 * question of the same form (its "filter question"). Each choice is tied to one or more choices of the filter
 * question and is offered only when the filter question's answer is one of them; a choice tied to nothing is never
 * offered, and while the filter question has no answer no choice is offered. A question without a filter offers
 * every choice.
 */
export interface ChoiceFilter {
  /** The filter question: an earlier single choice question of this form. */
  itemId: number;
  /** By choice id of this question, the filter question's choice ids it is offered for. */
  ties: Record<string, number[]>;
}

export interface Item {
  id: number;
  name: LocalizedText;
  codeName: string;
  type: ItemType;
  options: ItemOptions;
  /** Text of an instruction item. */
  instruction?: LocalizedText;
  /** The item this one duplicates. */
  source?: number;
  deleted: boolean;
}

export interface Choice {
  id: number;
  codeName: string;
  name: LocalizedText;
  stop: boolean;
  deleted: boolean;
}

export interface SchemaBody {
  version: string;
  primary_language: string;
  form: number[];
  counters: { blocks: number; items: number; choices: number; languages: number };
  entities: {
    blocks: Record<string, Block>;
    items: Record<string, Item>;
    choices: Record<string, Choice>;
    languages: Record<string, Language>;
  };
  results: Record<string, unknown>;
  profiles: Record<string, unknown>;
}

/** The default Enrollment category of a longitudinal project (spec 001 §9). */
export const ENROLLMENT = {
  blockName: 'Enrollment',
  identifier: { name: 'Identifier', codeName: 'longitudinal_id', minimum: 0, maximum: 10_000_000 },
  name: { name: 'Name', codeName: 'name' },
} as const;

/** A new, empty schema; a longitudinal one starts with the Enrollment category. */
export function newSchemaBody(projectType: string, language = { iso_code_1: 'en', name: 'English' }): SchemaBody {
  const body: SchemaBody = {
    version: FORM_SCHEMA_VERSION,
    primary_language: language.iso_code_1,
    form: [],
    counters: { blocks: 0, items: 0, choices: 0, languages: 1 },
    entities: { blocks: {}, items: {}, choices: {}, languages: { '1': { ...language, deleted: false, sort: 0 } } },
    results: {},
    profiles: {},
  };
  if (projectType !== 'L') return body;
  const lang = language.iso_code_1;
  const identifier: Item = {
    id: 1,
    name: { [lang]: ENROLLMENT.identifier.name },
    codeName: ENROLLMENT.identifier.codeName,
    type: 'number',
    options: {
      allowDecimal: false,
      minimum: { active: true, value: ENROLLMENT.identifier.minimum },
      maximum: { active: true, value: ENROLLMENT.identifier.maximum },
      isPrimaryKey: true,
      isLookupQuestion: false,
      isRequiredQuestion: true,
    },
    deleted: false,
  };
  const name: Item = {
    id: 2,
    name: { [lang]: ENROLLMENT.name.name },
    codeName: ENROLLMENT.name.codeName,
    type: 'open',
    options: { isPrimaryKey: false, isLookupQuestion: true, isRequiredQuestion: false },
    deleted: false,
  };
  body.entities.items = { '1': identifier, '2': name };
  body.entities.blocks = {
    '1': {
      id: 1,
      name: { [lang]: ENROLLMENT.blockName },
      askOnce: true,
      entities: [
        { type: 'item', id: 1 },
        { type: 'item', id: 2 },
      ],
      conditions: [],
      markTypes: { allQuestionsRequired: false, allQuestionsOptional: false },
      deleted: false,
    },
  };
  body.form = [1];
  body.counters = { blocks: 1, items: 2, choices: 0, languages: 1 };
  return body;
}

/** Items that are questions: neither instructions nor empty. */
export function isQuestion(item: Pick<Item, 'type'>): boolean {
  return item.type !== 'instruction' && item.type !== 'empty';
}

/** Questions of a schema: items not deleted that are neither instructions nor empty. */
export function countQuestions(body: Pick<SchemaBody, 'entities'>): number {
  return Object.values(body.entities.items).filter((i) => !i.deleted && isQuestion(i)).length;
}

/** Items in form order (depth first through nested blocks), each with its direct block. */
export function itemsInOrder(body: SchemaBody): { item: Item; blockId: number; topBlockId: number }[] {
  const out: { item: Item; blockId: number; topBlockId: number }[] = [];
  const walk = (blockId: number, top: number, seen: Set<number>) => {
    const block = body.entities.blocks[blockId];
    if (!block || block.deleted || seen.has(blockId)) return;
    seen.add(blockId);
    for (const ref of block.entities) {
      if (ref.type === 'item') {
        const item = body.entities.items[ref.id];
        if (item && !item.deleted) out.push({ item, blockId, topBlockId: top });
      } else walk(ref.id, top, seen);
    }
  };
  const seen = new Set<number>();
  for (const id of body.form) walk(id, id, seen);
  return out;
}

/** The block that holds an item (or a block) directly. */
export function parentOf(body: SchemaBody, ref: EntityRef): Block | undefined {
  return Object.values(body.entities.blocks).find(
    (b) => !b.deleted && b.entities.some((e) => e.type === ref.type && e.id === ref.id),
  );
}

/** The text of a localized field in `lang`, falling back to the primary language, then any. */
export function text(t: LocalizedText | undefined, lang: string, primary?: string): string {
  if (!t) return '';
  return t[lang] ?? (primary ? t[primary] : undefined) ?? Object.values(t)[0] ?? '';
}
