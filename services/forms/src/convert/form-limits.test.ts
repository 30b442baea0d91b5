import ExcelJS from 'exceljs';
import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { checkRecords, checkWorkbook, columnOf, FORM_LIMITS, type FormLimits } from './form-limits.js';
import { convertFile } from './convert-file.js';

async function workbook(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) wb.addWorksheet(name).addRows(rows);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const survey = (n: number) => [
  ['type', 'name', 'label'],
  ...Array.from({ length: n }, (_, i) => ['text', `q${i}`, `Question ${i}`]),
];
const limits = (o: Partial<FormLimits>): FormLimits => ({ ...FORM_LIMITS, ...o });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { code: string; message: string }) => `${e.code} ${e.message}`,
  );

describe('form limits', () => {
  it('passes a workbook within the limits, the rows counted as the sheet holds them', async () => {
    const wb = await workbook({ survey: survey(10), choices: [['list_name', 'name', 'label']] });
    await expect(checkWorkbook(wb, limits({ rows: 11, columns: 3 }))).resolves.toBeUndefined();
  });

  it('refuses a sheet with more rows than the limit, by its name', async () => {
    const wb = await workbook({ settings: [['form_title'], ['x']], survey: survey(10) });
    expect(await refusal(checkWorkbook(wb, limits({ rows: 10 })))).toBe(
      '400.2 The sheet "survey" has more than 10 rows; a form file may have at most 10 rows in a sheet.',
    );
  });

  it('counts only rows with content (formatted empty rows are not rows)', async () => {
    const wb = new ExcelJS.Workbook();
    const s = wb.addWorksheet('survey');
    s.addRows(survey(3));
    for (let r = 10; r < 200; r++) s.getRow(r).getCell(1).style = { font: { bold: true } };
    await expect(checkWorkbook(Buffer.from(await wb.xlsx.writeBuffer()), limits({ rows: 4 }))).resolves.toBeUndefined();
  });

  it('refuses a cell past the column limit, and more sheets than allowed', async () => {
    const wide = new ExcelJS.Workbook();
    const s = wide.addWorksheet('choices');
    s.addRows(survey(2));
    s.getRow(3).getCell(27).value = 'AA';
    expect(await refusal(checkWorkbook(Buffer.from(await wide.xlsx.writeBuffer()), limits({ columns: 26 })))).toBe(
      '400.2 The sheet "choices" has a cell in column 27; a form file may use at most 26 columns.',
    );
    const many = await workbook(Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`s${i}`, [['a']]])));
    expect(await refusal(checkWorkbook(many, limits({ sheets: 3 })))).toBe(
      '400.2 The workbook has 4 sheets; a form file may have at most 3.',
    );
  });

  it('refuses a long cell, shared or inline', async () => {
    const shared = await workbook({
      survey: [
        ['type', 'name', 'label'],
        ['note', 'n', 'y'.repeat(101)],
      ],
    });
    expect(await refusal(checkWorkbook(shared, limits({ cellChars: 100 })))).toBe(
      '400.2 A cell of the workbook holds 101 characters; a cell may hold at most 100.',
    );
    // An inline string (as other writers than Excel make them), in a hand-made workbook.
    const sheet = `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="B1" t="inlineStr"><is><t>${'z'.repeat(101)}</t></is></c></row></sheetData></worksheet>`;
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(sheet), 'xl/worksheets/sheet1.xml');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    expect(await refusal(checkWorkbook(Buffer.concat(chunks), limits({ cellChars: 100 })))).toBe(
      '400.2 Cell B1 of the sheet "sheet1" holds 101 characters; a cell may hold at most 100.',
    );
  });

  it('refuses a zip bomb and a file that is not a zip, as 400', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.alloc(20 * 1024 ** 2, ' '), 'xl/worksheets/sheet1.xml');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    expect(await refusal(checkWorkbook(Buffer.concat(chunks)))).toMatch(
      /^400\.2 The workbook was refused: xl\/worksheets\/sheet1\.xml expands \d+ times \(at most 100\)/,
    );
    expect(await refusal(checkWorkbook(Buffer.from('name,type\nq,text\n')))).toBe(
      '400.2 The file is not a readable XLSX workbook.',
    );
  });

  it('refuses malformed sheet XML as an unreadable workbook', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('<worksheet><sheetData><row><c><v>1</c></row>'), 'xl/worksheets/sheet1.xml');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    expect(await refusal(checkWorkbook(Buffer.concat(chunks)))).toBe('400.2 The file is not a readable XLSX workbook.');
  });

  it('holds CSV question lists to the same limits', async () => {
    expect(() => checkRecords([{ a: '1' }, { a: '2' }], limits({ rows: 1 }))).toThrow(
      'The sheet "questions" has more than 1 rows',
    );
    expect(() => checkRecords([{ a: 'x'.repeat(11) }], limits({ cellChars: 10 }))).toThrow(
      'A cell of line 2 holds 11 characters; a cell may hold at most 10.',
    );
    const csv = `category,question,type\n${Array.from({ length: 5 }, (_, i) => `A,Q${i},text`).join('\n')}\n`;
    expect(await refusal(convertFile('q.csv', Buffer.from(csv), 'S', limits({ rows: 4 })))).toBe(
      '400.2 The sheet "questions" has more than 4 rows; a form file may have at most 4 rows in a sheet.',
    );
  });

  it('checks a workbook before exceljs reads it, and converts one within the limits', async () => {
    const wb = await workbook({ survey: survey(3) });
    expect(await refusal(convertFile('f.xlsx', wb, 'S', limits({ rows: 2 })))).toMatch(
      /^400\.2 The sheet "survey" has more than 2 rows/,
    );
    await expect(convertFile('f.xlsx', wb, 'S')).resolves.toMatchObject({
      format: 'XLSForm',
      converted: { questions: 3 },
    });
  });

  it('refuses a form too large to be loaded again, after converting it', async () => {
    const wb = await workbook({ survey: survey(50) });
    expect(await refusal(convertFile('f.xlsx', wb, 'S', limits({ formBytes: 10_000 })))).toMatch(
      /^400\.2 The form made from this file would be [\d.]+ MB; a form may be at most [\d.]+ MB\. Split the file/,
    );
  });

  it('reads column letters', () => {
    expect([columnOf('A1'), columnOf('Z9'), columnOf('AA10'), columnOf('XFD1'), columnOf(''), columnOf('1A')]).toEqual([
      1,
      26,
      27,
      16384,
      undefined,
      undefined,
    ]);
  });
});
