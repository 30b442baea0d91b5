// A CSV export written while it is read: pages of responses come in one at a time, each page becomes one block of
// text (csvRecord: the cells of the column plan, guarded and quoted as csv-stringify would, without its per-field
// machinery), and the object store takes the stream, with backpressure; nothing holds more than a page, so memory
// stays flat as rows grow. A UTF-8 byte order mark comes first so that spreadsheet tools read accents right. Every
// cell, headers included, passes the CSV injection guard of csv-cell.ts.
import { PassThrough } from 'node:stream';
import type { ObjectStore } from '@fieldwork/service-kit';
import type { Column, ExportResponse, Names } from '../domain/columns.js';
import { csvRecord } from './csv-cell.js';

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
  // The stream buffers up to 1 MB before it says wait.
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  const stored = store.put(key, out, { contentType: 'text/csv; charset=utf-8' });
  let rows = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  const cells = columns.map((c) => c.cell);
  const line: (string | number | null)[] = new Array<string | number | null>(cells.length);
  try {
    await write(`\ufeff${csvRecord(columns.map((c) => c.header))}`);
    for await (const page of options.pages) {
      if (options.cancelled?.()) throw new ExportCancelled();
      let text = '';
      for (const r of page) {
        for (let i = 0; i < cells.length; i++) line[i] = cells[i]!(r, names);
        text += csvRecord(line);
        // Small blocks: text that dies young costs the garbage collector little (a page-sized one got promoted).
        if (text.length > 1 << 16) {
          await write(text);
          text = '';
        }
      }
      await write(text);
      rows += page.length;
      await options.progress?.(rows);
    }
    out.end();
  } catch (err) {
    // The store's side sees the error and drops what it had (it may not listen yet: the error is not left unhandled).
    out.on('error', () => undefined);
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
