import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { addBlock, addChoice, addItem, newSchemaBody } from '@fieldwork/sampler';
import { FsObjectStore } from '@fieldwork/service-kit';
import { exportColumns, type ExportResponse, type Names } from '../domain/columns.js';
import { ExportCancelled, writeCsv } from './csv-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new FsObjectStore({ root: dir, publicBaseUrl: 'http://localhost', signingSecret: 'x'.repeat(32) });
const names: Names = { site: (id) => `Site ${id}`, group: String, team: String, user: (id) => `User ${id}` };

const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
const area = addItem(b.body, b.id, 'number', 'en', 'Area, in hectares');
const crop = addItem(area.body, b.id, 'choice', 'en', 'Crop');
const maize = addChoice(crop.body, crop.id, 'en', 'Maïs');
const note = addItem(maize.body, b.id, 'open', 'en', 'Note');
const body = note.body;

function* responses(n: number, page: number): Generator<ExportResponse[]> {
  for (let start = 0; start < n; start += page) {
    const rows: ExportResponse[] = [];
    for (let i = start; i < Math.min(n, start + page); i++) {
      rows.push({
        response_id: `r${i}`,
        parent_id: null,
        user_id: 1 + (i % 3),
        site_id: 1,
        group_id: null,
        team_id: null,
        device_id: 'web',
        completed: i % 2 === 0,
        time_created: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)),
        time_updated: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)),
        time_completed: null,
        time_uploaded: null,
        geotag: null,
        data: {
          '0': {
            [area.id]: i / 4,
            [crop.id]: [maize.id],
            [note.id]: i % 7 === 0 ? `=cmd|' /C calc'!A0, "quoted"\nline ${i}` : `note ${i}`,
          },
        },
      });
    }
    yield rows;
  }
}

async function* pages(n: number, page: number) {
  for (const p of responses(n, page)) yield p;
}

describe('CSV export writer', () => {
  it('streams every row to the object store, cell by cell as the columns say', async () => {
    const columns = exportColumns(body, 'named', 'en');
    const seen: number[] = [];
    const out = await writeCsv({
      store,
      key: 'exports/1/named.csv',
      columns,
      names,
      pages: pages(12_345, 1000),
      progress: (r) => void seen.push(r),
    });
    expect(out.rows).toBe(12_345);
    expect(seen.at(-1)).toBe(12_345);
    expect(seen).toHaveLength(13);
    const chunks: Buffer[] = [];
    for await (const c of await store.get('exports/1/named.csv')) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(text.slice(1)) as string[][];
    expect(rows).toHaveLength(12_346);
    expect(rows[0]).toEqual(columns.map((c) => c.header));
    expect(rows[0]!.slice(14)).toEqual(['Area, in hectares', 'Crop', 'Note']);
    const all = [...responses(12_345, 12_345)][0]!;
    // Numbers as they are; text with a ' in front when it starts with = + - @ tab or CR (OWASP).
    const shown = (v: string | number | null) =>
      typeof v === 'number' ? String(v) : /^[=+\-@\t\r]/.test(v ?? '') ? `'${v}` : (v ?? '');
    for (const i of [0, 1, 7, 4321, 12_344])
      expect(rows[i + 1]).toEqual(columns.map((c) => shown(c.cell(all[i]!, names))));
    expect(rows[8]![16]).toBe(`'=cmd|' /C calc'!A0, "quoted"\nline 7`);
    expect(rows[2]![15]).toBe('Maïs');
    expect(out.size).toBe(Buffer.byteLength(text));
  });
  it('guards every cell against formula injection, headers and response fields included, and keeps numbers', async () => {
    const evil = addItem(body, b.id, 'number', 'en', '=HYPERLINK("http://evil","x")');
    const columns = exportColumns(evil.body, 'named', 'en');
    const bad: Names = { site: () => '+1 site', group: () => '-cmd', team: () => '\tTeam', user: () => '@SUM(A1)' };
    async function* one() {
      const [r] = [...responses(1, 1)][0]!;
      yield [
        {
          ...r!,
          device_id: '\r=dev',
          group_id: 2,
          team_id: 3,
          data: { '0': { ...r!.data['0'], [area.id]: -3.5, [evil.id]: -1 } },
        },
      ];
    }
    await writeCsv({ store, key: 'exports/1/evil.csv', columns, names: bad, pages: one() });
    const chunks: Buffer[] = [];
    for await (const c of await store.get('exports/1/evil.csv')) chunks.push(c as Buffer);
    const [header, row] = parse(Buffer.concat(chunks).toString('utf8').slice(1)) as string[][];
    expect(header!.at(-1)).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(row!.slice(2, 7)).toEqual(["'+1 site", "'-cmd", "'\tTeam", "'@SUM(A1)", "'\r=dev"]);
    expect(row![14]).toBe('-3.5');
    expect(row!.at(-1)).toBe('-1');
  });
  it('stops when cancelled', async () => {
    let n = 0;
    await expect(
      writeCsv({
        store,
        key: 'exports/1/cancelled.csv',
        columns: exportColumns(body, 'coded', 'en'),
        names,
        pages: pages(5000, 1000),
        cancelled: () => ++n > 2,
      }),
    ).rejects.toBeInstanceOf(ExportCancelled);
    expect(await store.stat('exports/1/cancelled.csv')).toBeUndefined();
  });
});
