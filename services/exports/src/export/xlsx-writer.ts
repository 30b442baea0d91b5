// An XLSX export written while it is read, with exceljs's streaming workbook writer: each row is committed as it
// comes (not kept in memory) and the zip streams into the object store. Same columns and cells as the CSV.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ObjectStore } from '@fieldwork/service-kit';
import type { Column, ExportResponse, Names } from '../domain/columns.js';
import { ExportCancelled, type CsvExport } from './csv-writer.js';

/** Excel's limit of rows per sheet (the header included). */
export const XLSX_MAX_ROWS = 1_048_576;

export async function writeXlsx(options: {
  store: ObjectStore;
  key: string;
  columns: Column[];
  names: Names;
  pages: AsyncIterable<ExportResponse[]>;
  progress?: (rows: number) => void | Promise<void>;
  cancelled?: () => boolean;
}): Promise<CsvExport> {
  const { store, key, columns, names } = options;
  const out = new PassThrough();
  const stored = store.put(key, out, { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  // No shared strings: each text cell is written inline, so nothing grows with the rows.
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = book.addWorksheet('Responses');
  let rows = 0;
  try {
    sheet.addRow(columns.map((c) => c.header)).commit();
    for await (const page of options.pages) {
      if (options.cancelled?.()) throw new ExportCancelled();
      if (rows + page.length + 1 > XLSX_MAX_ROWS) throw new Error(`An Excel sheet holds at most ${XLSX_MAX_ROWS - 1} rows; export this project as CSV.`);
      for (const r of page) sheet.addRow(columns.map((c) => c.cell(r, names) ?? '')).commit();
      rows += page.length;
      await options.progress?.(rows);
      // Let the zip stream drain before the next page.
      if (out.writableNeedDrain) await new Promise<void>((res) => out.once('drain', () => res()));
    }
    sheet.commit();
    await book.commit();
  } catch (err) {
    out.destroy(err as Error);
    await stored.catch(() => undefined);
    throw err;
  }
  const { size } = await stored;
  return { key, rows, size };
}
