import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { FsObjectStore } from '@fieldwork/service-kit';
import { exportColumns, type ExportResponse, type Names } from '../domain/columns.js';
import { writeXlsx } from './xlsx-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new FsObjectStore({ root: dir, publicBaseUrl: 'http://localhost', signingSecret: 'x'.repeat(32) });
const names: Names = { site: (id) => `Site ${id}`, group: String, team: String, user: (id) => `User ${id}` };

const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
const area = addItem(b.body, b.id, 'number', 'en', 'Area');
const crop = addItem(area.body, b.id, 'choice', 'en', 'Crop');
const maize = addChoice(crop.body, crop.id, 'en', 'Maïs');
const note = addItem(maize.body, b.id, 'open', 'en', 'Note');
const body = note.body;

// Text that needs escaping, or holds characters XML cannot (dropped), or characters outside the BMP (kept).
const NOTES: Record<number, string> = {
  3: '@evil',
  7: 'a < b && c > d',
  8: 'bell\u0007 nul\u0000 ok',
  9: 'maïs 🌽 \uFFFE',
};

async function* pages(n: number, size: number): AsyncGenerator<ExportResponse[]> {
  for (let start = 0; start < n; start += size) {
    yield Array.from({ length: Math.min(size, n - start) }, (_, k) => {
      const i = start + k;
      return {
        response_id: `r${i}`,
        parent_id: null,
        user_id: 1,
        site_id: 1,
        group_id: null,
        team_id: null,
        device_id: 'web',
        completed: true,
        time_created: new Date(Date.UTC(2026, 0, 1)),
        time_updated: new Date(Date.UTC(2026, 0, 1)),
        time_completed: null,
        time_uploaded: null,
        geotag: null,
        data: { '0': { [area.id]: i / 2, [crop.id]: [maize.id], [note.id]: NOTES[i] ?? `n${i}` } },
      };
    });
  }
}

describe('XLSX export writer', () => {
  it('streams rows into a workbook whose cells match the columns', async () => {
    const columns = exportColumns(body, 'named', 'en');
    const out = await writeXlsx({ store, key: 'exports/x.xlsx', columns, names, pages: pages(3000, 700) });
    expect(out.rows).toBe(3000);
    const book = new ExcelJS.Workbook();
    await book.xlsx.read(await store.get('exports/x.xlsx'));
    const sheet = book.getWorksheet('Responses')!;
    expect(sheet.rowCount).toBe(3001);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(columns.map((c) => c.header));
    const row = (n: number) => (sheet.getRow(n + 2).values as unknown[]).slice(1);
    expect(row(5).slice(14)).toEqual([2.5, 'Maïs', 'n5']);
    // Formula-like text is a typed string in a workbook (never a formula), so it is written as it is.
    expect(row(3)[16]).toBe('@evil');
    expect(sheet.getRow(5).getCell(17).type).toBe(ExcelJS.ValueType.String);
    expect(row(2999)[0]).toBe('r2999');
    expect([row(7)[16], row(8)[16], row(9)[16]]).toEqual(['a < b && c > d', 'bell nul ok', 'maïs 🌽 ']);
  });

  it('fails alone when a page fails before the store reads: no error escapes to end the process', async () => {
    const escaped: unknown[] = [];
    const onError = (err: unknown) => escaped.push(err);
    process.on('uncaughtException', onError);
    try {
      async function* failing(): AsyncGenerator<ExportResponse[]> {
        yield* pages(1, 1);
        throw new Error('a media key the store refuses');
      }
      const columns = exportColumns(body, 'named', 'en');
      await expect(writeXlsx({ store, key: 'exports/failed.xlsx', columns, names, pages: failing() })).rejects.toThrow(
        'a media key the store refuses',
      );
      await new Promise((r) => setTimeout(r, 100));
      expect(escaped).toEqual([]);
      expect(await store.stat('exports/failed.xlsx')).toBeUndefined();
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
