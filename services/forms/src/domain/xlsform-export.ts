// A sampler schema as an XLSForm (survey, choices and settings sheets), the inverse of the importer (xlsform.ts), in
// one pass over the form: categories become groups, conditions `relevant`, formulas `calculation`, answer rules
// `constraint`, every language a `label::Name (code)` column. What the importer made of hints and `or_other` is
// written back as hints and `or_other`, so that importing the export gives the form again. What XLSForm cannot hold
// is a note naming the row it would have been on. A project's lower levels (what the importer made of repeats) are
// written inside the first level's form as nested begin/end repeat, each holding its level's form.
import ExcelJS from 'exceljs';
import type { Block, ConditionTest, Item, LocalizedText, SchemaBody } from '@fieldwork/sampler';
import type { Note } from './convert.js';
import { conditionsToXPath, formulaToXPath, rulesToConstraint, type Named } from './xlsform-export-expr.js';
import type { Outcome } from './xpath-convert.js';

export interface XlsFormTables {
  survey: string[][];
  choices: string[][];
  settings: string[][];
}
export interface Exported {
  tables: XlsFormTables;
  notes: Note[];
}

/** Columns of the choices sheet the importer reads itself (or their aliases): a choice filter's column is none of them. */
const RESERVED_CHOICE_COLUMNS = new Set(['list_name', 'list', 'name', 'value', 'label', 'caption', 'image', 'big-image', 'audio', 'video', 'media']);

/** An XLSForm name: a letter or _ first, then letters, digits, -, . and _ (pyxform's XML name rule). */
const XML_NAME = /^[\p{L}_][\p{L}\p{N}_.-]*$/u;
const nameFrom = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}_.-]+/gu, '_')
    .replace(/^[^\p{L}]+/u, '')
    .replace(/_+$/, '')
    .slice(0, 40);

// Saved forms are checked for shape, not for every text: a stray non-text value is read as no text.
const hasText = (t: LocalizedText | undefined) => typeof t === 'object' && t !== null && Object.values(t).some((v) => typeof v === 'string' && v.trim() !== '');
const firstText = (t: LocalizedText | undefined) => (hasText(t) ? Object.values(t!).find((v) => typeof v === 'string' && v.trim() !== '')! : '');
const same = (a: LocalizedText | undefined, b: LocalizedText | undefined) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A language column suffix the importer reads back as the same code: `Name (code)`, or the name for a made-up code. */
function languageColumn(l: { iso_code_1: string; name: string }): string {
  return /^[a-z]{2,3}$/i.test(l.iso_code_1) ? `${l.name || l.iso_code_1} (${l.iso_code_1})` : l.name || l.iso_code_1;
}

/** A level of the project below the exported form: its name (the repeat's label), form, and schema id. */
export interface ExportLevel {
  name: string;
  body: SchemaBody;
  schemaId?: number;
}

/**
 * The XLSForm tables of a schema. `title` is the form's name (settings form_title); `schemaId` is the schema's own
 * id, which conditions may name instead of 0; `levels`, the project's levels below it, outermost first, written as
 * nested repeats (a level's conditions may name its parent level's questions by that level's schema id).
 */
export function toXlsForm(body: SchemaBody, options: { title: string; schemaId?: number; levels?: ExportLevel[] }): Exported {
  const forms: ExportLevel[] = [{ name: options.title, body, ...(options.schemaId !== undefined ? { schemaId: options.schemaId } : {}) }, ...(options.levels ?? [])];
  const notes: Note[] = [];
  const languages = Object.values(body.entities.languages)
    .filter((l) => !l.deleted)
    .sort((a, b) => (a.iso_code_1 === body.primary_language ? -1 : b.iso_code_1 === body.primary_language ? 1 : a.sort - b.sort));
  const langs = languages.map((l) => ({ code: l.iso_code_1, column: languageColumn(l) }));
  const renamed: { item: Item; name: string }[] = [];
  // Rows: each a map of column keys (`label::English (en)`, `type`...) to cells; the columns are laid out at the end.
  const survey: Record<string, string>[] = [];
  const choiceRows: Record<string, string>[] = [];
  const lists = new Map<string, string>();
  const listNames = new Set<string>();
  const rowNo = () => survey.length + 2;
  const note = (column: string, message: string, row = rowNo()) => notes.push({ sheet: 'survey', row, column, message });
  const texts = (row: Record<string, string>, key: string, t: LocalizedText | undefined) => {
    for (const l of langs) {
      const v = typeof t === 'object' && t !== null ? t[l.code] : undefined;
      if (typeof v === 'string' && v !== '') row[`${key}::${l.column}`] = v;
    }
  };
  /** Extra columns of the choices sheet that choice filters read. */
  const filterColumns: string[] = [];
  const groupNames = new Set<string>();
  const namedIn: ((id: number) => Named | undefined)[] = [];

  /** Writes the form of level `level`, then the level below it as a repeat inside it. */
  const writeForm = (level: number) => {
    const body = forms[level]!.body;
    const items = body.entities.items;
    const choices = body.entities.choices;

    // XLSForm names of the questions (code names, made valid and unique where they are not), unique within the
    // level's form (pyxform: a repeat is a section of its own).
    const names = new Map<number, string>();
    const used = new Set<string>();
    for (const item of Object.values(items)) {
      if (item.deleted) continue;
      const code = String(item.codeName ?? '');
      const base = XML_NAME.test(code) ? code : nameFrom(code) || `q${item.id}`;
      let name = base;
      for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
      used.add(name);
      names.set(item.id, name);
      if (name !== item.codeName) renamed.push({ item, name });
    }
    const named = (id: number): Named | undefined => {
      const item = items[id];
      if (!item || item.deleted) return undefined;
      const codes = new Map<number, string>();
      for (const c of item.options.choices ?? []) if (choices[c] && !choices[c]!.deleted) codes.set(c, choices[c]!.codeName);
      return { name: names.get(id)!, item, choices: codes };
    };
    namedIn[level] = named;
    const parent = level > 0 ? forms[level - 1]!.schemaId : undefined;
    const lookup = (t: ConditionTest): Outcome<Named> => {
      // A lower level's condition may test its parent level's answers (pyxform: a reference out of the repeat).
      const from = t.schemaId === 0 || t.schemaId === forms[level]!.schemaId ? named : parent !== undefined && t.schemaId === parent ? namedIn[level - 1]! : undefined;
      if (!from) return { reason: 'it tests a question of another form' };
      const n = from(t.itemId);
      return n ? { ok: n } : { reason: 'it tests a question that is no longer in the form' };
    };
    /**
     * The list of a choice question, shared by questions whose choices are the same; `drop` leaves a choice out;
     * `filter` writes each choice's cell of a choice filter's column.
     */
    const listOf = (item: Item, drop?: number, filter?: { column: string; cells: Map<number, string> }) => {
      const ids = (item.options.choices ?? []).filter((c) => c !== drop && choices[c] && !choices[c]!.deleted);
      const key = JSON.stringify([...ids.map((c) => [choices[c]!.codeName, choices[c]!.name]), filter ? [filter.column, ids.map((c) => filter.cells.get(c) ?? '')] : []]);
      const known = lists.get(key);
      if (known) return known;
      let list = nameFrom(names.get(item.id)!) || `list${lists.size + 1}`;
      for (let n = 2; listNames.has(list); n++) list = `${nameFrom(names.get(item.id)!) || 'list'}_${n}`;
      listNames.add(list);
      lists.set(key, list);
      for (const [i, c] of ids.entries()) {
        const choice = choices[c]!;
        const row: Record<string, string> = { list_name: list, name: String(choice.codeName ?? '').trim() || `c${i + 1}` };
        texts(row, 'label', hasText(choice.name) ? choice.name : { [body.primary_language]: row.name! });
        if (filter) row[filter.column] = filter.cells.get(c) ?? '';
        choiceRows.push(row);
      }
      return list;
    };

    /**
     * Cascading choices as an XLSForm choice filter: a column of the choices sheet named after the filter question holds,
     * for each choice, the names of the filter question's choices it is offered for — `col=${q}` when each choice has
     * one at most, else `selected(col, ${q})` with the names separated by spaces.
     */
    const cascadeOf = (item: Item, drop: number | undefined, lost: (m: string) => void) => {
      const filter = item.options.choiceFilter;
      if (!filter) return undefined;
      const parent = named(filter.itemId);
      if (!parent || parent.item.type !== 'choice' || parent.item.options.multiselect) {
        lost('its choice filter names no single choice question of the form; every choice is offered.');
        return undefined;
      }
      const ids = (item.options.choices ?? []).filter((c) => c !== drop && choices[c] && !choices[c]!.deleted);
      const tied = new Map(ids.map((c) => [c, [...new Set((Array.isArray(filter.ties?.[String(c)]) ? filter.ties[String(c)]! : []).map((t) => parent.choices.get(t)).filter((n): n is string => n !== undefined))]]));
      // A filter that ties nothing is written too: its column is on the choices sheet, empty, and offers nothing.
      const names = [...tied.values()].flat();
      const many = [...tied.values()].some((n) => n.length > 1);
      if (many && names.some((n) => /\s/.test(n) || n === '')) {
        lost('its choice filter ties a choice to several choices, one of whose names holds a space; it is not kept, and every choice is offered.');
        return undefined;
      }
      const base = RESERVED_CHOICE_COLUMNS.has(parent.name.toLowerCase()) ? `${parent.name}_filter` : parent.name;
      if (!filterColumns.includes(base)) filterColumns.push(base);
      const cells = new Map([...tied].map(([c, n]) => [c, n.join(' ')]));
      return { column: base, cells, expression: many ? `selected(${base}, \${${parent.name}})` : `${base}=\${${parent.name}}` };
    };

    /** The "specify other" category the importer makes for `or_other`, when `next` is one for `item`. */
    const orOther = (item: Item, next: Block | undefined) => {
      const ids = item.options.choices ?? [];
      const otherId = ids[ids.length - 1];
      const other = otherId !== undefined ? choices[otherId] : undefined;
      if (!next || next.deleted || hasText(next.name) || !other || other.codeName !== 'other' || !same(other.name, { [body.primary_language]: 'Other' })) return undefined;
      const test = next.conditions[0];
      if (next.conditions.length !== 1 || !test || 'operator' in test || test.itemId !== item.id || JSON.stringify(test.condition) !== JSON.stringify([otherId])) return undefined;
      const specify = next.entities.length === 1 && next.entities[0]!.type === 'item' ? items[next.entities[0]!.id] : undefined;
      if (!specify || specify.type !== 'open' || specify.codeName !== `${item.codeName}_other` || !same(specify.name, { [body.primary_language]: 'Specify other.' })) return undefined;
      const o = specify.options;
      if (o.isRequiredQuestion || o.minLength?.active || o.maxLength?.active || o.pattern?.active) return undefined;
      return otherId;
    };

    const writeItem = (item: Item, relevant: string, hint: Item | undefined, otherId: number | undefined) => {
      const row: Record<string, string> = { name: names.get(item.id)! };
      const o = item.options;
      const lost = (m: string) => note('type', `${item.codeName}: ${m}`);
      switch (item.type) {
        case 'binary':
          row.type = 'acknowledge';
          break;
        case 'choice': {
          const cascade = cascadeOf(item, otherId, lost);
          row.type = `${o.multiselect ? 'select_multiple' : 'select_one'} ${listOf(item, otherId, cascade)}${otherId !== undefined ? ' or_other' : ''}`;
          if (cascade) row.choice_filter = cascade.expression;
          break;
        }
        case 'open':
          row.type = 'text';
          break;
        case 'number':
          row.type = o.allowDecimal ? 'decimal' : 'integer';
          break;
        case 'currency':
          row.type = 'decimal';
          lost(`a currency question became a decimal number; its currency (${o.currency ?? 'none'}) is not kept.`);
          break;
        case 'date':
          row.type = 'date';
          break;
        case 'geotag':
          row.type = 'geopoint';
          break;
        case 'image':
          row.type = 'image';
          break;
        case 'signature':
          row.type = 'image';
          row.appearance = 'signature';
          if (o.agreement?.active) lost('the agreement shown with a signature is not kept.');
          break;
        case 'barcode':
          row.type = 'barcode';
          if (o.restrictType) lost('the restriction to some barcode formats is not kept.');
          break;
        case 'instruction':
          row.type = 'note';
          break;
        case 'calculated':
        case 'concatenation':
          row.type = 'calculate';
          break;
        default:
          lost(`a ${item.type} question has no XLSForm equivalent; it is left out.`);
          return;
      }
      const label = item.type === 'instruction' && hasText(item.instruction) ? item.instruction : item.name;
      // A calculation labelled with its own name is written without a label (the importer shows the name).
      if (!(item.type === 'calculated' && same(label, { [body.primary_language]: item.codeName }))) texts(row, 'label', label);
      if (hint) texts(row, 'hint', hint.instruction ?? hint.name);
      if (relevant) row.relevant = relevant;
      if (o.isRequiredQuestion && item.type !== 'instruction' && item.type !== 'calculated' && item.type !== 'concatenation') row.required = 'yes';
      const rules = rulesToConstraint(item);
      if (rules.constraint) row.constraint = rules.constraint;
      for (const m of rules.lost) note('constraint', `${item.codeName}: ${m}; the rule is not kept.`);
      if (rules.constraint && o.pattern?.active && o.pattern.message) texts(row, 'constraint_message', o.pattern.message);
      if (item.type === 'calculated') {
        const f = formulaToXPath(o.formula ?? '', (id) => {
          const n = named(id);
          return n ? { ok: n.name } : { reason: `it uses a question that is no longer in the form` };
        });
        if ('ok' in f) row.calculation = f.ok;
        else {
          // Written as it is, so that it is not lost: XLSForm tools refuse it until it is written again.
          row.calculation = o.formula ?? '';
          note('calculation', `${item.codeName}: the formula "${o.formula ?? ''}" is written as it is: ${f.reason}.`);
        }
      }
      if (item.type === 'concatenation') {
        const parts = (o.concatenation ?? '').split(',').map((p) => p.trim()).filter(Boolean);
        const refs = parts.map((p) => Object.values(items).find((i) => !i.deleted && i.codeName === p));
        if (refs.some((r) => !r) || parts.length === 0) note('calculation', `${item.codeName}: the concatenation "${o.concatenation ?? ''}" names a question that is not in the form; it is left empty.`);
        row.calculation = refs.every((r) => r) && parts.length > 0 ? `concat(${refs.map((r) => `\${${names.get(r!.id)!}}`).join(", '_', ")})` : '';
        lost('a concatenation became a calculation joining the answers with _ (dates and spaces are not rewritten).');
      }
      if (o.isPrimaryKey || o.isLookupQuestion) lost('being the primary key or a lookup question of a longitudinal form is not kept.');
      survey.push(row);
    };

    /** A condition's expression, and'ed with the relevance of an enclosing category written on each row. */
    const relevanceOf = (block: Block): string | undefined => {
      if (block.conditions.length === 0) return '';
      const x = conditionsToXPath(block.conditions, lookup);
      if ('ok' in x) return x.ok;
      note('relevant', `The condition of the category "${firstText(block.name) || block.id}" is not written: ${x.reason}. Its questions are always shown.`);
      return undefined;
    };
    const and = (a: string, b: string) => (a === '' ? b : b === '' ? a : [a, b].map((x) => (/ or /.test(x) ? `(${x})` : x)).join(' and '));
    // A block is written once, even if a damaged form lists it twice (or inside itself).
    const written = new Set<number>();

    /** Writes a category; answers the relevance its rows carry when it is written inline, for the next sibling. */
    const writeBlock = (block: Block, inherited: string, before?: string): string | undefined => {
      if (written.has(block.id)) return undefined;
      written.add(block.id);
      const own = relevanceOf(block) ?? '';
      // A category without a name holds the questions the importer gave a relevance of their own: each row gets it.
      const inline = !hasText(block.name) && own !== '';
      // Rows inside a group carry only their own relevance: the group's is on its begin row.
      let relevant = inline ? and(inherited, own) : '';
      while (inline && relevant === before) relevant = `(${relevant})`;
      let name = '';
      if (!inline) {
        const label = firstText(block.name);
        const base = nameFrom(label) || `group_${block.id}`;
        name = base;
        for (let n = 2; groupNames.has(name) || used.has(name); n++) name = `${base}_${n}`;
        groupNames.add(name);
        const row: Record<string, string> = { type: 'begin group', name };
        texts(row, 'label', block.name);
        const rel = and(inherited, own);
        if (rel) row.relevant = rel;
        if (!hasText(block.name)) note('label', `A category without a name became the group "${name}".`, rowNo());
        if (block.askOnce) note('type', `The category "${label}" is asked once per record in Fieldwork; XLSForm has no equivalent.`, rowNo());
        survey.push(row);
      }
      const live = block.entities.filter((e) => (e.type === 'item' ? items[e.id] && !items[e.id]!.deleted : body.entities.blocks[e.id] && !body.entities.blocks[e.id]!.deleted));
      // Rows with the same relevance in a row are one category to the importer: a second such category right after
      // the first gets its relevance in brackets (the same condition, another text), so it stays a category of its own.
      let previous: string | undefined;
      for (let i = 0; i < live.length; i++) {
        const e = live[i]!;
        if (e.type === 'block') {
          previous = writeBlock(body.entities.blocks[e.id]!, relevant, previous);
          continue;
        }
        previous = undefined;
        const item = items[e.id]!;
        // The importer's hint: an instruction named <question>_hint right before its question.
        const next = live[i + 1]?.type === 'item' ? items[live[i + 1]!.id] : undefined;
        if (item.type === 'instruction' && next && new RegExp(`^${escapeRe(next.codeName)}_hint(_\\d+)?$`).test(item.codeName) && same(item.name, item.instruction) && hasText(item.instruction)) {
          const after = live[i + 2]?.type === 'block' ? body.entities.blocks[live[i + 2]!.id] : undefined;
          const other = next.type === 'choice' ? orOther(next, after) : undefined;
          writeItem(next, relevant, item, other);
          i += other !== undefined ? 2 : 1;
          continue;
        }
        const after = live[i + 1]?.type === 'block' ? body.entities.blocks[live[i + 1]!.id] : undefined;
        const other = item.type === 'choice' ? orOther(item, after) : undefined;
        writeItem(item, relevant, undefined, other);
        if (other !== undefined) i++;
      }
      if (!inline) survey.push({ type: 'end group', name });
      return inline ? relevant : undefined;
    };

    for (const id of body.form) {
      const block = body.entities.blocks[id];
      if (block && !block.deleted) writeBlock(block, '');
    }
    const below = forms[level + 1];
    if (below) {
      const label = below.name.trim() || `Level ${level + 2}`;
      const base = nameFrom(label) || `level_${level + 1}`;
      let name = base;
      for (let n = 2; groupNames.has(name) || used.has(name); n++) name = `${base}_${n}`;
      groupNames.add(name);
      survey.push({ type: 'begin repeat', name, [`label::${langs[0]?.column ?? 'English (en)'}`]: label });
      writeForm(level + 1);
      survey.push({ type: 'end repeat', name });
    }
  };
  writeForm(0);
  for (const { item, name } of renamed) note('name', `The code name "${item.codeName}" is not an XLSForm name; it is written as "${name}".`, 1);
  notes.sort((a, b) => a.row - b.row);

  // Columns: the fixed ones in XLSForm's usual order, then each language's, leaving out those no row uses.
  const perLanguage = (key: string) => langs.map((l) => `${key}::${l.column}`);
  const surveyColumns = ['type', 'name', ...perLanguage('label'), ...perLanguage('hint'), 'required', 'relevant', 'constraint', ...perLanguage('constraint_message'), 'calculation', 'choice_filter', 'appearance'];
  const keep = (cols: string[], rows: Record<string, string>[], always: string[]) => cols.filter((c) => always.includes(c) || rows.some((r) => r[c] !== undefined));
  const table = (cols: string[], rows: Record<string, string>[]) => [cols, ...rows.map((r) => cols.map((c) => r[c] ?? ''))];
  const sCols = keep(surveyColumns, survey, ['type', 'name', ...perLanguage('label')]);
  const cCols = ['list_name', 'name', ...perLanguage('label'), ...filterColumns];
  const primary = languages.find((l) => l.iso_code_1 === body.primary_language);
  return {
    tables: {
      survey: table(sCols, survey),
      choices: table(cCols, choiceRows),
      settings: [
        ['form_title', 'default_language'],
        [options.title, primary ? languageColumn(primary) : ''],
      ],
    },
    notes,
  };
}

/** The sheet that lists what the export could not write; XLSForm tools and our importer ignore it. */
export const NOTES_SHEET = 'fieldwork_notes';

/**
 * The tables as an .xlsx workbook: every cell a text cell, the header row bold and frozen; the notes, when there are
 * any, on a sheet of their own so that whoever opens the file sees them.
 */
export function xlsFormWorkbook(tables: XlsFormTables, notes: Note[] = []): ExcelJS.Workbook {
  const wb = new ExcelJS.Workbook();
  const sheets: [string, string[][]][] = [['survey', tables.survey], ['choices', tables.choices], ['settings', tables.settings]];
  if (notes.length > 0) sheets.push([NOTES_SHEET, [['sheet', 'row', 'column', 'not kept'], ...notes.map((n) => [n.sheet, String(n.row), n.column, n.message])]]);
  for (const [name, rows] of sheets) {
    const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    for (const r of rows) ws.addRow(r);
    ws.getRow(1).font = { bold: true };
    ws.columns.forEach((c) => (c.width = Math.min(60, Math.max(10, ...(c.values ?? []).map((v) => String(v ?? '').length + 2)))));
  }
  return wb;
}

/** The form's XLSForm file. */
export async function xlsFormFile(body: SchemaBody, options: { title: string; schemaId?: number; levels?: ExportLevel[] }): Promise<{ content: Buffer; notes: Note[] }> {
  const { tables, notes } = toXlsForm(body, options);
  return { content: Buffer.from(await xlsFormWorkbook(tables, notes).xlsx.writeBuffer()), notes };
}
