// A CSV export written while it is read: pages of responses come in one at a time, csv-stringify turns rows into
// text, and the object store takes the stream; nothing holds the whole file, so memory stays flat as rows grow.
// A UTF-8 byte order mark comes first so that spreadsheet tools read accents right. Every cell, headers included,
// passes the CSV injection guard of csv-cell.ts.
import { PassThrough } from 'node:stream';
import type { ObjectStore } from '@fieldwork/service-kit';
import type { Column, ExportResponse, Names } from '../domain/columns.js';
import { csvStringifier } from './csv-cell.js';

/** What an export writer takes: where to write, the columns, and the pages of responses. */
export interface WriterOptions {
  store: ObjectStore;
  key: string;
  columns: Column[];
  names: Names;
  pages: AsyncIterable<ExportResponse[]>;
  progress?: (rows: number) => void | Promise<void>;
  cancelled?: () => boolean;
}

export interface CsvExport {
  key: string;
  rows: number;
  size: number;
}

/**
 * Writes the header and one row per response of `pages` to `key`; `progress(rows)` after each page. Throws (and
 * writes nothing usable) when `cancelled()` turns true or a page fails; the caller removes the partial object.
 */
export async function writeCsv(options: WriterOptions): Promise<CsvExport> {
  const { store, key, columns, names } = options;
  const csv = csvStringifier({ bom: true });
  const out = new PassThrough();
  csv.pipe(out);
  const stored = store.put(key, out, { contentType: 'text/csv; charset=utf-8' });
  let rows = 0;
  const drained = () => new Promise<void>((r) => csv.once('drain', () => r()));
  try {
    if (!csv.write(columns.map((c) => c.header))) await drained();
    for await (const page of options.pages) {
      if (options.cancelled?.()) throw new ExportCancelled();
      // Wait only when the stream asks for it (an await per row costs more than the row).
      for (const r of page) if (!csv.write(columns.map((c) => c.cell(r, names) ?? ''))) await drained();
      rows += page.length;
      await options.progress?.(rows);
    }
    csv.end();
  } catch (err) {
    // The store's side sees the error and drops what it had; the stringifier just stops.
    csv.unpipe(out);
    csv.destroy();
    out.destroy(err as Error);
    await stored.catch(() => undefined);
    throw err;
  }
  const { size } = await stored;
  return { key, rows, size };
}

export class ExportCancelled extends Error {
  constructor() {
    super('the export was cancelled');
    this.name = 'ExportCancelled';
  }
}
