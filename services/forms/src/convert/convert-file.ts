// Reads a form file into a sampler schema: a CSV question list, an XLSX question list, or an XLSForm. The heavy part
// of a conversion, run in a conversion worker (conversion.worker.ts), never on the service's event loop; the file is
// checked against the form limits (form-limits.ts) before exceljs loads it.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { problems } from '@fieldwork/service-kit/problems';
import { fromQuestionList, fromXlsForm, type Converted, type Row } from '../domain/convert.js';
import { checkFormSize, checkRecords, checkWorkbook, FORM_LIMITS, type FormLimits } from './form-limits.js';

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text);
  if (typeof v === 'object' && 'result' in v) return String((v as { result: unknown }).result);
  return String(v);
}

function sheetRows(ws: ExcelJS.Worksheet | undefined): Row[] {
  if (!ws) return [];
  const header: string[] = [];
  const out: Row[] = [];
  ws.eachRow({ includeEmpty: false }, (row, n) => {
    const values = (row.values as unknown[]).slice(1).map(cellText);
    if (n === 1) header.push(...values.map((h) => h.trim().toLowerCase()));
    else out.push(Object.fromEntries(header.map((h, i) => [h, values[i] ?? ''])));
  });
  return out;
}

export interface ConvertedFile {
  format: string;
  converted: Converted;
}

/**
 * Reads a CSV question list, an XLSX question list, or an XLSForm (an XLSX with a "survey" sheet), within the form
 * limits; the form made is refused when it is too large to be loaded again.
 */
export async function convertFile(filename: string, content: Buffer, projectType: string, limits: FormLimits = FORM_LIMITS): Promise<ConvertedFile> {
  const made = await read(filename, content, projectType, limits);
  checkFormSize(made.converted.body, limits);
  return made;
}

async function read(filename: string, content: Buffer, projectType: string, limits: FormLimits): Promise<ConvertedFile> {
  if (/\.csv$/i.test(filename)) {
    let rows: Row[];
    try {
      rows = parse(content, { columns: (h: string[]) => h.map((x) => x.trim().toLowerCase()), bom: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as Row[];
    } catch (err) {
      throw problems.invalid(`The file is not a readable CSV: ${(err as Error).message.split('\n')[0]}`);
    }
    checkRecords(rows, limits);
    return { format: 'question list (CSV)', converted: fromQuestionList(rows, projectType) };
  }
  if (!/\.xlsx$/i.test(filename)) throw problems.invalid('Upload a CSV question list, an XLSX question list or an XLSForm (.xlsx).');
  // Zip bomb, sheets, rows, columns and cell text, read as a stream before exceljs holds the workbook in memory.
  await checkWorkbook(content, limits);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw problems.invalid('The file is not a readable XLSX workbook.');
  }
  const survey = workbook.getWorksheet('survey');
  if (survey) {
    return {
      format: 'XLSForm',
      converted: fromXlsForm(sheetRows(survey), sheetRows(workbook.getWorksheet('choices')), sheetRows(workbook.getWorksheet('settings')), projectType),
    };
  }
  return { format: 'question list (XLSX)', converted: fromQuestionList(sheetRows(workbook.worksheets[0]), projectType) };
}
