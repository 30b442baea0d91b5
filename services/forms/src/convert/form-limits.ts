// What a form file may hold, checked before the file is converted: an XLSX workbook is read once as a stream (its
// parts inflated within the zip-bomb limits, its sheets counted with a SAX parser, nothing kept) before exceljs loads
// it into memory, and a CSV's rows are counted before they are converted. Each refusal is a 400 naming the sheet and
// the limit. The numbers are far above any real form (pyxform's largest test forms have a few thousand rows and a
// few dozen columns) and far below what holds a conversion for minutes.
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { FORM_MAX_BYTES } from '@fieldwork/sampler';
import { megabytes, problems } from '@fieldwork/service-kit/problems';
import { checkZip, UnsafeZip, type PartReader, type ZipLimits } from '@fieldwork/service-kit/zip-guard';

export interface FormLimits {
  /** Most sheets in a workbook. */
  sheets: number;
  /** Most rows with content in one sheet (or records in a CSV). */
  rows: number;
  /** Most columns: the highest column of a cell with content. */
  columns: number;
  /** Most characters in one cell. */
  cellChars: number;
  /** The zip-bomb guard: parts, inflated bytes and expansion of the workbook. */
  zip: ZipLimits;
  /** Most bytes of the converted form as JSON: what any form may be (FORM_MAX_BYTES), so it can be loaded again. */
  formBytes: number;
}

export const FORM_LIMITS: FormLimits = {
  sheets: 20,
  rows: 50_000,
  columns: 500,
  // Excel's own maximum for a cell.
  cellChars: 32_767,
  zip: { maxEntries: 1000, maxEntryBytes: 50 * 1024 ** 2, maxTotalBytes: 50 * 1024 ** 2, maxRatio: 100 },
  formBytes: FORM_MAX_BYTES,
};

const n = (x: number) => x.toLocaleString('en');

export const LIMIT_MESSAGES = {
  sheets: (count: number, max: number) =>
    `The workbook has ${n(count)} sheets; a form file may have at most ${n(max)}.`,
  rows: (sheet: string, max: number) =>
    `The sheet "${sheet}" has more than ${n(max)} rows; a form file may have at most ${n(max)} rows in a sheet.`,
  columns: (sheet: string, column: number, max: number) =>
    `The sheet "${sheet}" has a cell in column ${n(column)}; a form file may use at most ${n(max)} columns.`,
  cell: (where: string, chars: number, max: number) =>
    `${where} holds ${n(chars)} characters; a cell may hold at most ${n(max)}.`,
  form: (bytes: number, max: number) =>
    `The form made from this file would be ${megabytes(bytes)}; a form may be at most ${megabytes(max)}. Split the file or remove rows or translations, then try again.`,
};

/** "AB12" -> 28; undefined when the reference is missing or not a cell reference. */
export function columnOf(ref: string | undefined): number | undefined {
  const m = /^([A-Z]{1,4})\d*$/i.exec(ref ?? '');
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return col;
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** A SAX parser over a part's bytes (UTF-8 split across chunks is decoded whole); malformed XML is unreadable. */
function xmlReader(setup: (parser: SaxesParser) => void): PartReader {
  const parser = new SaxesParser({ xmlns: false });
  const decoder = new StringDecoder('utf8');
  parser.on('error', () => {
    throw problems.invalid('The file is not a readable XLSX workbook.');
  });
  setup(parser);
  return {
    write: (chunk) => void parser.write(decoder.write(chunk)),
    end: () => void parser.write(decoder.end()).close(),
  };
}

interface SheetCount {
  rows: number;
  maxColumn: number;
  longestCell?: { ref: string; chars: number };
}

/** Counts the rows and columns with content of a worksheet part, and its longest inline or literal cell. */
function sheetReader(count: SheetCount): PartReader {
  return xmlReader((parser) => {
    let rowHasContent = false;
    let cell: { ref: string; column: number; chars: number; content: boolean } | undefined;
    let inValue = false;
    let lastColumn = 0;
    parser.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'row') {
        rowHasContent = false;
        lastColumn = 0;
      } else if (name === 'c') {
        const ref = typeof tag.attributes.r === 'string' ? tag.attributes.r : '';
        const column = columnOf(ref) ?? lastColumn + 1;
        lastColumn = column;
        cell = { ref, column, chars: 0, content: false };
      } else if (cell && (name === 'v' || name === 't')) inValue = true;
    });
    parser.on('text', (text) => {
      if (!cell || !inValue) return;
      cell.chars += text.length;
      if (text !== '') cell.content = true;
    });
    parser.on('closetag', (tag) => {
      const name = local(tag.name);
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'c' && cell) {
        if (cell.content) {
          rowHasContent = true;
          count.maxColumn = Math.max(count.maxColumn, cell.column);
          if (cell.chars > (count.longestCell?.chars ?? 0)) count.longestCell = { ref: cell.ref, chars: cell.chars };
        }
        cell = undefined;
      } else if (name === 'row' && rowHasContent) count.rows++;
    });
  });
}

/** The longest shared string (the text of most cells of a workbook lives in xl/sharedStrings.xml). */
function sharedStringsReader(longest: { chars: number }): PartReader {
  return xmlReader((parser) => {
    let chars = 0;
    let inText = false;
    parser.on('opentag', (tag) => {
      const name = local(tag.name);
      if (name === 'si') chars = 0;
      else if (name === 't') inText = true;
    });
    parser.on('text', (text) => {
      if (inText) chars += text.length;
    });
    parser.on('closetag', (tag) => {
      const name = local(tag.name);
      if (name === 't') inText = false;
      else if (name === 'si') longest.chars = Math.max(longest.chars, chars);
    });
  });
}

/** The sheets' names by their part (xl/workbook.xml names them, xl/_rels/workbook.xml.rels says which part). */
function sheetNamesReader(
  into: { byRel: Map<string, string>; targetByRel: Map<string, string> },
  part: 'workbook' | 'rels',
): PartReader {
  return xmlReader((parser) => {
    parser.on('opentag', (tag) => {
      const name = local(tag.name);
      const a = tag.attributes as Record<string, string>;
      const id = a['r:id'] ?? Object.entries(a).find(([k]) => local(k) === 'id' && k !== 'sheetId')?.[1];
      if (part === 'workbook' && name === 'sheet' && id) into.byRel.set(id, a.name ?? '');
      if (part === 'rels' && name === 'Relationship' && a.Id && a.Target) {
        into.targetByRel.set(a.Id, `xl/${a.Target.replace(/^\/?xl\//, '').replace(/^\//, '')}`);
      }
    });
  });
}

/**
 * Refuses (400, naming the sheet and the limit) a workbook over the limits, reading it once as a stream: a zip bomb,
 * too many sheets, a sheet with too many rows or columns with content, a cell with too many characters.
 */
export async function checkWorkbook(content: Buffer, limits: FormLimits = FORM_LIMITS): Promise<void> {
  const sheets = new Map<string, SheetCount>();
  const shared = { chars: 0 };
  const names = { byRel: new Map<string, string>(), targetByRel: new Map<string, string>() };
  try {
    await checkZip(content, limits.zip, (part) => {
      if (/^xl\/worksheets\/[^/]+\.xml$/i.test(part)) {
        const count: SheetCount = { rows: 0, maxColumn: 0 };
        sheets.set(part, count);
        if (sheets.size > limits.sheets) throw problems.invalid(LIMIT_MESSAGES.sheets(sheets.size, limits.sheets));
        return sheetReader(count);
      }
      if (/^xl\/sharedStrings\.xml$/i.test(part)) return sharedStringsReader(shared);
      if (/^xl\/workbook\.xml$/i.test(part)) return sheetNamesReader(names, 'workbook');
      if (/^xl\/_rels\/workbook\.xml\.rels$/i.test(part)) return sheetNamesReader(names, 'rels');
      return undefined;
    });
  } catch (err) {
    if (err instanceof UnsafeZip) throw problems.invalid(err.message);
    throw err;
  }
  const nameOf = (part: string) => {
    for (const [rel, target] of names.targetByRel)
      if (target.toLowerCase() === part.toLowerCase() && names.byRel.has(rel)) return names.byRel.get(rel)!;
    return part.replace(/^.*\//, '').replace(/\.xml$/i, '');
  };
  for (const [part, count] of sheets) {
    if (count.rows > limits.rows) throw problems.invalid(LIMIT_MESSAGES.rows(nameOf(part), limits.rows));
    if (count.maxColumn > limits.columns)
      throw problems.invalid(LIMIT_MESSAGES.columns(nameOf(part), count.maxColumn, limits.columns));
    if (count.longestCell && count.longestCell.chars > limits.cellChars) {
      throw problems.invalid(
        LIMIT_MESSAGES.cell(
          `Cell ${count.longestCell.ref} of the sheet "${nameOf(part)}"`,
          count.longestCell.chars,
          limits.cellChars,
        ),
      );
    }
  }
  if (shared.chars > limits.cellChars)
    throw problems.invalid(LIMIT_MESSAGES.cell('A cell of the workbook', shared.chars, limits.cellChars));
}

/** Refuses a converted form too large to be loaded again (FormLimits.formBytes). */
export function checkFormSize(body: unknown, limits: FormLimits = FORM_LIMITS): void {
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > limits.formBytes) throw problems.invalid(LIMIT_MESSAGES.form(bytes, limits.formBytes));
}

/** The same limits for the records of a CSV question list (already parsed: a CSV is small and parsed linearly). */
export function checkRecords(records: Record<string, string>[], limits: FormLimits = FORM_LIMITS): void {
  if (records.length > limits.rows) throw problems.invalid(LIMIT_MESSAGES.rows('questions', limits.rows));
  records.forEach((record, i) => {
    const values = Object.values(record);
    if (values.length > limits.columns)
      throw problems.invalid(LIMIT_MESSAGES.columns('questions', values.length, limits.columns));
    for (const v of values) {
      if (v.length > limits.cellChars)
        throw problems.invalid(LIMIT_MESSAGES.cell(`A cell of line ${i + 2}`, v.length, limits.cellChars));
    }
  });
}
