// XLSForm (xlsform.org, as pyxform reads it) into a sampler schema, in time proportional to its rows. Three passes:
// the survey rows become items and a tree of groups; the tree becomes blocks, with relevance as block conditions;
// calculations become formulas once every question has its category. Whatever has no equivalent is a note naming
// its sheet, row and column.
import { formulaReads, isQuestion, isSingleChoice, type Block, type ChoiceFilter, type ConditionEntry, type Item, type ItemType, type LocalizedText } from '@fieldwork/sampler';
import { summary, type Converted, type Note, type Sheet } from './convert.js';
import { SchemaWriter } from './schema-writer.js';
import { parseChoiceFilter } from './xlsform-cascade.js';
import { parseHeader, parseLanguage, yesNo, type Column } from './xlsform-columns.js';
import { toConditions, toFormula, toRules, type Target } from './xpath-convert.js';
import { parseType, PLAIN_TYPES } from './xlsform-types.js';

/** Groups nested deeper than this keep their questions in the enclosing category. */
export const MAX_GROUP_DEPTH = 20;

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
  const note = (sheet: string, row: number, column: string, message: string) => notes.push({ sheet, row, column, message });
  const survey = new Columns(sheets.survey);
  const choiceSheets = [sheets.choices, sheets.externalChoices].filter((s): s is Sheet => s !== undefined).map((s) => new Columns(s));
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
      const why = c.key === 'form_id' || c.key === 'version' ? 'Fieldwork identifies and versions the form itself' : 'it has no equivalent';
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
      if (l.invented) note(sheet, 1, column, `"${written}" is not an ISO 639-1 language; it was kept with the code "${l.code}".`);
    }
    return l.code;
  };
  const defaultLanguage = setting('default_language');
  const primary = defaultLanguage ? learn(defaultLanguage, sheets.settings!.name, 'default_language') : undefined;
  const TEXTS = ['label', 'hint', 'guidance_hint', 'constraint_message', 'required_message'];
  for (const cols of [survey, ...choiceSheets]) for (const c of cols.list) if (c.lang && TEXTS.includes(c.key)) learn(c.lang, cols.sheet.name, c.header);
  const primaryCode = primary ?? languages[0]?.code ?? 'en';
  const primaryName = languages.find((l) => l.code === primaryCode)?.name ?? 'English';
  const w = new SchemaWriter(projectType, { iso_code_1: primaryCode, name: primaryName });
  for (const l of languages) if (l.code !== primaryCode) w.addLanguage(l.code, l.name);

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
      else if (out[primaryCode] !== plain) note(cols.sheet.name, row, plainColumn, `The untranslated ${key} "${plain}" is not kept: the ${primaryName} column has its own.`);
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
      if (c.header === '') note(cols.sheet.name, row.row, columnLetter(c.index), `A cell under a column without a header is not read ("${cut(v)}").`);
      else note(cols.sheet.name, row.row, c.header, `The column ${c.header} has no equivalent; "${cut(v)}" is not kept.`);
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
        note(cols.sheet.name, r.row, headerOf(cols, 'list_name'), 'This choice has no list name; it is not in any list.');
        continue;
      }
      if (name === '') note(cols.sheet.name, r.row, headerOf(cols, 'name'), 'This choice has no name; its label is used as its name.');
      let entries = lists.get(list);
      if (!entries) lists.set(list, (entries = []));
      const entry: ListEntry = { name: name || Object.values(label)[0] || `c${entries.length + 1}`, label, row: r.row, extra: {}, columns };
      entries.push(entry);
      for (const c of cols.list) {
        if (used[c.index] || (r.values[c.index] ?? '').trim() === '') continue;
        if (['image', 'big-image', 'audio', 'video'].includes(c.key)) note(cols.sheet.name, r.row, c.header, `Choice media (${c.key}) has no equivalent; "${cut(r.values[c.index]!)}" is not kept.`);
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
  const stack: { node: GroupNode; name: string; what: string; row: number }[] = [];
  let depth = 0;
  const byName = new Map<string, { item: Item; target: Target }>();
  const calcs: { item: Item; cell: Cell }[] = [];

  /**
   * A choice filter as cascading choices: the question's choices `made` (one per list entry) tied to the choices of
   * the filtering question that the entries' column names; or why it is not converted.
   */
  const cascade = (expression: string, item: Item, entries: ListEntry[], made: number[]): { ok: ChoiceFilter; column: string } | { reason: string } => {
    const f = parseChoiceFilter(expression);
    if (!f) return { reason: 'it is not a choices column compared with an earlier select_one question (col=${q}, ${q}=col or selected(${q}, col))' };
    if (item.type !== 'choice') return { reason: 'the question has no choices' };
    const parent = byName.get(f.question)?.item;
    if (!parent) return { reason: `\${${f.question}} is not a question asked before this one` };
    if (!isSingleChoice(parent)) return { reason: `\${${f.question}} is not a select_one question` };
    if (!entries.some((e) => e.columns.has(f.column))) return { reason: `the choices sheet has no column "${f.column}"` };
    const byCode = new Map<string, number[]>();
    for (const id of parent.options.choices ?? []) {
      const code = w.body.entities.choices[id]!.codeName;
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
      if (appearance && appearance !== 'field-list') n(headerOf(survey, 'appearance'), `The appearance "${appearance}" has no equivalent for a category.`);
      if (t.what !== 'group') {
        const count = valueOf(survey, r.values, 'repeat_count', used);
        n(typeCol, `The repeat "${name}" became a plain category, asked once${count ? ` (its repeat_count "${count}" is not kept)` : ''}: repeated questions need a level of the project's hierarchy.`);
      }
      const flattened = depth >= MAX_GROUP_DEPTH;
      if (flattened) n(typeCol, `The group "${name}" is nested deeper than ${MAX_GROUP_DEPTH} levels; its questions stay in the enclosing category.`);
      else current().children.push(node);
      stack.push({ node, name, what: t.what, row });
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
        n(typeCol, stack.length === 0 ? `"${rawType}" has no group to close; ignored.` : `"${rawType}" closes no open ${t.what}; ignored.`);
      } else {
        for (const s of stack.slice(at + 1)) n(typeCol, `"${rawType}" also closes the ${s.what} "${s.name}" opened on row ${s.row}, which had no end of its own.`);
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
      n(typeCol, `The type "${rawType}" is not an XLSForm type Fieldwork can convert; row skipped${name ? ` ("${name}")` : ''}.`);
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
        typeNote(`Its choices come from the file "${t.list}", which is not in the workbook: it became a text question.`);
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
    if (type === 'image' && /\bsignature\b/.test(appearance) && t.kind === 'plain' && PLAIN_TYPES[t.type]!.type === 'image' && !PLAIN_TYPES[t.type]!.note) type = 'signature';
    else if (appearance) typeNotes.push({ column: headerOf(survey, 'appearance'), message: `The appearance "${appearance}" has no equivalent.` });

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
      if (type !== 'calculated') n(headerOf(survey, 'label'), `The question "${name}" has no label; its name is shown.`);
    }
    const item = w.addItem(type, text, name);
    if (!name) n(headerOf(survey, 'name'), `The question has no name; it is "${item.codeName}".`);
    else if (item.codeName !== name) n(headerOf(survey, 'name'), `The name "${name}" is used by an earlier row; this question is "${item.codeName}".`);
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
    if (type === 'binary') for (const [l, code] of [['Yes', 'yes'], ['No', 'no']] as const) choiceIds.set(code, w.addChoice(item, { [primaryCode]: l }, code).id);
    const made: number[] = [];
    for (const c of list ?? []) {
      const label = Object.keys(c.label).length > 0 ? (c.label[primaryCode] === undefined ? { [primaryCode]: Object.values(c.label)[0]!, ...c.label } : c.label) : { [primaryCode]: c.name };
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
      if (isRequired === undefined) n(headerOf(survey, 'required'), `The condition "${cut(required)}" for being required is not converted; the question is optional.`);
    } else if (required !== '' && isRequired !== false) n(headerOf(survey, 'required'), `A ${type === 'calculated' ? 'calculation' : 'note'} cannot be required; "${cut(required)}" is ignored.`);
    const requiredMessage = textOf(survey, r.values, 'required_message', used, row);
    if (Object.keys(requiredMessage).length > 0) n(headerOf(survey, 'required_message'), 'The required message has no equivalent; the standard message is shown.');
    const constraint = valueOf(survey, r.values, 'constraint', used);
    const constraintMessage = textOf(survey, r.values, 'constraint_message', used, row);
    if (constraint) {
      const rules = toRules(constraint, type, { decimal, multi });
      if ('ok' in rules) {
        Object.assign(opts, rules.ok);
        if (rules.ok.pattern && Object.keys(constraintMessage).length > 0) rules.ok.pattern.message = constraintMessage;
        else if (Object.keys(constraintMessage).length > 0) n(headerOf(survey, 'constraint_message'), 'The constraint message has no equivalent for these rules; the standard messages are shown.');
      } else n(headerOf(survey, 'constraint'), `The constraint "${cut(constraint)}" is not converted: ${rules.reason}.`);
    } else if (Object.keys(constraintMessage).length > 0) n(headerOf(survey, 'constraint_message'), 'A constraint message without a constraint is not kept.');
    const hint = textOf(survey, r.values, 'hint', used, row);
    if (Object.keys(hint).length > 0) {
      // The sampler has no hint: the hint becomes an instruction shown right before its question.
      if (hint[primaryCode] === undefined) hint[primaryCode] = Object.values(hint)[0]!;
      node.hint = w.addItem('instruction', { ...hint }, `${item.codeName}_hint`);
      node.hint.instruction = { ...hint };
    }
    const calculation = valueOf(survey, r.values, 'calculation', used);
    if (type === 'calculated') {
      if (calculation) calcs.push({ item, cell: { row, column: headerOf(survey, 'calculation'), text: calculation } });
      else {
        n(headerOf(survey, 'calculation'), `The calculation "${name}" has no expression; row skipped.`);
        w.drop(item);
        if (node.hint) w.drop(node.hint);
        continue;
      }
    } else if (calculation) n(headerOf(survey, 'calculation'), `A calculation on a ${type} question ("${cut(calculation)}") has no equivalent.`);
    const rel = relevantCell();
    if (rel) node.relevant = rel;
    const choiceFilter = valueOf(survey, r.values, 'choice_filter', used);
    if (choiceFilter) {
      const f = cascade(choiceFilter, item, list ?? [], made);
      if ('ok' in f) {
        opts.choiceFilter = f.ok;
        filterColumns.add(f.column);
      } else n(headerOf(survey, 'choice_filter'), `The choice filter "${cut(choiceFilter)}" is not converted: ${f.reason}; every choice is offered.`);
    }
    for (const key of ['default', 'read_only', 'trigger', 'guidance_hint', 'repeat_count', 'parameters']) {
      const v = key === 'guidance_hint' ? Object.values(textOf(survey, r.values, key, used, row))[0] ?? '' : valueOf(survey, r.values, key, used);
      if (v === '' || (key === 'read_only' && yesNo(v) === false)) continue;
      const why =
        key === 'default' ? `The default "${cut(v)}" has no equivalent; the question starts empty.` : `The column ${key} ("${cut(v)}") has no equivalent.`;
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
    if (name && !byName.has(name)) byName.set(name, { item, target: { id: item.id, type, multi, ...(choiceIds.size > 0 ? { choices: choiceIds } : {}) } });
  }
  for (const s of stack) note(sheetName, s.row, headerOf(survey, 'type'), `The ${s.what} "${s.name}" has no end; it ends with the sheet.`);
  for (const c of extraColumns) {
    if (!filterColumns.has(c.key)) note(c.sheet, 1, c.header, `The column ${c.header} (${c.count} rows; choice filters read such columns) has no equivalent.`);
  }

  // Pass 2: the tree into blocks. A question with a relevance sits in a conditional category of its own, shared by
  // the questions right after it with the same relevance.
  const lookup = (name: string) => byName.get(name)?.target;
  const blockOf = new Map<number, Block>();
  const position = new Map<number, number>();
  const conditional: { block: Block; cell: Cell }[] = [];
  const formTitle = setting('form_title');
  const place = (item: Item, block: Block) => {
    w.place(item, block);
    blockOf.set(item.id, block);
    position.set(item.id, position.size);
  };
  const emit = (group: GroupNode, block: Block | undefined) => {
    let loose: Block | undefined;
    let wrapper: { block: Block; text: string } | undefined;
    for (const child of group.children) {
      if (child.kind === 'group') {
        wrapper = undefined;
        loose = undefined;
        const b = w.addBlock(child.label, block);
        if (child.relevant) {
          const c = toConditions(child.relevant.text, lookup);
          if ('ok' in c) setConditions(b, c.ok, child.relevant);
          else note(sheetName, child.relevant.row, child.relevant.column, `The relevance "${cut(child.relevant.text)}" is not converted: ${c.reason}. The category is always shown.`);
        }
        emit(child, b);
        continue;
      }
      let target = block ?? (loose ??= w.addBlock({ [primaryCode]: formTitle || 'Questions' }));
      if (child.relevant) {
        if (wrapper?.text === child.relevant.text) target = wrapper.block;
        else {
          const c = toConditions(child.relevant.text, lookup);
          if ('ok' in c) {
            const b = w.addBlock({}, target);
            setConditions(b, c.ok, child.relevant);
            wrapper = { block: b, text: child.relevant.text };
            target = b;
          } else {
            wrapper = undefined;
            note(sheetName, child.relevant.row, child.relevant.column, `The relevance "${cut(child.relevant.text)}" is not converted: ${c.reason}. The question is always shown.`);
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
  const setConditions = (b: Block, entries: ConditionEntry[], cell: Cell) => {
    b.conditions = entries;
    conditional.push({ block: b, cell });
  };
  emit(root, undefined);

  // Pass 3: calculations, in form order: a formula may use earlier questions of its own category only (spec 001 §5).
  const dropped = new Set<number>();
  for (const { item, cell } of calcs) {
    const own = blockOf.get(item.id)!;
    const f = toFormula(cell.text, (name) => {
      const ref = byName.get(name)?.item;
      if (!ref || dropped.has(ref.id)) return { reason: `\${${name}} is not a question of the form` };
      if (blockOf.get(ref.id) !== own) return { reason: `\${${name}} is in another category, and a formula uses questions of its own category only` };
      if (position.get(ref.id)! >= position.get(item.id)!) return { reason: `\${${name}} is asked after the calculation` };
      if (!formulaReads(ref.type)) return { reason: `\${${name}} became a question of type ${ref.type}, whose answers a formula cannot read` };
      return { ok: `Q${own.id}_${ref.id}` };
    });
    if ('ok' in f) item.options.formula = f.ok;
    else {
      note(sheetName, cell.row, cell.column, `The calculation "${item.codeName}" ("${cut(cell.text)}") is not converted: ${f.reason}. Write it again in the builder.`);
      dropped.add(item.id);
    }
  }
  if (dropped.size > 0) {
    for (const id of dropped) {
      const b = blockOf.get(id)!;
      b.entities = b.entities.filter((e) => !(e.type === 'item' && dropped.has(e.id)));
      w.drop(w.body.entities.items[id]!);
    }
    for (const { block, cell } of conditional) {
      if (!block.conditions.some((e) => 'itemId' in e && dropped.has(e.itemId))) continue;
      block.conditions = [];
      note(sheetName, cell.row, cell.column, `The relevance "${cut(cell.text)}" uses a calculation that was not converted; the questions are always shown.`);
    }
  }

  for (const other of sheets.others ?? []) {
    if (/^entities$/i.test(other)) note(other, 1, '', 'Entities (ODK Central datasets) have no equivalent; the sheet is not read.');
  }
  notes.sort((a, b) => sheetOrder(a.sheet, sheets) - sheetOrder(b.sheet, sheets) || a.row - b.row);
  const questions = Object.values(w.body.entities.items).filter((i) => isQuestion(i) && !i.deleted).length - (projectType === 'L' ? 2 : 0);
  return { body: w.body, notes, questions, summary: summary(questions, notes.length), ...(formTitle ? { name: formTitle } : {}) };
}

function sheetOrder(name: string, sheets: XlsFormSheets): number {
  return name === sheets.settings?.name ? 0 : name === sheets.survey.name ? 1 : 2;
}

/** A range's parameters (`start=1 end=10 step=1`): start and end become the bounds. */
function rangeParameters(parameters: string, opts: Item['options'], note: (m: string) => void) {
  const p = Object.fromEntries([...parameters.matchAll(/(\w+)\s*=\s*(-?[\d.]+)/g)].map((m) => [m[1]!.toLowerCase(), Number(m[2])]));
  const start = p.start ?? 0;
  const end = p.end ?? 10;
  const step = p.step ?? 1;
  opts.minimum = { active: true, value: Math.min(start, end) };
  opts.maximum = { active: true, value: Math.max(start, end) };
  opts.allowDecimal = !Number.isInteger(step) || !Number.isInteger(start);
  note(`The range became a number question from ${Math.min(start, end)} to ${Math.max(start, end)}${step !== 1 ? ` (its step ${step} is not kept)` : ''}; it is typed, not picked on a slider.`);
}

const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

export function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
