// The corpus of public XLSForms (test/fixtures/xlsforms, see SOURCES.md): each workbook is read here with exceljs, by
// this test's own reading of XLSForm, and the converted form is checked against the workbook's rows: every question
// row is a question of the expected type or a reported loss at that row, choice counts, languages, group depth,
// conditions; no conversion throws, and what it builds stays proportional to the rows. Repeats are levels of the
// project's hierarchy: a question inside the outermost repeat is in the level-1 form, inside a repeat nested in it in
// the level-2 form, and so on; a repeat beside one that already is its level stays a category of its parent's form.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { formProblems, itemValid, type Block, type SchemaBody } from '@fieldwork/sampler';
import { documentProblems } from '../domain/document.js';
import { ConversionRefused, type Converted } from '../domain/convert.js';
import { convertUpload } from '../domain/workbook.js';

const DIR = join(import.meta.dirname, '../../test/fixtures/xlsforms');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.xlsx'));

// The test's own table: XLSForm type → the sampler type the issue asks for (nearest equivalent).
const EXPECTED: Record<string, string> = {
  integer: 'number', int: 'number', decimal: 'number', range: 'number',
  text: 'open', string: 'open', time: 'open',
  date: 'date', datetime: 'date',
  geopoint: 'geotag', gps: 'geotag', location: 'geotag', geotrace: 'geotag', geoshape: 'geotag',
  image: 'image', photo: 'image', audio: 'image', video: 'image', file: 'image',
  barcode: 'barcode', note: 'instruction', calculate: 'calculated', acknowledge: 'binary', trigger: 'binary',
};
const METADATA = ['start', 'end', 'today', 'deviceid', 'imei', 'subscriberid', 'simserial', 'phonenumber', 'username', 'email', 'audit', 'start-geopoint'];

function text(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'richText' in v) return v.richText.map((r) => r.text).join('');
  if (typeof v === 'object' && 'result' in v) return String(v.result ?? '');
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

interface SurveyRow {
  row: number;
  type: string;
  name: string;
  relevant: string;
  appearance: string;
  /** The level whose form holds the question (0: the first). */
  level: number;
  /** The groups around it in its level's form (inside its repeat). */
  groups: { row: number; relevant: string }[];
  /** The groups whose relevance applies to it: those of its form, its repeat, and the groups around that repeat. */
  conditions: { row: number; relevant: string }[];
  choiceFilter: string;
}

/**
 * The cascades the importer converts, as this test reads them: a choices column compared with a question
 * (`col=${q}`, `${q}=col`, `selected(${q}, col)`, quotes around ${q} allowed), or `selected(col, ${q})` for a column
 * listing several names.
 */
function cascadeOf(filter: string): { column: string; question: string; many: boolean } | undefined {
  const t = filter.trim().replace(/^\((.*)\)$/, '$1').trim();
  const ref = /^(['"]?)\$\{\s*([\p{L}_][\p{L}\p{N}_.-]*)\s*\}\1$/u;
  const col = /^[\p{L}_][\p{L}\p{N}_.-]*$/u;
  const eq = /^([^=!<>]+)=([^=]+)$/.exec(t);
  const sel = /^selected\s*\(([^,]+),([^,]+)\)$/.exec(t);
  const pair = (a: string, b: string) => {
    const [x, y] = [a.trim(), b.trim()];
    if (col.test(x) && ref.test(y)) return { column: x.toLowerCase(), question: ref.exec(y)![2]! };
    if (ref.test(x) && col.test(y)) return { column: y.toLowerCase(), question: ref.exec(x)![2]! };
    return undefined;
  };
  if (eq) {
    const p = pair(eq[1]!, eq[2]!);
    return p && { ...p, many: false };
  }
  if (sel) {
    const p = pair(sel[1]!, sel[2]!);
    // selected(${q}, col) compares one name; selected(col, ${q}) finds the answer among the column's names.
    return p && { ...p, many: ref.test(sel[2]!.trim()) };
  }
  return undefined;
}

/** The workbook as this test reads it. */
async function read(file: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(join(DIR, file)) as unknown as ArrayBuffer);
  const sheet = (name: string) => wb.worksheets.find((w) => w.name.trim().toLowerCase() === name);
  const table = (ws: ExcelJS.Worksheet | undefined) => {
    const rows: { row: number; cells: Record<string, string> }[] = [];
    let header: string[] | undefined;
    ws?.eachRow((r, n) => {
      const values = Array.from((r.values as ExcelJS.CellValue[]).slice(1), text);
      if (!header) header = values.map((h) => h.trim().toLowerCase());
      else rows.push({ row: n, cells: Object.fromEntries(header.map((h, i) => [h, (values[i] ?? '').trim()])) });
    });
    return { header: header ?? [], rows };
  };
  const survey = table(sheet('survey'));
  const choices = table(sheet('choices'));
  const external = table(sheet('external_choices'));
  const listSize = new Map<string, number>();
  const listRows = new Map<string, Record<string, string>[]>();
  for (const r of [...choices.rows, ...external.rows]) {
    const list = r.cells.list_name ?? r.cells['list name'] ?? '';
    if (list) listSize.set(list, (listSize.get(list) ?? 0) + 1);
    if (list) listRows.set(list, [...(listRows.get(list) ?? []), r.cells]);
  }
  const col = (cells: Record<string, string>, ...names: string[]) => names.map((n) => cells[n]).find((v) => v !== undefined && v !== '') ?? '';
  const rows: SurveyRow[] = [];
  const open: { row: number; relevant: string; kind: string; level: boolean }[] = [];
  let levels = 0;
  for (const r of survey.rows) {
    const type = col(r.cells, 'type').replace(/\s+/g, ' ');
    const lower = type.toLowerCase();
    const relevant = col(r.cells, 'relevant', 'relevance', 'bind::relevant', 'bind:relevant');
    const begin = /^begin[ _](group|repeat|loop)/.exec(lower);
    const end = /^end[ _](group|repeat|loop)/.exec(lower);
    // A repeat is the next level when no level sits below the one it is in yet (and it is not past 20 groups deep).
    const inLevel = open.filter((o) => o.level).length;
    const level = begin !== null && begin[1] !== 'group' && open.length < 20 && levels === inLevel;
    if (level) levels++;
    if (begin) open.push({ row: r.row, relevant, kind: begin[1] === 'group' ? 'group' : 'repeat', level });
    else if (end) {
      const at = open.map((o) => o.kind).lastIndexOf(end[1] === 'group' ? 'group' : 'repeat');
      if (at >= 0) open.length = at;
    } else if (type) {
      const marks = open.flatMap((o, i) => (o.level ? [i] : []));
      const own = marks.at(-1) ?? -1;
      const parent = marks.at(-2) ?? -1;
      const pick = (o: { row: number; relevant: string }) => ({ row: o.row, relevant: o.relevant });
      rows.push({
        row: r.row,
        type,
        name: col(r.cells, 'name'),
        relevant,
        appearance: col(r.cells, 'appearance', 'control::appearance'),
        choiceFilter: col(r.cells, 'choice_filter'),
        level: marks.length,
        groups: open.slice(own + 1).map(pick),
        conditions: open.slice(parent + 1).map(pick),
      });
    }
  }
  const labelLanguages = new Set(
    [...survey.header, ...choices.header]
      .map((h) => /^label\s*::?\s*(.+)$/.exec(h)?.[1]?.trim())
      .filter((l): l is string => l !== undefined && l !== ''),
  );
  /** The list a select row uses: the last word of its type (select_one x, select one from x), without or_other. */
  const listOf = (type: string) => (/^(select|rank)/i.test(type) ? type.replace(/\s+or_other$/i, '').split(' ').pop()! : '');
  return { listOf, hasSurvey: sheet('survey') !== undefined, surveyRows: survey.rows.length, choiceRows: choices.rows.length + external.rows.length, rows, listSize, listRows, labelLanguages, levels };
}

function ancestors(body: SchemaBody): Map<string, Block | undefined> {
  const parent = new Map<string, Block | undefined>();
  for (const b of Object.values(body.entities.blocks)) for (const e of b.entities) parent.set(`${e.type}:${e.id}`, b);
  return parent;
}

describe('the XLSForm corpus', () => {
  it('holds at least 50 public forms, each with its source', () => {
    const sources = readFileSync(join(DIR, 'SOURCES.md'), 'utf8');
    expect(FILES.length).toBeGreaterThanOrEqual(50);
    for (const f of FILES) expect(sources, f).toContain(`| ${f} |`);
  });

  it.each(FILES)('%s converts faithfully or reports what it loses', async (file) => {
    const wb = await read(file);
    let converted: Converted;
    let format: string;
    const started = performance.now();
    try {
      ({ converted, format } = await convertUpload('xlsx', readFileSync(join(DIR, file)), 'S'));
    } catch (err) {
      // Refused only when the workbook is no XLSForm, or none of its rows is a question that always converts.
      expect(err).toBeInstanceOf(ConversionRefused);
      const sure = wb.rows.filter((r) => EXPECTED[r.type.toLowerCase()] && !['note', 'calculate'].includes(r.type.toLowerCase()));
      expect(wb.hasSurvey ? sure : [], (err as Error).message).toEqual([]);
      return;
    }
    const ms = performance.now() - started;
    // A workbook without a survey sheet is read as a question list (type and label columns), not as an XLSForm.
    expect(format).toBe(wb.hasSurvey ? 'XLSForm' : 'question list (XLSX)');
    if (!wb.hasSurvey) return;
    const body = converted.body;
    // One form per level: the first, then one per repeat that is a level, outermost first.
    const forms = [body, ...(converted.levels ?? []).map((l) => l.body)];
    expect(forms, `${file}: levels`).toHaveLength(wb.levels + 1);
    const items = forms.flatMap((f) => Object.values(f.entities.items));
    const byCodes = forms.map((f) => new Map(Object.values(f.entities.items).map((i) => [i.codeName, i])));
    const notedAt = (row: number, column?: RegExp) => converted.notes.some((n) => n.sheet.toLowerCase() === 'survey' && n.row === row && (!column || column.test(n.column)));
    const parents = forms.map(ancestors);

    const seen = new Set<string>();
    let cascades = 0;
    for (const r of wb.rows) {
      const lower = r.type.toLowerCase();
      const byCode = byCodes[r.level]!;
      const parent = parents[r.level]!;
      const chain = (id: number) => {
        const out: Block[] = [];
        for (let b = parent.get(`item:${id}`); b; b = parent.get(`block:${b.id}`)) out.push(b);
        return out;
      };
      // A repeated name (in one level's form) is renamed, and the renaming reported at its row.
      if (r.name && seen.has(`${r.level}:${r.name}`)) {
        expect(notedAt(r.row), `${file} row ${r.row}: repeated name ${r.name} reported`).toBe(true);
        continue;
      }
      seen.add(`${r.level}:${r.name}`);
      const [head = '', list = ''] = lower.split(' ');
      if (METADATA.includes(lower)) {
        expect(notedAt(r.row, /type/i), `${file} row ${r.row}: metadata ${r.type} reported`).toBe(true);
        continue;
      }
      const select = /^select_(one|multiple)$/.exec(head);
      let expected = EXPECTED[lower];
      if (select) expected = (wb.listSize.get(wb.listOf(r.type)) ?? 0) > 0 ? 'choice' : 'open';
      if (!expected) {
        // Any other type is converted by a mapping of its own or reported at its row.
        if (!byCode.has(r.name)) expect(notedAt(r.row), `${file} row ${r.row}: ${r.type} reported`).toBe(true);
        continue;
      }
      const item = r.name ? byCode.get(r.name) : undefined;
      if (!item || chain(item.id).length === 0) {
        expect(notedAt(r.row), `${file} row ${r.row}: "${r.name}" (${r.type}) is converted or reported`).toBe(true);
        continue;
      }
      if (expected === 'image' && /signature/.test(r.appearance) && lower === 'image') expected = 'signature';
      expect(item.type, `${file} row ${r.row}: ${r.type}`).toBe(expected);
      if (select && expected === 'choice') {
        const other = / or_other$/.test(lower) ? 1 : 0;
        expect(item.options.choices, `${file} row ${r.row}: choices of ${list}`).toHaveLength(wb.listSize.get(wb.listOf(r.type))! + other);
        expect(item.options.multiselect === true).toBe(select[1] === 'multiple');
      }
      // Choice filters: a cascade this test reads, on an earlier select_one whose list has the column, is converted
      // with the ties the workbook's choice rows give; any other filter is reported at its row.
      const filter = item.options.choiceFilter;
      if (r.choiceFilter) {
        const cascade = cascadeOf(r.choiceFilter);
        const filterRow = cascade && wb.rows.find((p) => p.name === cascade.question);
        const filterItem = cascade && byCode.get(cascade.question);
        const rows = wb.listRows.get(wb.listOf(r.type)) ?? [];
        const convertible =
          cascade !== undefined && expected === 'choice' && filterRow !== undefined && filterRow.row < r.row && filterRow.level === r.level && /^select_one\s/i.test(filterRow.type) && filterItem?.type === 'choice' && filterItem.options.multiselect !== true && rows.some((c) => c[cascade.column] !== undefined);
        if (!convertible) {
          expect(filter, `${file} row ${r.row}: choice filter "${r.choiceFilter}" not converted`).toBeUndefined();
          expect(notedAt(r.row, /choice_filter/), `${file} row ${r.row}: choice filter "${r.choiceFilter}" reported`).toBe(true);
        } else {
          cascades++;
          expect(filter?.itemId, `${file} row ${r.row}: choice filter "${r.choiceFilter}" converted`).toBe(filterItem!.id);
          const names = (ids: readonly number[]) => [...new Set(ids.map((c) => forms[r.level]!.entities.choices[c]!.codeName))].sort();
          const theirs = new Set(names(filterItem!.options.choices!));
          rows.forEach((cells, i) => {
            const value = cells[cascade.column] ?? '';
            const wanted = [...new Set((cascade.many ? value.split(/\s+/) : [value]).filter((v) => theirs.has(v)))].sort();
            expect(names(filter!.ties[item.options.choices![i]!] ?? []), `${file} row ${r.row}: choice ${i + 1} tied as its ${cascade.column} says`).toEqual(wanted);
          });
        }
      } else expect(filter, `${file} row ${r.row}: no choice filter`).toBeUndefined();
      // Groups: the question sits as deep as the workbook nests it (its category, and one per enclosing group).
      const named = chain(item.id).filter((b) => Object.keys(b.name).length > 0);
      expect(named.length, `${file} row ${r.row}: group depth`).toBe(Math.max(1, r.groups.length));
      // Conditions: a relevance (the row's, an enclosing group's or its repeat's) is a condition above the question,
      // or reported.
      const relevance = [r, ...r.conditions].filter((x) => x.relevant !== '');
      if (relevance.length > 0) {
        const conditioned = chain(item.id).some((b) => b.conditions.length > 0);
        expect(conditioned || relevance.some((x) => notedAt(x.row, /relevan/i)), `${file} row ${r.row}: relevance`).toBe(true);
      }
    }

    // Languages: every label language column is a language of the form, by its code, its English name or its own
    // (the platform's Intl names, not the converter's table).
    for (const f of forms) expect(f.entities.languages).toEqual(body.entities.languages);
    const langs = Object.values(body.entities.languages).filter((l) => !l.deleted);
    const names = (code: string) => {
      try {
        return [new Intl.DisplayNames(['en'], { type: 'language' }).of(code), new Intl.DisplayNames([code], { type: 'language' }).of(code)].map((n) => n?.toLowerCase());
      } catch {
        return [];
      }
    };
    expect(langs.length).toBeLessThanOrEqual(Math.max(1, wb.labelLanguages.size));
    for (const written of wb.labelLanguages) {
      const plain = written.replace(/\s*\(.*\)\s*$/, '').toLowerCase();
      const code = /\((\w+)\)/.exec(written)?.[1]?.toLowerCase();
      expect(
        langs.some((l) => l.name.toLowerCase().replace(/\s*\(.*\)\s*$/, '') === plain || l.iso_code_1 === plain || l.iso_code_1 === code || names(l.iso_code_1).includes(plain)),
        `${file}: language ${written}`,
      ).toBe(true);
    }

    // What the builder would refuse is never produced.
    for (const f of forms) {
      for (const item of Object.values(f.entities.items)) expect(itemValid(item, f.primary_language, f), `${file}: ${item.codeName} valid`).toBe(true);
      expect(formProblems(f).map((p) => `${p.entity.type} ${p.entity.id} ${p.field}: ${p.message}`), `${file}: form rules`).toEqual([]);
      expect(documentProblems(f)).toEqual({});
    }
    // A condition names a question of its own form (schema 0) or of its parent level's (a placeholder the import
    // replaces with that level's schema id).
    forms.forEach((f, level) => {
      for (const b of Object.values(f.entities.blocks)) {
        for (const e of b.conditions) {
          if (!('itemId' in e)) continue;
          const from = e.schemaId === 0 ? level : -e.schemaId - 1;
          expect([level, level - 1], `${file}: level ${level} condition on schema ${e.schemaId}`).toContain(from);
          expect(forms[from]!.entities.items[e.itemId], `${file}: level ${level} condition on item ${e.itemId}`).toBeDefined();
        }
      }
    });
    expect(converted.summary).toBe(`Imported ${converted.questions} question${converted.questions === 1 ? '' : 's'} with ${converted.notes.length === 0 ? 'no losses' : `${converted.notes.length} loss${converted.notes.length === 1 ? '' : 'es'}`}.`);

    // Work stays proportional to the rows: at most three items (question, hint, "specify other") and two categories
    // per survey row, and no more choices than the lists hold for the questions that use them.
    const choiceBudget = wb.rows.reduce((s, r) => s + (wb.listSize.get(wb.listOf(r.type)) ?? 0) + 3, 0);
    expect(items.length).toBeLessThanOrEqual(3 * wb.surveyRows);
    expect(forms.reduce((s, f) => s + Object.keys(f.entities.blocks).length, 0)).toBeLessThanOrEqual(2 * wb.surveyRows + 1);
    expect(forms.reduce((s, f) => s + Object.keys(f.entities.choices).length, 0)).toBeLessThanOrEqual(choiceBudget);
    console.log(`${file}: ${wb.surveyRows} rows, ${converted.questions} questions, ${cascades} cascades, ${converted.notes.length} losses, ${ms.toFixed(0)} ms`);
  });
});
