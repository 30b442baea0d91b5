// The sampler schema document (spec 001 §3): blocks (categories), items, choices and languages, each with a deleted
// flag, ordered by `form`. This first cut holds what creating and counting need; the builder issue completes it.
import { FORM_SCHEMA_VERSION, type ItemType } from './constants.js';

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

export interface Block {
  id: number;
  name: LocalizedText;
  askOnce: boolean;
  entities: EntityRef[];
  conditions: unknown[];
  markTypes: { allQuestionsRequired: boolean; allQuestionsOptional: boolean };
  deleted: boolean;
}

export interface Item {
  id: number;
  name: LocalizedText;
  codeName: string;
  type: ItemType;
  options: Record<string, unknown>;
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
    choices: Record<string, unknown>;
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

/** Questions of a schema: items not deleted that are neither instructions nor empty. */
export function countQuestions(body: Pick<SchemaBody, 'entities'>): number {
  return Object.values(body.entities.items).filter((i) => !i.deleted && i.type !== 'instruction' && i.type !== 'empty').length;
}
