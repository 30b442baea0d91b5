// XLSForm (xlsform.org, as pyxform reads it) into a sampler schema, in time proportional to its rows. Three passes:
// the survey rows become items and a tree of groups; the tree becomes blocks, with relevance as block conditions;
// calculations become formulas once every question has its category. Whatever has no equivalent is a note naming
// its sheet, row and column. Repeats become levels of the project's hierarchy (a form each, its records child
// responses of the level above): the outermost repeat is level 1, a repeat nested in it level 2, and so on; the
// hierarchy is linear, so a repeat beside one that is already its level stays a plain category of its parent.
import {
  formulaReads,
  isQuestion,
  isSingleChoice,
  type Block,
  type ChoiceFilter,
  type ConditionEntry,
  type Item,
  type ItemType,
  type LocalizedText,
} from '@fieldwork/sampler';
import { summary, type Converted, type ConvertedLevel, type Note, type Sheet } from './convert.js';
import { SchemaWriter } from './schema-writer.js';
import { parseChoiceFilter } from './xlsform-cascade.js';
import { parseHeader, parseLanguage, yesNo, type Column } from './xlsform-columns.js';
import { toConditions, toFormula, toRules, type Lookup, type Target } from './xpath-convert.js';
import { parseType, PLAIN_TYPES } from './xlsform-types.js';

/** Groups nested deeper than this keep their questions in the enclosing category. */
export const MAX_GROUP_DEPTH = 20;
/** Tests in one category's condition made by joining a repeat's relevance with the category's own. */
const MAX_CONDITION_TESTS = 50;

/**
 * The schema id a converted condition names for a question of the form of level `level` (0: the file's own form)
 * when the condition is in a lower level's form: the import replaces it with the id of that level's schema.
 */
export const levelSchemaPlaceholder = (level: number) => -(level + 1);

export interface XlsFormSheets {
  survey: Sheet;
  choices?: Sheet;
  externalChoices?: Sheet;
  settings?: Sheet;
  /** Other sheets of the workbook (reported when they hold something an XLSForm means, such as entities). */
  others?: string[];
}

interface ListEntry {
  name: string;
  label: LocalizedText;
  row: number;
  /** The choice's cells under columns the importer does not read itself, by column key (what choice filters read). */
  extra: Record<string, string>;
  /** The column keys of the choice's sheet. */
  columns: Set<string>;
}
interface Cell {
  row: number;
  column: string;
  text: string;
}
interface GroupNode {
  kind: 'group';
  row: number;
  label: LocalizedText;
  relevant?: Cell;
  children: Node[];
  /** A repeat that became this level of the hierarchy: its questions are that level's form. */
  level?: number;
}
/** A form of the hierarchy: the file's own (0) and one per repeat that became a level. */
interface LevelForm {
  w: SchemaWriter;
  label: LocalizedText;
  /** The repeat's name and row (level 0: none). */
  repeat: string;
  row: number;
}
interface ItemNode {
  kind: 'item';
  item: Item;
  hint?: Item;
  relevant?: Cell;
  /** or_other: the "specify other" question, asked when the other choice is chosen. */
  other?: { item: Item; choiceId: number };
}
type Node = GroupNode | ItemNode;

/** A sheet with its columns understood. */
class Columns {
  readonly list: Column[];
  private readonly byKey = new Map<string, Column[]>();
  constructor(readonly sheet: Sheet) {
    this.list = (sheet.rows[0]?.values ?? []).map((h, i) => parseHeader(h, i));
    for (const c of this.list) if (c.key !== '') this.byKey.set(c.key, [...(this.byKey.get(c.key) ?? []), c]);
  }
  of(key: string): Column[] {
    return this.byKey.get(key) ?? [];
  }
  has(key: string): boolean {
    return this.byKey.has(key);
  }
}

export function fromXlsForm(sheets: XlsFormSheets, projectType: string): Converted {
  const notes: Note[] = [];
  const note = (sheet: string, row: number, column: string, message: string) =>
    notes.push({ sheet, row, column, message });
  const survey = new Columns(sheets.survey);
  const choiceSheets = [sheets.choices, sheets.externalChoices]
    .filter((s): s is Sheet => s !== undefined)
    .map((s) => new Columns(s));
  const settingsCols = sheets.settings ? new Columns(sheets.settings) : undefined;

  // Settings: the first row under the header.
  const setting = (key: string) => {
    const col = settingsCols?.of(key)[0];
    return col ? (sheets.settings!.rows[1]?.values[col.index] ?? '').trim() : '';
  };
  if (settingsCols && sheets.settings!.rows[1]) {
    const row = sheets.settings!.rows[1];
    for (const c of settingsCols.list) {
      const v = (row.values[c.index] ?? '').trim();
      if (v === '' || c.key === 'form_title' || c.key === 'default_language') continue;
      const why =
        c.key === 'form_id' || c.key === 'version'
          ? 'Fieldwork identifies and versions the form itself'
          : 'it has no equivalent';
      note(sheets.settings!.name, row.row, c.header, `The setting ${c.key} ("${v}") is not kept: ${why}.`);
    }
  }

  // Languages: every language column of the survey and choices sheets; the primary one is default_language, else
  // the first language column, else English.
  const langCodes = new Map<string, string>();
  const languages: { code: string; name: string }[] = [];
  const learn = (written: string, sheet: string, column: string) => {
    if (langCodes.has(written)) return langCodes.get(written)!;
    const l = parseLanguage(written);
    langCodes.set(written, l.code);
    if (!languages.some((x) => x.code === l.code)) {
      languages.push({ code: l.code, name: l.name });
      if (l.invented)
        note(sheet, 1, column, `"${written}" is not an ISO 639-1 language; it was kept with the code "${l.code}".`);
    }
    return l.code;
  };
  const defaultLanguage = setting('default_language');
  const primary = defaultLanguage ? learn(defaultLanguage, sheets.settings!.name, 'default_language') : undefined;
  const TEXTS = ['label', 'hint', 'guidance_hint', 'constraint_message', 'required_message'];
  for (const cols of [survey, ...choiceSheets])
    for (const c of cols.list) if (c.lang && TEXTS.includes(c.key)) learn(c.lang, cols.sheet.name, c.header);
  const primaryCode = primary ?? languages[0]?.code ?? 'en';
  const primaryName = languages.find((l) => l.code === primaryCode)?.name ?? 'English';
  const writer = (type: string) => {
    const made = new SchemaWriter(type, { iso_code_1: primaryCode, name: primaryName });
    for (const l of languages) if (l.code !== primaryCode) made.addLanguage(l.code, l.name);
    return made;
  };
  const top = writer(projectType);
  const levels: LevelForm[] = [{ w: top, label: {}, repeat: '', row: 0 }];
  const levelName = (level: number) =>
    level === 0 ? 'the first level' : `the level "${levels[level]!.label[primaryCode] ?? levels[level]!.repeat}"`;

  /** The text of a translatable column in every language; the untranslated column fills the primary language. */
  const textOf = (cols: Columns, values: string[], key: string, used: boolean[], row: number): LocalizedText => {
    const out: LocalizedText = {};
    let plain = '';
    let plainColumn = '';
    for (const c of cols.of(key)) {
      used[c.index] = true;
      const v = (values[c.index] ?? '').trim();
      if (v === '') continue;
      if (c.lang === undefined) {
        plain = v;
        plainColumn = c.header;
      } else {
        const code = langCodes.get(c.lang) ?? learn(c.lang, cols.sheet.name, c.header);
        out[code] ??= v;
      }
    }
    if (plain !== '') {
      if (out[primaryCode] === undefined) out[primaryCode] = plain;
      else if (out[primaryCode] !== plain)
        note(
          cols.sheet.name,
          row,
          plainColumn,
          `The untranslated ${key} "${plain}" is not kept: the ${primaryName} column has its own.`,
        );
    }
    return out;
  };
  const valueOf = (cols: Columns, values: string[], key: string, used: boolean[]): string => {
    let out = '';
    for (const c of cols.of(key)) {
      used[c.index] = true;
      if (c.lang === undefined && out === '') out = (values[c.index] ?? '').trim();
    }
    return out;
  };
  const headerOf = (cols: Columns, key: string) => cols.of(key)[0]?.header ?? key;
  const reportUnused = (cols: Columns, row: { row: number; values: string[] }, used: boolean[]) => {
    for (const c of cols.list) {
      const v = (row.values[c.index] ?? '').trim();
      if (used[c.index] || v === '') continue;
      if (c.header === '')
        note(
          cols.sheet.name,
          row.row,
          columnLetter(c.index),
          `A cell under a column without a header is not read ("${cut(v)}").`,
        );
      else
        note(cols.sheet.name, row.row, c.header, `The column ${c.header} has no equivalent; "${cut(v)}" is not kept.`);
    }
  };

  // Choice lists (choices and external_choices), by list name; other columns serve choice filters only: they are kept
  // with each choice (by column key) and reported once the survey shows that no converted choice filter reads them.
  const lists = new Map<string, ListEntry[]>();
  const extraColumns: { sheet: string; header: string; key: string; count: number }[] = [];
  const filterColumns = new Set<string>();
  for (const cols of choiceSheets) {
    const extra = new Map<number, number>();
    const columns = new Set(cols.list.map((c) => c.key));
    for (const r of cols.sheet.rows.slice(1)) {
      const used: boolean[] = [];
      const list = valueOf(cols, r.values, 'list_name', used);
      const name = valueOf(cols, r.values, 'name', used);
      const label = textOf(cols, r.values, 'label', used, r.row);
      if (list === '' && name === '' && Object.keys(label).length === 0) continue;
      if (list === '') {
        note(
          cols.sheet.name,
          r.row,
          headerOf(cols, 'list_name'),
          'This choice has no list name; it is not in any list.',
        );
        continue;
      }
      if (name === '')
        note(cols.sheet.name, r.row, headerOf(cols, 'name'), 'This choice has no name; its label is used as its name.');
      let entries = lists.get(list);
      if (!entries) lists.set(list, (entries = []));
      const entry: ListEntry = {
        name: name || Object.values(label)[0] || `c${entries.length + 1}`,
        label,
        row: r.row,
        extra: {},
        columns,
      };
      entries.push(entry);
      for (const c of cols.list) {
        if (used[c.index] || (r.values[c.index] ?? '').trim() === '') continue;
        if (['image', 'big-image', 'audio', 'video'].includes(c.key))
          note(
            cols.sheet.name,
            r.row,
            c.header,
            `Choice media (${c.key}) has no equivalent; "${cut(r.values[c.index]!)}" is not kept.`,
          );
        else {
          extra.set(c.index, (extra.get(c.index) ?? 0) + 1);
          if (c.key !== '') entry.extra[c.key] ??= r.values[c.index]!.trim();
        }
      }
    }
    for (const [index, count] of extra) {
      const c = cols.list[index]!;
      extraColumns.push({ sheet: cols.sheet.name, header: c.header || columnLetter(index), key: c.key, count });
    }
  }

  // Pass 1: rows into items and the tree of groups.
  const root: GroupNode = { kind: 'group', row: 0, label: {}, children: [] };
  const stack: { node: GroupNode; name: string; what: string; row: number; level: number }[] = [];
  let depth = 0;
  const byName = new Map<string, { item: Item; target: Target; level: number }>();
  // A name in a level's own form, then in its parent's, comes before the same name elsewhere.
  const byLevelName = new Map<string, { item: Item; target: Target; level: number }>();
  const find = (name: string, level: number) =>
    byLevelName.get(`${level}:${name}`) ?? byLevelName.get(`${level - 1}:${name}`) ?? byName.get(name);
  const calcs: { item: Item; cell: Cell; level: number }[] = [];

  /**
   * A choice filter as cascading choices: the question's choices `made` (one per list entry) tied to the choices of
   * the filtering question that the entries' column names; or why it is not converted. The filtering question is
   * one of the same level's form (a filter names a question of its own form).
   */
  const cascade = (
    expression: string,
    item: Item,
    entries: ListEntry[],
    made: number[],
    level: number,
  ): { ok: ChoiceFilter; column: string } | { reason: string } => {
    const f = parseChoiceFilter(expression);
    if (!f)
      return {
        reason:
          'it is not a choices column compared with an earlier select_one question (col=${q}, ${q}=col or selected(${q}, col))',
      };
    if (item.type !== 'choice') return { reason: 'the question has no choices' };
    const found = find(f.question, level);
    const parent = found?.item;
    if (!found || !parent) return { reason: `\${${f.question}} is not a question asked before this one` };
    if (found.level !== level)
      return {
        reason: `\${${f.question}} is in the form of ${levelName(found.level)}, and a choice filter uses questions of its own form only`,
      };
    if (!isSingleChoice(parent)) return { reason: `\${${f.question}} is not a select_one question` };
    if (!entries.some((e) => e.columns.has(f.column)))
      return { reason: `the choices sheet has no column "${f.column}"` };
    const byCode = new Map<string, number[]>();
    for (const id of parent.options.choices ?? []) {
      const code = levels[level]!.w.body.entities.choices[id]!.codeName;
      byCode.set(code, [...(byCode.get(code) ?? []), id]);
    }
    const ties: Record<string, number[]> = {};
    for (const [i, e] of entries.entries()) {
      const v = e.extra[f.column] ?? '';
      const to = (f.many ? v.split(/\s+/) : [v]).flatMap((name) => byCode.get(name) ?? []);
      if (to.length > 0) ties[made[i]!] = [...new Set(to)];
    }
    return { ok: { itemId: parent.id, ties }, column: f.column };
  };
  // Groups past MAX_GROUP_DEPTH are flattened, so the innermost open category is the deepest kept one.
  const current = () => (stack.length === 0 ? root : stack[Math.min(stack.length, MAX_GROUP_DEPTH) - 1]!.node);
  /** The level whose form the next row goes to. */
  const currentLevel = () => stack[stack.length - 1]?.level ?? 0;
  const sheetName = sheets.survey.name;

  for (const r of sheets.survey.rows.slice(1)) {
    const used: boolean[] = [];
    const row = r.row;
    const rawType = valueOf(survey, r.values, 'type', used);
    const name = valueOf(survey, r.values, 'name', used);
    const n = (column: string, message: string) => note(sheetName, row, column, message);
    const typeCol = headerOf(survey, 'type');
    if (rawType === '') {
      const any = r.values.some((v) => v.trim() !== '');
      if (any) n(typeCol, `This row has no type; it is skipped${name ? ` ("${name}")` : ''}.`);
      continue;
    }
    const t = parseType(rawType);
    const label = () => textOf(survey, r.values, 'label', used, row);
    const level = currentLevel();
    const w = levels[level]!.w;
    const relevantCell = (): Cell | undefined => {
      const v = valueOf(survey, r.values, 'relevant', used);
      return v ? { row, column: headerOf(survey, 'relevant'), text: v } : undefined;
    };

    if (t.kind === 'begin') {
      const node: GroupNode = { kind: 'group', row, label: label(), children: [] };
      if (Object.keys(node.label).length === 0 && name) node.label = { [primaryCode]: name };
      const rel = relevantCell();
      if (rel) node.relevant = rel;
      const appearance = valueOf(survey, r.values, 'appearance', used);
      if (appearance && appearance !== 'field-list')
        n(headerOf(survey, 'appearance'), `The appearance "${appearance}" has no equivalent for a category.`);
      const flattened = depth >= MAX_GROUP_DEPTH;
      let inner = level;
      if (t.what !== 'group') {
        const count = valueOf(survey, r.values, 'repeat_count', used);
        const below = levels[level + 1];
        if (!flattened && !below) {
          // The first repeat below the deepest level so far: the next level, a form of its own.
          inner = node.level = level + 1;
          levels.push({ w: writer('S'), label: node.label, repeat: name, row });
          if (count)
            n(
              headerOf(survey, 'repeat_count'),
              `The repeat_count "${cut(count)}" is not kept: ${levelName(inner)} holds as many records as are collected.`,
            );
        } else {
          const why = below
            ? `a project's hierarchy has one form per level, and the level below ${level === 0 ? 'the first one' : levelName(level)} is already the repeat "${below.repeat}" (row ${below.row})`
            : `it is nested deeper than ${MAX_GROUP_DEPTH} groups`;
          n(
            typeCol,
            `The repeat "${name}" became a plain category, asked once${count ? ` (its repeat_count "${cut(count)}" is not kept)` : ''}: ${why}.`,
          );
        }
      }
      if (flattened)
        n(
          typeCol,
          `The group "${name}" is nested deeper than ${MAX_GROUP_DEPTH} levels; its questions stay in the enclosing category.`,
        );
      else current().children.push(node);
      stack.push({ node, name, what: t.what, row, level: inner });
      depth++;
      reportUnused(survey, r, used);
      continue;
    }
    if (t.kind === 'end') {
      // An end closes the innermost open group of its kind; a named end closes the group of that name.
      let at = stack.length - 1;
      if (name) {
        while (at >= 0 && stack[at]!.name !== name) at--;
        if (at < 0) at = stack.length - 1;
      }
      if (!name || stack[at]?.name !== name) while (at >= 0 && stack[at]!.what !== t.what) at--;
      if (at < 0) {
        n(
          typeCol,
          stack.length === 0
            ? `"${rawType}" has no group to close; ignored.`
            : `"${rawType}" closes no open ${t.what}; ignored.`,
        );
      } else {
        for (const s of stack.slice(at + 1))
          n(
            typeCol,
            `"${rawType}" also closes the ${s.what} "${s.name}" opened on row ${s.row}, which had no end of its own.`,
          );
        depth -= stack.length - at;
        stack.length = at;
      }
      reportUnused(survey, r, used);
      continue;
    }
    if (t.kind === 'meta') {
      n(typeCol, t.message);
      continue;
    }
    if (t.kind === 'unknown') {
      n(
        typeCol,
        `The type "${rawType}" is not an XLSForm type Fieldwork can convert; row skipped${name ? ` ("${name}")` : ''}.`,
      );
      continue;
    }

    // A question (or a note, or a calculation).
    let type: ItemType;
    let multi = false;
    let decimal = false;
    let list: ListEntry[] | undefined;
    const typeNotes: { column: string; message: string }[] = [];
    const typeNote = (message: string) => typeNotes.push({ column: headerOf(survey, 'type'), message });
    if (t.kind === 'select') {
      list = t.list ? lists.get(t.list) : undefined;
      if (t.fromFile) {
        type = 'open';
        typeNote(
          `Its choices come from the file "${t.list}", which is not in the workbook: it became a text question.`,
        );
        list = undefined;
      } else if (!list || list.length === 0) {
        type = 'open';
        typeNote(`No choices are listed as "${t.list}": it became a text question.`);
        list = undefined;
      } else {
        type = 'choice';
        multi = t.multi;
        if (t.rank) typeNote('A ranking became a multiple choice: the order of the choices is not kept.');
      }
    } else {
      const p = PLAIN_TYPES[t.type]!;
      type = p.type;
      decimal = p.decimal === true;
      if (p.note) typeNote(p.note);
    }
    const appearance = valueOf(survey, r.values, 'appearance', used);
    if (
      type === 'image' &&
      /\bsignature\b/.test(appearance) &&
      t.kind === 'plain' &&
      PLAIN_TYPES[t.type]!.type === 'image' &&
      !PLAIN_TYPES[t.type]!.note
    )
      type = 'signature';
    else if (appearance)
      typeNotes.push({
        column: headerOf(survey, 'appearance'),
        message: `The appearance "${appearance}" has no equivalent.`,
      });

    let text = label();
    if (Object.keys(text).length > 0 && text[primaryCode] === undefined) {
      const [lang, value] = Object.entries(text)[0]!;
      text = { [primaryCode]: value, ...text };
      n(headerOf(survey, 'label'), `No ${primaryName} label; the ${lang} one is shown in ${primaryName}.`);
    }
    if (Object.keys(text).length === 0) {
      if (type === 'instruction') {
        n(headerOf(survey, 'label'), `The note "${name}" has no text; row skipped.`);
        continue;
      }
      text = { [primaryCode]: name || rawType };
      if (type !== 'calculated')
        n(headerOf(survey, 'label'), `The question "${name}" has no label; its name is shown.`);
    }
    const item = w.addItem(type, text, name);
    if (!name) n(headerOf(survey, 'name'), `The question has no name; it is "${item.codeName}".`);
    else if (item.codeName !== name)
      n(headerOf(survey, 'name'), `The name "${name}" is used by an earlier row; this question is "${item.codeName}".`);
    for (const m of typeNotes) n(m.column, m.message);
    const node: ItemNode = { kind: 'item', item };
    const opts = item.options;

    if (type === 'number') {
      opts.allowDecimal = decimal;
      opts.minimum = { active: false, value: 0 };
      opts.maximum = { active: false, value: 0 };
      if (t.kind === 'plain' && t.type === 'range') {
        const parameters = valueOf(survey, r.values, 'parameters', used);
        rangeParameters(parameters, opts, (m) => n(parameters ? headerOf(survey, 'parameters') : typeCol, m));
      }
    }
    if (type === 'instruction') item.instruction = { ...text };
    if (type === 'calculated') opts.showInForm = false;
    if (multi) opts.multiselect = true;
    const choiceIds = new Map<string, number>();
    if (type === 'binary')
      for (const [l, code] of [
        ['Yes', 'yes'],
        ['No', 'no'],
      ] as const)
        choiceIds.set(code, w.addChoice(item, { [primaryCode]: l }, code).id);
    const made: number[] = [];
    for (const c of list ?? []) {
      const label =
        Object.keys(c.label).length > 0
          ? c.label[primaryCode] === undefined
            ? { [primaryCode]: Object.values(c.label)[0]!, ...c.label }
            : c.label
          : { [primaryCode]: c.name };
      const choice = w.addChoice(item, label, c.name);
      made.push(choice.id);
      if (!choiceIds.has(c.name)) choiceIds.set(c.name, choice.id);
    }
    if (t.kind === 'select' && t.orOther && type === 'choice') {
      const other = w.addChoice(item, { [primaryCode]: 'Other' }, 'other');
      if (!choiceIds.has('other')) choiceIds.set('other', other.id);
      const specify = w.addItem('open', { [primaryCode]: 'Specify other.' }, `${item.codeName}_other`);
      node.other = { item: specify, choiceId: other.id };
    } else if (t.kind === 'select' && t.orOther) n(typeCol, 'or_other applies to choices; ignored.');

    // required, constraint, hint, the rest.
    const required = valueOf(survey, r.values, 'required', used);
    const isRequired = yesNo(required);
    if (isQuestion(item) && type !== 'calculated') {
      opts.isRequiredQuestion = isRequired === true;
      if (isRequired === undefined)
        n(
          headerOf(survey, 'required'),
          `The condition "${cut(required)}" for being required is not converted; the question is optional.`,
        );
    } else if (required !== '' && isRequired !== false)
      n(
        headerOf(survey, 'required'),
        `A ${type === 'calculated' ? 'calculation' : 'note'} cannot be required; "${cut(required)}" is ignored.`,
      );
    const requiredMessage = textOf(survey, r.values, 'required_message', used, row);
    if (Object.keys(requiredMessage).length > 0)
      n(headerOf(survey, 'required_message'), 'The required message has no equivalent; the standard message is shown.');
    const constraint = valueOf(survey, r.values, 'constraint', used);
    const constraintMessage = textOf(survey, r.values, 'constraint_message', used, row);
    if (constraint) {
      const rules = toRules(constraint, type, { decimal, multi });
      if ('ok' in rules) {
        Object.assign(opts, rules.ok);
        if (rules.ok.pattern && Object.keys(constraintMessage).length > 0) rules.ok.pattern.message = constraintMessage;
        else if (Object.keys(constraintMessage).length > 0)
          n(
            headerOf(survey, 'constraint_message'),
            'The constraint message has no equivalent for these rules; the standard messages are shown.',
          );
      } else
        n(headerOf(survey, 'constraint'), `The constraint "${cut(constraint)}" is not converted: ${rules.reason}.`);
    } else if (Object.keys(constraintMessage).length > 0)
      n(headerOf(survey, 'constraint_message'), 'A constraint message without a constraint is not kept.');
    const hint = textOf(survey, r.values, 'hint', used, row);
    if (Object.keys(hint).length > 0) {
      // The sampler has no hint: the hint becomes an instruction shown right before its question.
      if (hint[primaryCode] === undefined) hint[primaryCode] = Object.values(hint)[0]!;
      node.hint = w.addItem('instruction', { ...hint }, `${item.codeName}_hint`);
      node.hint.instruction = { ...hint };
    }
    const calculation = valueOf(survey, r.values, 'calculation', used);
    if (type === 'calculated') {
      if (calculation)
        calcs.push({ item, level, cell: { row, column: headerOf(survey, 'calculation'), text: calculation } });
      else {
        n(headerOf(survey, 'calculation'), `The calculation "${name}" has no expression; row skipped.`);
        w.drop(item);
        if (node.hint) w.drop(node.hint);
        continue;
      }
    } else if (calculation)
      n(
        headerOf(survey, 'calculation'),
        `A calculation on a ${type} question ("${cut(calculation)}") has no equivalent.`,
      );
    const rel = relevantCell();
    if (rel) node.relevant = rel;
    const choiceFilter = valueOf(survey, r.values, 'choice_filter', used);
    if (choiceFilter) {
      const f = cascade(choiceFilter, item, list ?? [], made, level);
      if ('ok' in f) {
        opts.choiceFilter = f.ok;
        filterColumns.add(f.column);
      } else
        n(
          headerOf(survey, 'choice_filter'),
          `The choice filter "${cut(choiceFilter)}" is not converted: ${f.reason}; every choice is offered.`,
        );
    }
    for (const key of ['default', 'read_only', 'trigger', 'guidance_hint', 'repeat_count', 'parameters']) {
      const v =
        key === 'guidance_hint'
          ? (Object.values(textOf(survey, r.values, key, used, row))[0] ?? '')
          : valueOf(survey, r.values, key, used);
      if (v === '' || (key === 'read_only' && yesNo(v) === false)) continue;
      const why =
        key === 'default'
          ? `The default "${cut(v)}" has no equivalent; the question starts empty.`
          : `The column ${key} ("${cut(v)}") has no equivalent.`;
      n(headerOf(survey, key), why);
    }
    for (const media of ['image', 'big-image', 'audio', 'video']) {
      for (const c of survey.of(media)) {
        used[c.index] = true;
        const v = (r.values[c.index] ?? '').trim();
        if (v) n(c.header, `Question media (${media}) has no equivalent; "${cut(v)}" is not kept.`);
      }
    }
    reportUnused(survey, r, used);
    current().children.push(node);
    if (name && !byLevelName.has(`${level}:${name}`)) {
      const entry = {
        item,
        level,
        target: { id: item.id, type, multi, ...(choiceIds.size > 0 ? { choices: choiceIds } : {}) },
      };
      byLevelName.set(`${level}:${name}`, entry);
      if (!byName.has(name)) byName.set(name, entry);
    }
  }
  for (const s of stack)
    note(sheetName, s.row, headerOf(survey, 'type'), `The ${s.what} "${s.name}" has no end; it ends with the sheet.`);
  for (const c of extraColumns) {
    if (!filterColumns.has(c.key))
      note(
        c.sheet,
        1,
        c.header,
        `The column ${c.header} (${c.count} rows; choice filters read such columns) has no equivalent.`,
      );
  }

  // Pass 2: the tree into blocks. A question with a relevance sits in a conditional category of its own, shared by
  // the questions right after it with the same relevance. A condition in a level's form may use the answers of its
  // own form and of its parent level's (the collector and the server evaluate it with the parent response's).
  const lookupAt =
    (level: number, refs: Item[]): Lookup =>
    (name) => {
      const found = find(name, level);
      if (!found) return undefined;
      if (found.level === level || found.level === level - 1) {
        refs.push(found.item);
        return found.level === level
          ? found.target
          : { ...found.target, schemaId: levelSchemaPlaceholder(found.level) };
      }
      return found.level < level
        ? `\${${name}} is in the form of ${levelName(found.level)}, and a condition uses answers of its own form and of its parent level's only`
        : `\${${name}} is in the form of ${levelName(found.level)}, a lower level with many records per response`;
    };
  const blockOf = new Map<Item, Block>();
  const position = new Map<Item, number>();
  const conditional: { block: Block; cell: Cell; refs: Item[] }[] = [];
  const formTitle = setting('form_title');
  const conditionsOf = (cell: Cell, level: number) => {
    const refs: Item[] = [];
    const c = toConditions(cell.text, lookupAt(level, refs));
    return { c, refs };
  };
  /** `outer`: the relevance of the groups around `group` in its level's form (a level below inherits them). */
  const emit = (group: GroupNode, block: Block | undefined, level: number, outer: Cell[]) => {
    const w = levels[level]!.w;
    const place = (item: Item, target: Block) => {
      w.place(item, target);
      blockOf.set(item, target);
      position.set(item, position.size);
    };
    let loose: Block | undefined;
    let wrapper: { block: Block; text: string } | undefined;
    for (const child of group.children) {
      if (child.kind === 'group' && child.level !== undefined) {
        // A repeat that is a level: its questions are that level's form; its relevance and that of the groups
        // around it (in its parent's form), the condition of each of the form's categories.
        wrapper = undefined;
        loose = undefined;
        const form = levels[child.level]!.w.body.form;
        const first = form.length;
        emit(child, undefined, child.level, []);
        for (const cell of child.relevant ? [...outer, child.relevant] : outer) {
          const { c, refs } = conditionsOf(cell, child.level);
          if (!('ok' in c)) {
            note(
              sheetName,
              cell.row,
              cell.column,
              `The relevance "${cut(cell.text)}" is not converted for ${levelName(child.level)}: ${c.reason}. Its questions are shown without it.`,
            );
            continue;
          }
          for (const id of form.slice(first)) {
            const b = levels[child.level]!.w.body.entities.blocks[id]!;
            const both = andConditions(c.ok, b.conditions);
            if (both) setConditions(b, both, cell, refs);
            else
              note(
                sheetName,
                cell.row,
                cell.column,
                `The relevance "${cut(cell.text)}" is not converted for the category "${cut(Object.values(b.name)[0] ?? '')}" of ${levelName(child.level)}: with the category's own condition it would test more than ${MAX_CONDITION_TESTS} answers.`,
              );
          }
        }
        continue;
      }
      if (child.kind === 'group') {
        wrapper = undefined;
        loose = undefined;
        const b = w.addBlock(child.label, block);
        if (child.relevant) {
          const { c, refs } = conditionsOf(child.relevant, level);
          if ('ok' in c) setConditions(b, c.ok, child.relevant, refs);
          else
            note(
              sheetName,
              child.relevant.row,
              child.relevant.column,
              `The relevance "${cut(child.relevant.text)}" is not converted: ${c.reason}. The category is always shown.`,
            );
        }
        emit(child, b, level, child.relevant ? [...outer, child.relevant] : outer);
        continue;
      }
      let target =
        block ??
        (loose ??= w.addBlock(level === 0 ? { [primaryCode]: formTitle || 'Questions' } : { ...levels[level]!.label }));
      if (child.relevant) {
        if (wrapper?.text === child.relevant.text) target = wrapper.block;
        else {
          const { c, refs } = conditionsOf(child.relevant, level);
          if ('ok' in c) {
            const b = w.addBlock({}, target);
            setConditions(b, c.ok, child.relevant, refs);
            wrapper = { block: b, text: child.relevant.text };
            target = b;
          } else {
            wrapper = undefined;
            note(
              sheetName,
              child.relevant.row,
              child.relevant.column,
              `The relevance "${cut(child.relevant.text)}" is not converted: ${c.reason}. The question is always shown.`,
            );
          }
        }
      } else wrapper = undefined;
      if (child.hint) place(child.hint, target);
      place(child.item, target);
      if (child.other) {
        const b = w.addBlock({}, target);
        b.conditions = [{ itemId: child.item.id, schemaId: 0, condition: [child.other.choiceId], finalized: true }];
        place(child.other.item, b);
      }
    }
  };
  const setConditions = (b: Block, entries: ConditionEntry[], cell: Cell, refs: Item[]) => {
    b.conditions = entries;
    conditional.push({ block: b, cell, refs });
  };
  emit(root, undefined, 0, []);

  // Pass 3: calculations, in form order: a formula may use earlier questions of its own category only (spec 001 §5).
  const dropped = new Map<Item, number>();
  for (const { item, cell, level } of calcs) {
    const own = blockOf.get(item)!;
    const f = toFormula(cell.text, (name) => {
      const found = find(name, level);
      const ref = found?.item;
      if (!found || !ref || dropped.has(ref)) return { reason: `\${${name}} is not a question of the form` };
      if (found.level !== level)
        return {
          reason: `\${${name}} is in the form of ${levelName(found.level)}, and a formula uses questions of its own category only`,
        };
      if (blockOf.get(ref) !== own)
        return { reason: `\${${name}} is in another category, and a formula uses questions of its own category only` };
      if (position.get(ref)! >= position.get(item)!) return { reason: `\${${name}} is asked after the calculation` };
      if (!formulaReads(ref.type))
        return { reason: `\${${name}} became a question of type ${ref.type}, whose answers a formula cannot read` };
      return { ok: `Q${own.id}_${ref.id}` };
    });
    if ('ok' in f) item.options.formula = f.ok;
    else {
      note(
        sheetName,
        cell.row,
        cell.column,
        `The calculation "${item.codeName}" ("${cut(cell.text)}") is not converted: ${f.reason}. Write it again in the builder.`,
      );
      dropped.set(item, level);
    }
  }
  if (dropped.size > 0) {
    for (const [item, level] of dropped) {
      const b = blockOf.get(item)!;
      b.entities = b.entities.filter((e) => !(e.type === 'item' && e.id === item.id));
      levels[level]!.w.drop(item);
    }
    const noted = new Set<Cell>();
    for (const { block, cell, refs } of conditional) {
      if (!refs.some((ref) => dropped.has(ref))) continue;
      block.conditions = [];
      if (noted.has(cell)) continue;
      noted.add(cell);
      note(
        sheetName,
        cell.row,
        cell.column,
        `The relevance "${cut(cell.text)}" uses a calculation that was not converted; the questions are always shown.`,
      );
    }
  }

  for (const other of sheets.others ?? []) {
    if (/^entities$/i.test(other))
      note(other, 1, '', 'Entities (ODK Central datasets) have no equivalent; the sheet is not read.');
  }
  notes.sort((a, b) => sheetOrder(a.sheet, sheets) - sheetOrder(b.sheet, sheets) || a.row - b.row);
  const countOf = (body: Converted['body']) =>
    Object.values(body.entities.items).filter((i) => isQuestion(i) && !i.deleted).length;
  const own = countOf(top.body) - (projectType === 'L' ? 2 : 0);
  const lower: ConvertedLevel[] = levels.slice(1).map((l, i) => ({
    name: l.label[primaryCode] ?? (l.repeat || `Level ${i + 2}`),
    body: l.w.body,
    questions: countOf(l.w.body),
  }));
  const questions = lower.reduce((sum, l) => sum + l.questions, own);
  return {
    body: top.body,
    notes,
    questions,
    summary: summary(questions, notes.length),
    ...(formTitle ? { name: formTitle } : {}),
    ...(lower.length > 0 ? { levels: lower } : {}),
  };
}

function sheetOrder(name: string, sheets: XlsFormSheets): number {
  return name === sheets.settings?.name ? 0 : name === sheets.survey.name ? 1 : 2;
}

/** A range's parameters (`start=1 end=10 step=1`): start and end become the bounds. */
function rangeParameters(parameters: string, opts: Item['options'], note: (m: string) => void) {
  const p = Object.fromEntries(
    [...parameters.matchAll(/(\w+)\s*=\s*(-?[\d.]+)/g)].map((m) => [m[1]!.toLowerCase(), Number(m[2])]),
  );
  const start = p.start ?? 0;
  const end = p.end ?? 10;
  const step = p.step ?? 1;
  opts.minimum = { active: true, value: Math.min(start, end) };
  opts.maximum = { active: true, value: Math.max(start, end) };
  opts.allowDecimal = !Number.isInteger(step) || !Number.isInteger(start);
  note(
    `The range became a number question from ${Math.min(start, end)} to ${Math.max(start, end)}${step !== 1 ? ` (its step ${step} is not kept)` : ''}; it is typed, not picked on a slider.`,
  );
}

/** Conditions `a` AND `b` (each an OR of ANDs): the ORs multiplied out, or undefined past MAX_CONDITION_TESTS tests. */
function andConditions(a: ConditionEntry[], b: ConditionEntry[]): ConditionEntry[] | undefined {
  if (b.length === 0) return structuredClone(a);
  const terms = (entries: ConditionEntry[]) => {
    const out: ConditionEntry[][] = [[]];
    for (const e of entries)
      if ('operator' in e && e.operator === 'OR') out.push([]);
      else out[out.length - 1]!.push(e);
    return out;
  };
  const out: ConditionEntry[] = [];
  for (const x of terms(a)) {
    for (const y of terms(b)) {
      if (out.length > 0) out.push({ operator: 'OR' });
      out.push(...structuredClone(x), { operator: 'AND' }, ...structuredClone(y));
    }
  }
  return out.filter((e) => !('operator' in e)).length > MAX_CONDITION_TESTS ? undefined : out;
}

const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

export function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
