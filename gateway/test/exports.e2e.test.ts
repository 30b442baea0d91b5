// Exports as jobs through the API: each CSV kind checked cell by cell against the uploaded data, progress and the
// download link, who may export, cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
});
afterAll(async () => {
  await t?.stop();
});

async function download(url: string): Promise<string[][]> {
  const res = await fetch(url.startsWith('http') ? url : `${t.baseUrl}${url}`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return parse(text.replace(/^\uFEFF/, '')) as string[][];
}

describe('exports', () => {
  it('exports named, coded and dictionary CSVs and XLSX that match the uploaded responses cell by cell', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
    const area = addItem(b.body, b.id, 'number', 'en', 'Area');
    const crops = addItem(area.body, b.id, 'choice', 'en', 'Crops');
    let body = updateItem(crops.body, crops.id, {
      options: { ...crops.body.entities.items[crops.id]!.options, multiselect: true },
    });
    const maize = addChoice(body, crops.id, 'en', 'Maize');
    const beans = addChoice(maize.body, crops.id, 'en', 'Beans');
    const note = addItem(beans.body, b.id, 'open', 'en', 'Note');
    body = note.body;
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Exports A', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...body, revision: 1 } })).status,
    ).toBe(200);
    const rows = Array.from({ length: 25 }, (_, i) => ({
      id: `${p.id}-${schema}-1-x-${String(i).padStart(2, '0')}`,
      area: i * 3,
      crops: i % 3 === 0 ? [maize.id, beans.id] : [beans.id],
      note: i === 4 ? '=SUM(A1:A9)' : `note, "${i}"`,
    }));
    for (const r of rows) {
      const up = await api('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: schema,
          response_id: r.id,
          site: p.sites[0].id,
          data: { '0': { [area.id]: r.area, [crops.id]: r.crops, [note.id]: r.note } },
        },
      });
      expect(up.status).toBe(201);
    }
    const codes = body.entities.choices;

    const named = await api<Json>('GET', `project/${p.id}/named_csv/`, { token: owner.access });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.job).toMatchObject({
      status: 'done',
      rows_done: 25,
      rows_total: 25,
      percent: 100,
      kind: 'named_csv',
    });
    const table = await download(named.body.url);
    expect(table[0]!.slice(14)).toEqual(['Area', 'Crops', 'Note']);
    expect(table).toHaveLength(26);
    for (const [k, r] of rows.entries()) {
      const line = table[k + 1]!;
      expect(line[0]).toBe(r.id);
      expect(line[2]).toBe('Default Site');
      expect(line.slice(14)).toEqual([
        String(r.area),
        r.crops.map((c) => (c === maize.id ? 'Maize' : 'Beans')).join(' | '),
        r.note.startsWith('=') ? `'${r.note}` : r.note,
      ]);
    }

    const coded = await api<Json>('GET', `project/${p.id}/coded_csv/?schema=${schema}`, { token: owner.access });
    const codedTable = await download(coded.body.url);
    expect(codedTable[0]!.slice(2, 6)).toEqual(['site_id', 'group_id', 'team_id', 'user_id']);
    expect(codedTable[1]![2]).toBe(String(p.sites[0].id));
    expect(codedTable[1]![15]).toBe(`${codes[maize.id]!.codeName} | ${codes[beans.id]!.codeName}`);

    const dictionary = await api<Json>('GET', `project/${p.id}/dictionary_csv/`, { token: owner.access });
    const dict = await download(dictionary.body.url);
    expect(dict.find((r) => r[0] === 'Crops')).toEqual([
      'Crops',
      crops.body.entities.items[crops.id]!.codeName,
      'Crops',
      'choice',
      'no',
      `${codes[maize.id]!.codeName} = Maize | ${codes[beans.id]!.codeName} = Beans`,
    ]);

    // The job, read back; a refresh of the export files; the link works without a login (it is signed).
    const job = await api<Json>('GET', `exports/jobs/${named.body.job.id}/`, { token: owner.access });
    expect(job.body).toMatchObject({ status: 'done', size: expect.any(Number) });
    expect((await api<Json>('POST', `project/${p.id}/export/`, { token: owner.access, body: {} })).status).toBe(202);
    expect(
      (await api('GET', `exports/jobs/00000000-0000-0000-0000-000000000000/`, { token: owner.access })).status,
    ).toBe(404);
    expect((await api('GET', `project/${p.id}/named_csv/`, {})).status).toBe(401);
    // Excel: the same cells in a workbook.
    const xlsx = await api<Json>('GET', `project/${p.id}/xlsx_excel/`, { token: owner.access });
    expect(xlsx.status, JSON.stringify(xlsx.body)).toBe(200);
    const res = await fetch(xlsx.body.url.startsWith('http') ? xlsx.body.url : `${t.baseUrl}${xlsx.body.url}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.getWorksheet('Responses')!;
    expect(sheet.rowCount).toBe(26);
    for (const [k, r] of rows.entries()) {
      const v = (sheet.getRow(k + 2).values as unknown[]).slice(1);
      expect([v[0], v[14], v[15]]).toEqual([
        r.id,
        r.area,
        r.crops.map((c) => (c === maize.id ? 'Maize' : 'Beans')).join(' | '),
      ]);
    }
    expect((await api<Json>('GET', `project/${p.id}/named_csv/?schema=999999`, { token: owner.access })).body).toEqual({
      detail: 'Invalid Schema Id!',
    });

    // A collector may not export.
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'col@exports.test', password: 'exports pass 1', projectId: p.id, collector: true },
    });
    await acceptInvitation(t, api, 'col@exports.test', 'exports pass 1');
    const col = await login(api, 'col@exports.test', 'exports pass 1');
    expect((await api('GET', `project/${p.id}/named_csv/`, { token: col.access })).status).toBe(403);
    expect((await api('GET', `exports/jobs/${named.body.job.id}/`, { token: col.access })).status).toBe(403);

    // Cancel: a queued job answered without waiting, then cancelled, never gets a file.
    const queued = await api<Json>('GET', `project/${p.id}/named_csv/?wait=0`, { token: owner.access });
    const cancelled = await api<Json>('POST', `exports/jobs/${queued.body.job.id}/cancel/`, {
      token: owner.access,
      body: {},
    });
    expect(['cancelled', 'done']).toContain(cancelled.body.status);
  }, 120_000);
});
