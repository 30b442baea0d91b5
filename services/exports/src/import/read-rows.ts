// Rows of an uploaded CSV or XLSX file, streamed from the object store: the header row, then the data rows one by
// one, never the whole file in memory. CSV through csv-parse (a BOM, quoted newlines and ragged rows are fine), each
// cell read back through the CSV injection guard's inverse (csv-cell.ts unguardCell) so our exports import losslessly;
// XLSX through exceljs's streaming reader (first sheet only; formulas give their cached result). `bytesRead` tells
// how far into the stored object the reader is, for progress. A workbook is first copied to a temporary file and
// checked against zip bombs (service-kit's checkZip) before exceljs opens it.
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkZip, XLSX_LIMITS, type ZipLimits } from '@fieldwork/service-kit';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import type { Cell } from '../domain/import-mapping.js';
import { unguardCell } from '../export/csv-cell.js';

export interface RowSource {
  rows: AsyncIterable<Cell[]>;
  bytesRead: () => number;
}

/** Counts the bytes that flow through. */
function counter(): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      t.bytes += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

export function readRows(input: Readable, filename: string, limits: ZipLimits = XLSX_LIMITS): RowSource {
  const count = counter();
  if (/\.xlsx$/i.test(filename)) return { rows: guardedXlsxRows(input, count, limits), bytesRead: () => count.bytes };
  input.on('error', (err) => count.destroy(err));
  input.pipe(count);
  return { rows: csvRows(count), bytesRead: () => count.bytes };
}

/**
 * The workbook copied to a temporary file and checked; then read from there. The file is unlinked as soon as it is
 * open, so nothing is left behind however the reading ends.
 */
async function* guardedXlsxRows(
  input: Readable,
  count: Transform & { bytes: number },
  limits: ZipLimits,
): AsyncGenerator<Cell[]> {
  const dir = await mkdtemp(join(tmpdir(), 'fieldwork-xlsx-'));
  let handle: FileHandle;
  try {
    const file = join(dir, 'workbook.xlsx');
    await pipeline(input, createWriteStream(file));
    await checkZip(file, limits);
    handle = await open(file, 'r');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const stored = handle.createReadStream();
  stored.on('error', (err) => count.destroy(err));
  stored.pipe(count);
  yield* xlsxRows(count);
}

async function* csvRows(input: Readable): AsyncGenerator<Cell[]> {
  const parser = input.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: 1_000_000,
    }),
  );
  for await (const record of parser) yield (record as string[]).map(unguardCell);
}

/** A cell value of exceljs as a plain value. */
function plain(v: ExcelJS.CellValue): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((p) => p.text).join('');
    if ('result' in v) return plain(v.result as ExcelJS.CellValue);
    if ('text' in v) return String((v as { text: unknown }).text);
    if ('error' in v) return null;
  }
  return String(v as unknown);
}

async function* xlsxRows(input: Readable): AsyncGenerator<Cell[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const sheet of reader) {
    let expected = 1;
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      // Empty rows are skipped by the reader; keep numbering by the sheet's own row numbers.
      for (; expected < row.number; expected++) yield [];
      expected = row.number + 1;
      const values = row.values as ExcelJS.CellValue[];
      const cells: Cell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(plain(values[i]));
      yield cells;
    }
    return; // first sheet only
  }
}
