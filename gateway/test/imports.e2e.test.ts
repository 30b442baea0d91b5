// Imports as jobs through the API (spec 001 §7 Import): the round trip (export a project, import the file into an
// empty copy, export again: the same responses), importing twice changes nothing, a file with bad rows gives a
// per-row error report, XLSX, mapping by label_map and dropped_columns, who may import; and SQL access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import postgres from 'postgres';
import yazl from 'yazl';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem, type SchemaBody } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, demoOwnerWithFeatures, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;

beforeAll(async () => {
  t = await startTestStack({ metrics: true });
  api = client(t);
  // Imports and SQL access are behind the workspace's ingestion feature (projectLevelIngestion).
  owner = await demoOwnerWithFeatures(t, api, ['ingestion']);
});
afterAll(async () => {
  await t?.stop();
});

const abs = (url: string) => (url.startsWith('http') ? url : `${t.baseUrl}${url}`);
async function bytes(url: string): Promise<Buffer> {
  const res = await fetch(abs(url));
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}
const table = (b: Buffer) => parse(b.toString('utf8').replace(/^\uFEFF/, '')) as string[][];

async function exportOf(projectId: number, kind = 'named_csv'): Promise<Buffer> {
  const r = await api<Json>('GET', `project/${projectId}/${kind}/`, { token: owner.access });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return bytes(r.body.url);
}

async function uploadFile(projectId: number, name: string, content: Buffer | string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const r = await api<Json>('POST', `project/${projectId}/upload/`, { token: owner.access, form });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.file_id as string;
}

/** How often the responses service asked the projects service for access (fieldwork_project_access_total). */
async function accessAsked(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${t.metricsPorts.responses}/metrics`)).text();
  return Number(/^fieldwork_project_access_total\{[^}]*source="asked"[^}]*\} (\d+)/m.exec(text)?.[1] ?? 0);
}

/** Polls an import job until it is finished. */
async function finished(jobId: string, token = owner.access): Promise<Json> {
  for (let i = 0; i < 300; i++) {
    const j = await api<Json>('GET', `exports/jobs/${jobId}/`, { token });
    if (['done', 'failed', 'cancelled'].includes(j.body.status)) return j.body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the import did not finish');
}

async function importFile(projectId: number, body: Json): Promise<Json> {
  const r = await api<Json>('POST', `project/${projectId}/import/`, { token: owner.access, body });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return finished(r.body.job.id);
}

function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Farm' });
  const area = addItem(b.body, b.id, 'number', 'en', 'Area');
  const decimals = updateItem(area.body, area.id, {
    options: { ...area.body.entities.items[area.id]!.options, allowDecimal: true },
  });
  const crops = addItem(decimals, b.id, 'choice', 'en', 'Crops');
  let body = updateItem(crops.body, crops.id, {
    options: { ...crops.body.entities.items[crops.id]!.options, multiselect: true },
  });
  const maize = addChoice(body, crops.id, 'en', 'Maize');
  const beans = addChoice(maize.body, crops.id, 'en', 'Beans');
  const note = addItem(beans.body, b.id, 'open', 'en', 'Note');
  const visited = addItem(note.body, b.id, 'date', 'en', 'Visited');
  const where = addItem(visited.body, b.id, 'geotag', 'en', 'Field location');
  const photo = addItem(where.body, b.id, 'image', 'en', 'Photo');
  body = photo.body;
  return {
    body,
    ids: {
      area: area.id,
      crops: crops.id,
      maize: maize.id,
      beans: beans.id,
      note: note.id,
      visited: visited.id,
      where: where.id,
      photo: photo.id,
    },
  };
}

describe('imports', () => {
  it('imports an export back into an empty copy of the project: the same responses, and a second import changes nothing', async () => {
    const { body, ids } = form();
    const a = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Import source', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schemaA = a.sampler_schemas[0].id as number;
    expect(
      (
        await api('PUT', `samplerschema/${schemaA}/`, {
          token: owner.access,
          body: { ...(body as SchemaBody), revision: 1 },
        })
      ).status,
    ).toBe(200);
    for (let i = 0; i < 30; i++) {
      const data: Json = {
        [ids.area]: i * 2.5,
        [ids.crops]: i % 3 === 0 ? [ids.maize, ids.beans] : i % 3 === 1 ? [ids.beans] : [],
        [ids.note]: i === 4 ? '=SUM(A1:A9)' : i === 5 ? 'a, "quoted"\nline' : `note ${i}`,
        [ids.visited]: `2026-0${1 + (i % 9)}-1${i % 10}`,
        [ids.where]: { type: 'Point', coordinates: [2.35 + i / 100, 48.85] },
        // No photos: a file answer names a file of its own response only, which a copy's responses do not have
        // (upload-security.e2e imports photos).
      };
      const path = i % 2 === 0 ? `project/${a.id}/response/complete/` : `project/${a.id}/response/`;
      const up = await api('POST', path, {
        token: owner.access,
        body: {
          sampler_schema: schemaA,
          response_id: `${a.id}-${schemaA}-1-d-${String(i).padStart(2, '0')}`,
          site: a.sites[0].id,
          time_created: `2026-11-0${1 + (i % 9)}T10:00:0${i % 10}Z`,
          time_updated: `2026-11-1${i % 10}T12:00:00Z`,
          geotag: point(48.8, 2.3),
          data: { '0': data },
        },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
    }
    const before = table(await exportOf(a.id));
    expect(before).toHaveLength(31);
    // One profile: that response only (and the responses under it, for hierarchical projects).
    const profile = await api<Json>('GET', `project/${a.id}/named_csv/?profile=${before[3]![0]}`, {
      token: owner.access,
    });
    expect(profile.body.job).toMatchObject({ status: 'done', rows_done: 1, profile: before[3]![0] });
    expect(table(await bytes(profile.body.url)).map((r) => r[0])).toEqual(['response_id', before[3]![0]]);

    // The empty copy: same form, same site names, no responses.
    const b = (await api<Json>('POST', `project/${a.id}/duplicate/`, { token: owner.access, body: {} })).body;
    const file = await uploadFile(b.id, 'source.csv', await exportOf(a.id));

    // The preview recognises every column of our own export.
    const preview = await api<Json>('POST', `project/${b.id}/import/preview/`, {
      token: owner.access,
      body: { data: { file_identifier: file } },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.errors).toEqual({});
    expect(preview.body.rows).toHaveLength(10);
    expect(preview.body.row_problems.every((p: Json) => Object.keys(p).length === 0)).toBe(true);
    const col = (h: string) => preview.body.columns.find((c: Json) => c.header === h);
    expect(col('Area')).toMatchObject({ target_kind: 'item', item_id: ids.area, label: 'Area' });
    expect(col('Field location (latitude)')).toMatchObject({ target_kind: 'item', item_id: ids.where, target: 'lat' });
    expect(col('Site')).toMatchObject({ target_kind: 'field', target: 'site' });
    expect(col('Collector')).toMatchObject({ target_kind: 'ignored' });

    const asked = await accessAsked();
    const job = await importFile(b.id, {
      data: { file_identifier: file, label_map: {}, dropped_columns: [], value_delimiter: ' | ' },
    });
    // The job carried the access it was queued with: its batches asked the projects service nothing.
    expect(await accessAsked()).toBe(asked);
    expect(job).toMatchObject({
      status: 'done',
      kind: 'import_responses',
      rows_done: 30,
      rows_failed: 0,
      report_url: null,
      result: { stored: 30, unmodified: 0, failed: 0 },
    });

    // The same responses: every cell but the ids, the device and the upload time.
    const after = table(await exportOf(b.id));
    expect(after).toHaveLength(31);
    expect(after[0]).toEqual(before[0]);
    const keep = before[0]!
      .map((h, i) => (['response_id', 'device_id', 'time_uploaded'].includes(h) ? -1 : i))
      .filter((i) => i >= 0);
    const photoAt = before[0]!.indexOf('Photo');
    const key = (s: string) => /(images\/[^?]+)/.exec(decodeURIComponent(s))?.[1] ?? s;
    for (let r = 1; r <= 30; r++) {
      for (const i of keep) {
        if (i === photoAt) expect(key(after[r]![i]!), `row ${r} Photo`).toBe(key(before[r]![i]!));
        else expect(after[r]![i], `row ${r} ${before[0]![i]}`).toBe(before[r]![i]);
      }
    }
    expect(after[5]![before[0]!.indexOf('Note')]).toBe("'=SUM(A1:A9)");

    // The same file again, even uploaded again: nothing new.
    const again = await importFile(b.id, {
      data: { file_identifier: await uploadFile(b.id, 'again.csv', await exportOf(a.id)) },
    });
    expect(again).toMatchObject({ status: 'done', rows_done: 30, result: { stored: 0, unmodified: 30 } });
    expect(table(await exportOf(b.id))).toHaveLength(31);

    // XLSX: the workbook export imports into another empty copy.
    const c = (await api<Json>('POST', `project/${a.id}/duplicate/`, { token: owner.access, body: {} })).body;
    const x = await importFile(c.id, {
      file_identifier: await uploadFile(c.id, 'source.xlsx', await exportOf(a.id, 'xlsx_excel')),
      mapped_columns: {},
      import_current: false,
      device_id: 'laptop-1',
    });
    expect(x).toMatchObject({ status: 'done', rows_done: 30, rows_failed: 0, result: { stored: 30 } });
    const fromXlsx = table(await exportOf(c.id));
    for (const h of ['Area', 'Crops', 'Note', 'Visited', 'Field location (longitude)', 'completed', 'time_created']) {
      const i = before[0]!.indexOf(h);
      expect(
        fromXlsx.slice(1).map((r) => r[i]),
        h,
      ).toEqual(before.slice(1).map((r) => r[i]));
    }
    expect(fromXlsx[1]![before[0]!.indexOf('device_id')]).toBe('laptop-1');

    // import_current: the source's own export, edited, updates its responses in place.
    const edited = before.map((r, k) =>
      k === 1
        ? r.map((v, i) =>
            before[0]![i] === 'Area' ? '99' : before[0]![i] === 'time_updated' ? '2026-11-21 00:00:00' : v,
          )
        : r,
    );
    const csv = edited.map((r) => r.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\n');
    const upd = await importFile(a.id, {
      file_identifier: await uploadFile(a.id, 'edited.csv', csv),
      import_current: true,
    });
    expect(upd).toMatchObject({ status: 'done', result: { stored: 1, unmodified: 29 } });
    const now = table(await exportOf(a.id));
    expect(now).toHaveLength(31);
    expect(now[1]![before[0]!.indexOf('Area')]).toBe('99');
  }, 240_000);

  it('maps columns by label_map, drops columns, and reports each refused row in a downloadable CSV', async () => {
    const { body, ids } = form();
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Import mapping', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    const code = (id: number) => body.entities.items[id]!.codeName;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...body, revision: 1 } })).status,
    ).toBe(200);
    const csv = [
      'Hectares,Crops grown,Comment,Where,Internal',
      '1.5,Maize;Beans,first,Default Site,x',
      'abc,Beans,bad number,Default Site,x',
      '2,Rice,bad choice,Default Site,x',
      '3,maize,unknown site,Nowhere,x',
      ',,,,',
      '4,,fine,,x',
    ].join('\r\n');
    const file = await uploadFile(p.id, 'survey.csv', csv);
    const map = {
      label_map: { Hectares: 'Area', 'Crops grown': code(ids.crops), Comment: String(ids.note), Where: 'site' },
      dropped_columns: ['Internal'],
      value_delimiter: ';',
    };

    const preview = await api<Json>('POST', `project/${p.id}/import/preview/`, {
      token: owner.access,
      body: { data: { file_identifier: file, ...map } },
    });
    expect(preview.body.columns.map((c: Json) => c.target_kind)).toEqual(['item', 'item', 'item', 'field', 'ignored']);
    expect(preview.body.row_problems[1]).toEqual({ Hectares: 'Enter a number.' });
    expect(preview.body.row_problems[2]).toEqual({ 'Crops grown': '"Rice" is not a choice of this question.' });
    expect(preview.body.questions.map((q: Json) => q.label)).toContain('Field location (latitude)');

    // Mapping mistakes are refused before any job.
    const bad = await api<Json>('POST', `project/${p.id}/import/`, {
      token: owner.access,
      body: { data: { file_identifier: file, label_map: { Hectares: 'Surface' } } },
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { label_map: ['Column "Hectares": no question or response field of this form is "Surface".'] },
    });
    expect(
      (
        await api<Json>('POST', `project/${p.id}/import/`, {
          token: owner.access,
          body: { data: { file_identifier: 'nope' } },
        })
      ).body,
    ).toEqual({ file_identifier: ['No file of this project has this id.'] });
    expect(
      (
        await api<Json>('POST', `project/${p.id}/import/`, {
          token: owner.access,
          body: { data: { file_identifier: file, label_map: ['x'] } },
        })
      ).status,
    ).toBe(400);

    const job = await importFile(p.id, { data: { file_identifier: file, ...map } });
    expect(job).toMatchObject({ status: 'done', rows_done: 5, rows_failed: 3, result: { stored: 2, failed: 3 } });
    const report = table(await bytes(job.report_url));
    expect(report).toEqual([
      ['row', 'column', 'value', 'message'],
      ['2', 'Hectares', 'abc', 'Enter a number.'],
      ['3', 'Crops grown', 'Rice', '"Rice" is not a choice of this question.'],
      ['4', 'Where', 'Nowhere', 'No site of this project is "Nowhere".'],
    ]);
    const rows = table(await exportOf(p.id));
    expect(
      rows
        .slice(1)
        .map((r) => [r[rows[0]!.indexOf('Area')], r[rows[0]!.indexOf('Crops')], r[rows[0]!.indexOf('Note')]]),
    ).toEqual([
      ['1.5', 'Maize | Beans', 'first'],
      ['4', '', 'fine'],
    ]);

    // The same file (no response ids in it) imported again: nothing new, the same refusals.
    const again = await importFile(p.id, {
      data: { file_identifier: await uploadFile(p.id, 'survey-again.csv', csv), ...map },
    });
    expect(again).toMatchObject({ status: 'done', rows_failed: 3, result: { stored: 0, unmodified: 2 } });
    expect(table(await exportOf(p.id))).toHaveLength(3);

    // A collector may neither preview nor import.
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'col@imports.test', password: 'imports pass 1', projectId: p.id, collector: true },
    });
    await acceptInvitation(t, api, 'col@imports.test', 'imports pass 1');
    const col = await login(api, 'col@imports.test', 'imports pass 1');
    expect(
      (await api('POST', `project/${p.id}/import/`, { token: col.access, body: { data: { file_identifier: file } } }))
        .status,
    ).toBe(403);
    expect(
      (
        await api('POST', `project/${p.id}/import/preview/`, {
          token: col.access,
          body: { data: { file_identifier: file } },
        })
      ).status,
    ).toBe(403);
    expect((await api('GET', `exports/jobs/${job.id}/`, { token: col.access })).status).toBe(403);
  }, 120_000);

  it('refuses a zip bomb posing as a workbook, for an import and for a form, before it is inflated', async () => {
    // 20 KB of zip holding a 20 MB sheet of spaces (and one of 1 GB would be the same 1,000-to-1): no spreadsheet
    // export compresses like that.
    const archive = new yazl.ZipFile();
    archive.addBuffer(
      Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '[Content_Types].xml',
    );
    archive.addBuffer(Buffer.alloc(20 * 1024 ** 2, ' '), 'xl/worksheets/sheet1.xml');
    archive.end();
    const chunks: Buffer[] = [];
    for await (const c of archive.outputStream) chunks.push(c as Buffer);
    const bomb = Buffer.concat(chunks);
    expect(bomb.length).toBeLessThan(100_000);
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Bombed', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const file = await uploadFile(p.id, 'bomb.xlsx', bomb);
    const preview = await api<Json>('POST', `project/${p.id}/import/preview/`, {
      token: owner.access,
      body: { data: { file_identifier: file } },
    });
    expect(preview.status).toBe(400);
    expect(preview.body.file_identifier[0]).toMatch(
      /^The workbook was refused: xl\/worksheets\/sheet1\.xml expands \d+ times \(at most 250\)\..*zip bomb/,
    );
    const started = await api<Json>('POST', `project/${p.id}/import/`, {
      token: owner.access,
      body: { data: { file_identifier: file } },
    });
    expect(started.status).toBe(400);
    const form = await api<Json>('POST', `project/${p.id}/create-form-from-upload/`, {
      token: owner.access,
      body: { file_identifier: await uploadFile(p.id, 'form.xlsx', bomb) },
    });
    expect(form.status).toBe(400);
    expect(JSON.stringify(form.body)).toContain('The workbook was refused');
  }, 60_000);

  it('gives a read-only PostgreSQL role that sees only the project as a flat view, and takes it back', async () => {
    const { body, ids } = form();
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'SQL access', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    expect(
      (await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...body, revision: 1 } })).status,
    ).toBe(200);
    for (let i = 0; i < 3; i++) {
      await api('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: schema,
          response_id: `${p.id}-${schema}-1-s-${i}`,
          data: {
            '0': { [ids.area]: i + 0.5, [ids.crops]: [ids.beans], [ids.where]: { type: 'Point', coordinates: [1, 2] } },
          },
        },
      });
    }
    const other = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'SQL other', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    await api('POST', `project/${other.id}/response/`, {
      token: owner.access,
      body: {
        sampler_schema: other.sampler_schemas[0].id,
        response_id: `${other.id}-${other.sampler_schemas[0].id}-1-s-0`,
        data: { '0': {} },
      },
    });

    const grant = await api<Json>('POST', `project/${p.id}/postgres/`, { token: owner.access, body: {} });
    expect(grant.status, JSON.stringify(grant.body)).toBe(201);
    expect(grant.body).toMatchObject({
      enabled: true,
      username: expect.stringMatching(/^fw_sql_/),
      password: expect.any(String),
      view: `sql_p${p.id}.responses`,
    });
    const g = grant.body;
    const bi = postgres({
      host: g.host,
      port: g.port,
      database: g.database,
      username: g.username,
      password: g.password,
      max: 1,
      onnotice: () => undefined,
    });
    try {
      const rows = await bi.unsafe(`select * from ${g.view} order by response_id`);
      expect(rows).toHaveLength(3);
      expect(rows[1]).toMatchObject({
        response_id: `${p.id}-${schema}-1-s-1`,
        [body.entities.items[ids.area]!.codeName.toLowerCase()]: '1.5',
      });
      expect(rows[1]![body.entities.items[ids.crops]!.codeName.toLowerCase()]).toBe(
        body.entities.choices[ids.beans]!.codeName,
      );
      expect(rows[1]![`${body.entities.items[ids.where]!.codeName.toLowerCase()}_lat`]).toBe('2');
      await expect(bi.unsafe('select count(*) from responses.responses')).rejects.toThrow(/permission denied/);
      await expect(bi.unsafe(`create table ${g.view}_copy (x int)`)).rejects.toThrow();
      await expect(bi.unsafe(`delete from ${g.view}`)).rejects.toThrow();
    } finally {
      await bi.end();
    }
    // Only project owners; then disabled, the role is gone.
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'dm@sql.test', password: 'sql access pass 1', projectId: p.id, data_manager: true },
    });
    await acceptInvitation(t, api, 'dm@sql.test', 'sql access pass 1');
    const dm = await login(api, 'dm@sql.test', 'sql access pass 1');
    expect((await api('POST', `project/${p.id}/postgres/`, { token: dm.access, body: {} })).status).toBe(403);
    expect(
      (await api<Json>('POST', `project/${p.id}/disable_postgres/`, { token: owner.access, body: {} })).body,
    ).toEqual({ enabled: false });
    const gone = postgres({
      host: g.host,
      port: g.port,
      database: g.database,
      username: g.username,
      password: g.password,
      max: 1,
      connect_timeout: 5,
    });
    await expect(gone`select 1`).rejects.toThrow(/role .* does not exist|authentication failed/);
    await gone.end();
  }, 120_000);
});
