// Forms from files: the shapes shared by the converters, and the question list (category, question, type, choices,
// required, code). The XLSForm converter is in xlsform.ts; reading the upload is in workbook.ts. What cannot be
// converted is reported with its sheet, row (as the spreadsheet numbers it) and column.
import type { ItemType, SchemaBody } from '@fieldwork/sampler';
import { SchemaWriter } from './schema-writer.js';
import { yesNo } from './xlsform-columns.js';

/** One sheet as read: its rows with the numbers the spreadsheet shows (blank rows are counted, not listed). */
export interface Sheet {
  name: string;
  rows: { row: number; values: string[] }[];
}

export type Row = Record<string, string>;
export interface Note {
  sheet: string;
  row: number;
  /** The column header as written; empty when the note is about the whole row. */
  column: string;
  message: string;
}
/** A level of the project's hierarchy below the form's own, made from an XLSForm repeat. */
export interface ConvertedLevel {
  /** The repeat's label (or name): the level's name. */
  name: string;
  body: SchemaBody;
  questions: number;
}
export interface Converted {
  body: SchemaBody;
  notes: Note[];
  /** Questions of every level. */
  questions: number;
  /** The levels below `body`'s, outermost first (XLSForm repeats); absent when the file has none. */
  levels?: ConvertedLevel[];
  name?: string;
  /** "Imported 12 questions with 3 losses." */
  summary: string;
}

/** The sentence the import answers with: every note is something the form lost. */
export function summary(questions: number, notes: number): string {
  const q = `${questions} question${questions === 1 ? '' : 's'}`;
  return notes === 0 ? `Imported ${q} with no losses.` : `Imported ${q} with ${notes} loss${notes === 1 ? '' : 'es'}.`;
}

/** Thrown for an upload that is not a form: the message names what was expected (sheet, column). */
export class ConversionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionRefused';
  }
}

const LIST_TYPES: Record<string, { type: ItemType; multi?: boolean; decimal?: boolean }> = {
  binary: { type: 'binary' },
  'yes/no': { type: 'binary' },
  choice: { type: 'choice' },
  single: { type: 'choice' },
  multichoice: { type: 'choice', multi: true },
  multiple: { type: 'choice', multi: true },
  open: { type: 'open' },
  text: { type: 'open' },
  number: { type: 'number' },
  integer: { type: 'number' },
  decimal: { type: 'number', decimal: true },
  date: { type: 'date' },
  currency: { type: 'currency' },
  geotag: { type: 'geotag' },
  location: { type: 'geotag' },
  calculated: { type: 'calculated' },
  barcode: { type: 'barcode' },
  image: { type: 'image' },
  photo: { type: 'image' },
  signature: { type: 'signature' },
  instruction: { type: 'instruction' },
  note: { type: 'instruction' },
};

export const QUESTION_LIST_COLUMNS = ['category', 'question', 'type', 'choices', 'required', 'code'] as const;

/** A question list sheet: header row with category, question (or label), type, choices (separated by |), required, code, min, max, formula. */
export function fromQuestionList(sheet: Sheet, projectType: string): Converted {
  const w = new SchemaWriter(projectType, { iso_code_1: 'en', name: 'English' });
  const notes: Note[] = [];
  const [header, ...rows] = sheet.rows;
  const keys = (header?.values ?? []).map((h) => h.trim().toLowerCase());
  const headerOf = (key: string) => header?.values[keys.indexOf(key)]?.trim() ?? key;
  const blocks = new Map<string, ReturnType<SchemaWriter['addBlock']>>();
  let questions = 0;
  for (const { row, values } of rows) {
    const r: Row = {};
    keys.forEach((k, i) => (r[k] = (values[i] ?? '').trim()));
    const note = (column: string, message: string) => notes.push({ sheet: sheet.name, row, column: column ? headerOf(column) : '', message });
    const label = r.question || r.label || '';
    const kind = LIST_TYPES[(r.type ?? '').toLowerCase()];
    if (label === '') {
      note('question', 'The question has no text; row skipped.');
      continue;
    }
    if (!kind) {
      note('type', `Unknown type "${r.type ?? ''}"; use one of ${Object.keys(LIST_TYPES).join(', ')}. Row skipped.`);
      continue;
    }
    const category = r.category || 'Questions';
    let block = blocks.get(category);
    if (!block) blocks.set(category, (block = w.addBlock({ en: category })));
    const choices = kind.type === 'choice' ? (r.choices ?? '').split('|').map((c) => c.trim()).filter(Boolean) : [];
    if (kind.type === 'choice' && choices.length === 0) {
      note('choices', 'A choice question needs choices (separated by |); row skipped.');
      continue;
    }
    const item = w.addItem(kind.type, { en: label }, r.code || codeFrom(label));
    if (r.code && item.codeName !== r.code) note('code', `The code "${r.code}" is used by an earlier question; this one is "${item.codeName}".`);
    w.place(item, block);
    const required = yesNo(r.required ?? '');
    item.options.isRequiredQuestion = required === true;
    if (required === undefined) note('required', `"${r.required ?? ''}" is not yes or no; the question is optional.`);
    if (kind.multi) item.options.multiselect = true;
    if (kind.type === 'number') {
      item.options.allowDecimal = kind.decimal === true;
      // Without min and max a number keeps the builder's defaults (spec 001 §9: 0 to 100).
      if (r.min) item.options.minimum = numberBound(r.min, note, 'min');
      if (r.max) item.options.maximum = numberBound(r.max, note, 'max');
    }
    if (kind.type === 'calculated') item.options.formula = r.formula ?? '';
    if (kind.type === 'instruction') item.instruction = { en: label };
    if (kind.type === 'binary') for (const [name, code] of [['Yes', 'yes'], ['No', 'no']] as const) w.addChoice(item, { en: name }, code);
    for (const c of choices) w.addChoice(item, { en: c }, codeFrom(c));
    if (kind.type !== 'instruction') questions++;
  }
  return { body: w.body, notes, questions, summary: summary(questions, notes.length) };
}

function numberBound(v: string, note: (column: string, message: string) => void, column: string) {
  const n = Number(v);
  if (Number.isFinite(n)) return { active: true, value: n };
  note(column, `"${v}" is not a number; no ${column === 'min' ? 'minimum' : 'maximum'} was set.`);
  return { active: false, value: 0 };
}

export const codeFrom = (label: string) =>
  label.trim().toLowerCase().normalize('NFKD').replace(/[^\w]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'q';
