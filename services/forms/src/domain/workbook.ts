// Reading an uploaded form: what kind of file it is (refusing legacy .xls, CSV or plain zips named .xlsx), the sheets
// of an XLSX as text cells with the row numbers the spreadsheet shows, and which converter applies. An upload that is
// not a form is refused with a message naming what was expected; nothing is converted from it.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { ConversionRefused, fromQuestionList, QUESTION_LIST_COLUMNS, type Converted, type Sheet } from './convert.js';
import { fromXlsForm } from './xlsform.js';
import { parseHeader } from './xlsform-columns.js';

export const REFUSALS = {
  kind: 'Upload a CSV question list, an XLSX question list or an XLSForm (.xlsx).',
  legacyXls:
    'This is a legacy Excel file (.xls): open it in a spreadsheet program, save it as an Excel Workbook (.xlsx) and upload that.',
  notXlsx:
    'The file is not an XLSX workbook: an .xlsx file is a zip archive of worksheets (an XLSForm has the sheets survey, choices and settings).',
  unreadable: 'The file is not a readable XLSX workbook: an XLSForm has the sheets survey, choices and settings.',
  noWorksheets:
    'The workbook has no worksheets: an XLSForm needs a sheet named survey (with the columns type, name and label).',
  noForm: (first: string) =>
    `The workbook has no sheet named survey (an XLSForm, with the columns type, name and label), and its first sheet "${first}" is not a question list (the columns ${QUESTION_LIST_COLUMNS.join(', ')}).`,
  noType: (sheet: string) =>
    `The sheet "${sheet}" has no column named type: an XLSForm's survey sheet needs the columns type, name and label in its first row.`,
  noQuestionColumns: (sheet: string) =>
    `The question list "${sheet}" needs the columns question and type in its first row (and may have ${QUESTION_LIST_COLUMNS.join(', ')}).`,
  noQuestions: (sheet: string, what: string) =>
    `The ${what} yields no questions: the sheet "${sheet}" needs rows with a type such as text, integer or select_one and a label. The form was not changed.`,
  csv: (reason: string) => `The file is not a readable CSV: ${reason}`,
} as const;

export type UploadKind = 'csv' | 'xlsx';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (content: Buffer, magic: number[]) =>
  content.length >= magic.length && magic.every((b, i) => content[i] === b);

/** The kind of an upload from its name and first bytes; refuses what no converter reads. */
export function uploadKind(filename: string, content: Buffer): UploadKind {
  if (startsWith(content, OLE2) || /\.xls$/i.test(filename)) throw new ConversionRefused(REFUSALS.legacyXls);
  if (/\.csv$/i.test(filename)) return 'csv';
  if (!/\.xlsx$/i.test(filename)) throw new ConversionRefused(REFUSALS.kind);
  if (!startsWith(content, ZIP)) throw new ConversionRefused(REFUSALS.notXlsx);
  return 'xlsx';
}

/** The text a cell shows: rich text joined, hyperlinks by their text, formulas by their result, dates as ISO dates. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().replace(/T00:00:00\.000Z$/, '');
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText))
      return v.richText.map((r) => (typeof r.text === 'string' ? r.text : '')).join('');
    if ('formula' in v || 'sharedFormula' in v) return 'result' in v ? cellText(v.result as ExcelJS.CellValue) : '';
    if ('text' in v) return cellText(v.text as ExcelJS.CellValue);
    if ('error' in v) return '';
  }
  return '';
}

/** A worksheet as text rows; empty rows are left out, but every row keeps the number the spreadsheet shows. */
export function sheetOf(ws: ExcelJS.Worksheet): Sheet {
  const rows: Sheet['rows'] = [];
  ws.eachRow({ includeEmpty: false }, (row, n) => {
    const values: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => (values[col - 1] = cellText(cell.value)));
    for (let i = 0; i < values.length; i++) values[i] ??= '';
    if (values.some((v) => v.trim() !== '')) rows.push({ row: n, values });
  });
  return { name: ws.name, rows };
}

function csvSheet(content: Buffer): Sheet {
  let records: string[][];
  try {
    records = parse(content, {
      bom: true,
      skip_empty_lines: false,
      relax_column_count: true,
      relax_quotes: true,
    }) as string[][];
  } catch (err) {
    throw new ConversionRefused(REFUSALS.csv((err as Error).message.split('\n')[0] ?? ''));
  }
  return {
    name: 'questions',
    rows: records.map((values, i) => ({ row: i + 1, values })).filter((r) => r.values.some((v) => v.trim() !== '')),
  };
}

const headerKeys = (sheet: Sheet) => (sheet.rows[0]?.values ?? []).map((h) => parseHeader(h, 0).key);

/** Converts an upload of a known kind; refuses one that is not a form or yields no questions. */
export async function convertUpload(
  kind: UploadKind,
  content: Buffer,
  projectType: string,
  /** Checks a CSV's records against the form limits before they are converted. */
  checkCsv: (sheet: Sheet) => void = () => undefined,
): Promise<{ format: string; converted: Converted }> {
  if (kind === 'csv') {
    const sheet = csvSheet(content);
    checkCsv(sheet);
    const keys = headerKeys(sheet);
    if (!keys.includes('type') || !(keys.includes('question') || keys.includes('label')))
      throw new ConversionRefused(REFUSALS.noQuestionColumns('questions'));
    return refuseEmpty(
      { format: 'question list (CSV)', converted: fromQuestionList(sheet, projectType) },
      sheet.name,
      'question list',
    );
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw new ConversionRefused(REFUSALS.unreadable);
  }
  if (workbook.worksheets.length === 0) throw new ConversionRefused(REFUSALS.noWorksheets);
  const byName = (name: string) => workbook.worksheets.find((ws) => ws.name.trim().toLowerCase() === name);
  const survey = byName('survey');
  if (survey) {
    const sheet = sheetOf(survey);
    if (!headerKeys(sheet).includes('type')) throw new ConversionRefused(REFUSALS.noType(survey.name));
    const choices = byName('choices');
    const external = byName('external_choices');
    const settings = byName('settings');
    const others = workbook.worksheets
      .filter((ws) => ![survey, choices, external, settings].includes(ws))
      .map((ws) => ws.name);
    const converted = fromXlsForm(
      {
        survey: sheet,
        ...(choices ? { choices: sheetOf(choices) } : {}),
        ...(external ? { externalChoices: sheetOf(external) } : {}),
        ...(settings ? { settings: sheetOf(settings) } : {}),
        others,
      },
      projectType,
    );
    return refuseEmpty({ format: 'XLSForm', converted }, survey.name, 'XLSForm');
  }
  const first = workbook.worksheets[0]!;
  const sheet = sheetOf(first);
  const keys = headerKeys(sheet);
  if (!keys.includes('type') || !(keys.includes('question') || keys.includes('label')))
    throw new ConversionRefused(REFUSALS.noForm(first.name));
  return refuseEmpty(
    { format: 'question list (XLSX)', converted: fromQuestionList(sheet, projectType) },
    first.name,
    'question list',
  );
}

function refuseEmpty(result: { format: string; converted: Converted }, sheet: string, what: string) {
  if (result.converted.questions === 0) throw new ConversionRefused(REFUSALS.noQuestions(sheet, what));
  return result;
}
