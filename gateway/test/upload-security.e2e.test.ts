// Security of every upload path (issue 30): what people, collection links' respondents and imports may write into a
// response, one rule each for all of them, and exports that survive whatever an older row holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import sharp from 'sharp';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { addBlock, addItem, newSchemaBody, updateBlock, type SchemaBody } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import {
  acceptInvitation,
  client,
  demoOwnerWithFeatures,
  login,
  point,
  type Answer,
  type Api,
  type Session,
} from './helpers.js';

type Json = Record<string, any>;
let t: TestStack;
let api: Api;
let owner: Session;
let db: postgres.Sql;
let PNG: Buffer;
const pass = 'upload security 1';

beforeAll(async () => {
  // A trusted proxy on the test's own address: requests say which client they come from (per-address limits).
  t = await startTestStack({ extraEnv: { TRUSTED_PROXIES: '127.0.0.1' } });
  api = client(t);
  // Imports are behind the workspace's ingestion feature.
  owner = await demoOwnerWithFeatures(t, api, ['ingestion']);
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => undefined });
  PNG = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

/** A form with a number and an image question. */
function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
  const n = addItem(b.body, b.id, 'number', 'en', 'Adults');
  const photo = addItem(n.body, b.id, 'image', 'en', 'Photo');
  return { body: photo.body, ids: { block: b.id, adults: n.id, photo: photo.id } };
}

async function projectWithForm(name: string, body: SchemaBody, as: Session = owner) {
  const p = (
    await api<Json>('POST', 'project/', {
      token: as.access,
      body: { name, organization_pk: as.organization.id, geotag: point(0, 0) },
    })
  ).body;
  const schema = p.sampler_schemas[0].id as number;
  const saved = await api('PUT', `samplerschema/${schema}/`, { token: as.access, body: { ...body, revision: 1 } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { p, schema };
}

async function projectUser(projectId: number, email: string, roles: Json): Promise<Session> {
  const r = await api('POST', 'api/v1/project-user/', {
    token: owner.access,
    body: { email, password: pass, projectId, ...roles },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  // An address added by someone else is an invitation: the person sets their own password.
  await acceptInvitation(t, api, email, pass);
  return login(api, email, pass);
}

let counter = 0;
const rid = (p: number, s: number) => `${p}-${s}-0-up-${Date.now()}-${++counter}`;

/** A photo asked for, uploaded and completed for `responseId`; its key. */
async function photoOf(as: string, projectId: number, responseId: string): Promise<string> {
  const m = await api<Json>('POST', `project/${projectId}/media/`, {
    token: as,
    body: { response_id: responseId, kind: 'image', filename: 'door.png', content_type: 'image/png', size: PNG.length },
  });
  expect(m.status, JSON.stringify(m.body)).toBe(201);
  const put = await fetch(m.body.upload_url, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png' } });
  expect(put.status).toBe(200);
  expect((await api('POST', `project/${projectId}/media/${m.body.media_id}/complete/`, { token: as })).status).toBe(
    200,
  );
  return m.body.key as string;
}

async function exportJob(projectId: number, kind: string, as = owner): Promise<Answer<Json>> {
  return api<Json>('GET', `project/${projectId}/${kind}/?wait=1`, { token: as.access });
}

const fileUrl = (url: string) => (url.startsWith('http') ? url : `${t.baseUrl}${url}`);

describe('file answers (issue 30 item 1)', () => {
  it("refuses from a collector a key with '..', a made-up one and another response's, and takes their own file", async () => {
    const { body, ids } = form();
    const { p, schema } = await projectWithForm('Media keys', body);
    const collector = await projectUser(p.id, 'col.keys@up.test', { collector: true });
    const ownerResponse = rid(p.id, schema);
    const ownerKey = await photoOf(owner.access, p.id, ownerResponse);
    const save = (as: Session, responseId: string, key: string) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: as.access,
        body: { sampler_schema: schema, response_id: responseId, data: { '0': { [ids.adults]: 1, [ids.photo]: key } } },
      });
    expect((await save(owner, ownerResponse, ownerKey)).status).toBe(201);

    const mine = rid(p.id, schema);
    const refused = {
      status: 400,
      body: { [`data.0.${ids.photo}`]: ['Upload the file first and send the key it returned.'] },
    };
    for (const key of [
      `images/${p.id}/../125/x.png`,
      `images/${p.id}/${mine}/00000000-0000-0000-0000-000000000000-never-asked.png`,
      ownerKey,
    ])
      expect(await save(collector, mine, key), key).toMatchObject(refused);
    // The key of a file asked for this response, even before its bytes arrive (a device saves first).
    const asked = await api<Json>('POST', `project/${p.id}/media/`, {
      token: collector.access,
      body: { response_id: mine, kind: 'image', filename: 'a.png', content_type: 'image/png', size: PNG.length },
    });
    expect(await save(collector, mine, asked.body.key)).toMatchObject({
      status: 201,
      body: { media_uploading_count: 1 },
    });
    // An edit that changes the file answer is held to the same rule.
    expect(await save(collector, mine, ownerKey)).toMatchObject(refused);
    // Nothing refused was stored.
    const [row] = await db<{ data: Json }[]>`select data from responses.responses where response_id = ${mine}`;
    expect(row!.data['0'][ids.photo]).toBe(asked.body.key);
  });

  it('exports rows already holding bad keys with a note in the cell, while the service keeps answering every workspace', async () => {
    const { body, ids } = form();
    const { p, schema } = await projectWithForm('Old bad keys', body);
    const good = rid(p.id, schema);
    const key = await photoOf(owner.access, p.id, good);
    expect(
      (
        await api('POST', `project/${p.id}/response/`, {
          token: owner.access,
          body: { sampler_schema: schema, response_id: good, data: { '0': { [ids.adults]: 1, [ids.photo]: key } } },
        })
      ).status,
    ).toBe(201);
    // Rows stored before file answers were checked: a traversal, another response's file, one that never existed.
    const bad = [
      `images/${p.id}/../125/x.png`,
      key,
      `images/${p.id}/${p.id}-${schema}-old-3/0-gone.png`,
      'images/x\\..\\y.png',
    ];
    for (const [i, value] of bad.entries())
      await db`insert into responses.responses (response_id, project_id, schema_id, user_id, data, time_created, time_updated)
               values (${`${p.id}-${schema}-old-${i}`}, ${p.id}, ${schema}, ${owner.user.id},
                       ${db.json({ '0': { [ids.adults]: 2, [ids.photo]: value } })}, now(), now())`;

    // Another workspace's project, exported at the same time.
    await api('POST', 'api/v1/organization-user/', {
      token: owner.access,
      body: { email: 'other.ws@up.test', password: pass, organization: owner.organization.id },
    });
    await acceptInvitation(t, api, 'other.ws@up.test', pass);
    let other = await login(api, 'other.ws@up.test', pass);
    const ws = await api<Json>('POST', 'organization/', { token: other.access, body: { name: 'Upload B' } });
    expect(ws.status, JSON.stringify(ws.body)).toBe(201);
    other = await login(api, 'other.ws@up.test', pass);
    other = { ...other, organization: { id: ws.body.id as number } };
    const b = await projectWithForm('Other workspace', form().body, other);
    const exportsPid = t.stack.children.get('exports')!.process.pid;

    const [xlsx, csv, elsewhere] = await Promise.all([
      exportJob(p.id, 'xlsx_excel'),
      exportJob(p.id, 'named_csv'),
      exportJob(b.p.id, 'named_csv', other),
    ]);
    for (const r of [xlsx, csv, elsewhere])
      expect(r, JSON.stringify(r.body)).toMatchObject({ status: 200, body: { job: { status: 'done' } } });
    expect(t.stack.children.get('exports')!.process.pid).toBe(exportsPid);

    const note = 'File not available: this answer names no file of this response.';
    const rows = parse((await (await fetch(fileUrl(csv.body.url))).text()).replace(/^\uFEFF/, '')) as string[][];
    const photoAt = rows[0]!.indexOf('Photo');
    const cell = (id: string) => rows.find((r) => r[0] === id)![photoAt]!;
    expect(cell(good)).toMatch(new RegExp(`images/${p.id}/${good}/`));
    for (const i of bad.keys()) expect(cell(`${p.id}-${schema}-old-${i}`)).toBe(note);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await (await fetch(fileUrl(xlsx.body.url))).arrayBuffer());
    const sheet = book.getWorksheet('Responses')!;
    expect(sheet.rowCount).toBe(6);
    const values = sheet.getColumn(photoAt + 1).values.map(String);
    expect(values.filter((v) => v === note)).toHaveLength(4);
  });
});

/** A collection link of the project and a respondent's token for it (from `ip`). */
async function link(projectId: number, ip = '10.0.0.1') {
  const s = await api<Json>('POST', `project/${projectId}/surveys/`, {
    token: owner.access,
    body: { expiry_date: '2099-01-01T00:00:00Z' },
  });
  expect(s.status, JSON.stringify(s.body)).toBe(201);
  const open = await api<Json>('POST', `collect/${s.body.token}/`, {
    body: { token: s.body.token, fingerprint: 'fp-up' },
    headers: { 'x-forwarded-for': ip },
  });
  expect(open.status, JSON.stringify(open.body)).toBe(200);
  return { survey: s.body, token: open.body.token as string };
}

async function uploadFile(projectId: number, name: string, content: string): Promise<string> {
  const f = new FormData();
  f.append('file', new Blob([content]), name);
  const r = await api<Json>('POST', `project/${projectId}/upload/`, { token: owner.access, form: f });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.file_id as string;
}

async function importJob(projectId: number, file: string): Promise<Json> {
  const r = await api<Json>('POST', `project/${projectId}/import/`, {
    token: owner.access,
    body: { data: { file_identifier: file } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  for (let i = 0; i < 300; i++) {
    const j = await api<Json>('GET', `exports/jobs/${r.body.job.id}/`, { token: owner.access });
    if (j.body.status === 'done' || j.body.status === 'failed') return j.body;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error('the import did not finish');
}

const table = (text: string) => parse(text.replace(/^\uFEFF/, '')) as string[][];

describe('imports follow the same rules', () => {
  it("refuses an imported row naming a traversal or another response's file, and answers under made-up repeats", async () => {
    const { body, ids } = form();
    const { p, schema } = await projectWithForm('Import keys', body);
    const id = rid(p.id, schema);
    const key = await photoOf(owner.access, p.id, id);
    expect(
      (
        await api('POST', `project/${p.id}/response/`, {
          token: owner.access,
          body: { sampler_schema: schema, response_id: id, data: { '0': { [ids.adults]: 1, [ids.photo]: key } } },
        })
      ).status,
    ).toBe(201);
    const csv = ['Adults,Photo', `1,images/${p.id}/../125/x.png`, `2,${key}`, '3,'].join('\r\n');
    const job = await importJob(p.id, await uploadFile(p.id, 'keys.csv', csv));
    expect(job).toMatchObject({ status: 'done', rows_done: 3, rows_failed: 2, result: { stored: 1, failed: 2 } });
    const report = table(await (await fetch(fileUrl(job.report_url))).text());
    expect(report.slice(1).map((r) => [r[0], r[1], r[3]])).toEqual([
      ['1', 'Photo', 'Upload the file first and send the key it returned.'],
      ['2', 'Photo', 'Upload the file first and send the key it returned.'],
    ]);
  });
});

describe('answers only where the form has them (issue 30 item 5)', () => {
  it('refuses answers under repeat instances and categories the form does not have, on every upload path', async () => {
    const { body, ids } = form();
    const { p, schema } = await projectWithForm('Made-up repeats', body);
    const { token } = await link(p.id, '10.0.5.1');
    const collector = await projectUser(p.id, 'col.repeats@up.test', { collector: true });
    const count = async () =>
      (await db<{ n: number }[]>`select count(*)::int as n from responses.responses where project_id = ${p.id}`)[0]!.n;
    // The reported upload: one number answer under 1,999 instance ids no form has (about 40 KB).
    const flood = Object.fromEntries(Array.from({ length: 1999 }, (_, i) => [String(5000 + i), { [ids.adults]: 7 }]));
    for (const as of [token, collector.access, owner.access]) {
      const r = await api<Json>('POST', `project/${p.id}/response/`, {
        token: as,
        body: { sampler_schema: schema, response_id: rid(p.id, schema), device_id: 'd', data: { '0': {}, ...flood } },
      });
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(400);
      expect(r.body['data.5000']).toEqual([
        'Repeat instances are numbered 0, 1, 2 and so on without gaps, at most 100.',
      ]);
    }
    // Contiguous, but more than a response may hold.
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [String(i), { [ids.adults]: 7 }]));
    expect(
      (
        await api<Json>('POST', `project/${p.id}/response/`, {
          token: collector.access,
          body: { sampler_schema: schema, response_id: rid(p.id, schema), data: many },
        })
      ).body['data.100'],
    ).toEqual(['Repeat instances are numbered 0, 1, 2 and so on without gaps, at most 100.']);
    expect(await count()).toBe(0);
    // An edit adding a made-up instance is refused too; real repeats are kept.
    const id = rid(p.id, schema);
    const up = (data: Json) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: collector.access,
        body: { sampler_schema: schema, response_id: id, data },
      });
    expect((await up({ '0': { [ids.adults]: 1 }, '1': { [ids.adults]: 2 } })).status).toBe(201);
    expect(await up({ '0': { [ids.adults]: 1 }, '1': { [ids.adults]: 2 }, '9': { [ids.adults]: 3 } })).toMatchObject({
      status: 400,
      body: { 'data.9': ['Repeat instances are numbered 0, 1, 2 and so on without gaps, at most 100.'] },
    });
    // A category asked once takes its answers in the first instance only.
    const once = updateBlock(body, ids.block, { askOnce: true });
    const asked = await projectWithForm('Asked once', once);
    expect(
      await api<Json>('POST', `project/${asked.p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: asked.schema,
          response_id: rid(asked.p.id, asked.schema),
          data: { '0': { [ids.adults]: 1 }, '1': { [ids.adults]: 2 } },
        },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        [`data.1.${ids.adults}`]: [
          'This question is in a category asked once: answer it in the first repeat (0) only.',
        ],
      },
    });
    expect(await count()).toBe(1);
  });
});
describe('server fields, placement and times (issue 30 item 10)', () => {
  it("refuses another site's group or team and times before 2000 from collectors, and holds new responses to the role rules", async () => {
    const { body, ids } = form();
    const { p, schema } = await projectWithForm('Placement', body);
    const other = await projectWithForm('Placement other', body);
    const collector = await projectUser(p.id, 'col.place@up.test', { collector: true });
    const site = p.sites[0].id as number;
    const north = await api<Json>('POST', `project/${p.id}/sites/`, {
      token: owner.access,
      body: { name: 'North', geotag: point(1, 1) },
    });
    expect(north.status, JSON.stringify(north.body)).toBe(201);
    const group = (
      await api<Json>('POST', `project/${p.id}/groups/`, { token: owner.access, body: { name: 'G', site } })
    ).body;
    const northGroup = (
      await api<Json>('POST', `project/${p.id}/groups/`, {
        token: owner.access,
        body: { name: 'N', site: north.body.id },
      })
    ).body;
    const team = (
      await api<Json>('POST', `project/${p.id}/teams/`, { token: owner.access, body: { name: 'T', group: group.id } })
    ).body;
    const foreign = (
      await api<Json>('POST', `project/${other.p.id}/groups/`, {
        token: owner.access,
        body: { name: 'F', site: other.p.sites[0].id },
      })
    ).body;
    expect([group.id, northGroup.id, team.id, foreign.id].every((x) => typeof x === 'number')).toBe(true);
    const up = (as: Session, extra: Json) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: as.access,
        body: {
          sampler_schema: schema,
          response_id: rid(p.id, schema),
          site,
          data: { '0': { [ids.adults]: 1 } },
          ...extra,
        },
      });
    const wrongGroup = {
      status: 400,
      body: { group: ['This group is not one of the response’s site in this project.'] },
    };
    expect(await up(owner, { group: foreign.id })).toMatchObject(wrongGroup);
    expect(await up(owner, { group: northGroup.id })).toMatchObject(wrongGroup);
    expect(await up(owner, { group: northGroup.id, team: team.id })).toMatchObject({
      status: 400,
      body: { team: ['This team is not one of the response’s group in this project.'] },
    });
    expect(await up(owner, { group: group.id, team: team.id })).toMatchObject({
      status: 201,
      body: { group_id: group.id, team_id: team.id },
    });
    // Times: never before 2000, for anyone.
    expect(await up(owner, { time_created: '1900-01-01T00:00:00Z' })).toMatchObject({
      status: 400,
      body: { time_created: ['Enter a valid time, not before 2000.'] },
    });
    // A collector (filed under no site) names another project's group, or a team without its group.
    const own = (extra: Json) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: collector.access,
        body: { sampler_schema: schema, response_id: rid(p.id, schema), data: { '0': { [ids.adults]: 1 } }, ...extra },
      });
    expect(await own({ group: foreign.id })).toMatchObject(wrongGroup);
    expect(await own({ team: team.id })).toMatchObject({
      status: 400,
      body: { team: ['This team is not one of the response’s group in this project.'] },
    });
    expect(await own({ time_created: -2208988800000 })).toMatchObject({
      status: 400,
      body: { time_created: ['Enter a valid time, not before 2000.'] },
    });
    // A new response's flags follow the same role rules as a change: a collector may delete their own.
    expect(await own({ deleted: true })).toMatchObject({ status: 201, body: { deleted: true } });
  });
});

describe('references (issue 30 item 11)', () => {
  it('refuses a trend schema of another project and a referenced response of a project not referenced', async () => {
    const { body, ids } = form();
    const main = await projectWithForm('Trend main', body);
    const other = await projectWithForm('Trend other', body);
    const trend = (schemaId: number) =>
      api<Json>('POST', `project/${main.p.id}/type/`, {
        token: owner.access,
        body: {
          project_type: 'T',
          trend_series_options: {
            time_particle: 'month',
            trend_question: String(ids.adults),
            aggregator: 'avg',
            trend_question_schema: schemaId,
          },
        },
      });
    expect(await trend(other.schema)).toMatchObject({
      status: 400,
      body: { trend_question_schema: ['No schema of this project has this id.'] },
    });
    expect((await trend(main.schema)).status).toBe(200);

    // References: a response of a referenced project only.
    const entity = await projectWithForm('Ref entity', body);
    await api('PATCH', `project/${entity.p.id}/`, { token: owner.access, body: { is_entity: true } });
    await api('PATCH', `project/${other.p.id}/`, { token: owner.access, body: { is_entity: true } });
    const app2 = await projectWithForm('Ref main', body);
    expect(
      (
        await api('POST', `project/${app2.p.id}/references/`, {
          token: owner.access,
          body: { id: entity.p.id, action: 'add' },
        })
      ).status,
    ).toBe(200);
    const stored = async (proj: { p: Json; schema: number }) => {
      const id = rid(proj.p.id, proj.schema);
      const r = await api('POST', `project/${proj.p.id}/response/`, {
        token: owner.access,
        body: { sampler_schema: proj.schema, response_id: id, data: { '0': { [ids.adults]: 1 } } },
      });
      expect(r.status).toBe(201);
      return id;
    };
    const ofEntity = await stored(entity);
    const ofOther = await stored(other);
    const refer = (ref: string) =>
      api<Json>('POST', `project/${app2.p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: app2.schema,
          response_id: rid(app2.p.id, app2.schema),
          response_referenced_id: ref,
          data: { '0': { [ids.adults]: 1 } },
        },
      });
    for (const ref of [ofOther, `${entity.p.id}-nope`])
      expect(await refer(ref), ref).toMatchObject({
        status: 400,
        body: {
          response_referenced_id: ['The referenced response was not found in a project this project references.'],
        },
      });
    expect(await refer(ofEntity)).toMatchObject({ status: 201, body: { response_referenced_id: ofEntity } });
  });
});

describe('collection links in numbers (issue 30 item 13)', () => {
  it('lets a respondent pace through, refuses a flood per address and per link with 429, and bounds waiting files', async () => {
    const { body, ids } = form();
    const { p, schema } = await projectWithForm('Floods', body);
    const { survey, token } = await link(p.id, '10.1.0.1');
    const up = (ip: string) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token,
        headers: { 'x-forwarded-for': ip },
        body: {
          sampler_schema: schema,
          response_id: rid(p.id, schema),
          device_id: 'fp-up',
          data: { '0': { [ids.adults]: 1 } },
        },
      });
    const tooMany = { status: 429, body: { detail: 'Too many requests. Please slow down.' } };
    // A flood from one address: the first 60 of a 10 s window pass, the rest are refused.
    const flood = await Promise.all(Array.from({ length: 70 }, () => up('10.1.0.2')));
    expect(flood.filter((r) => r.status === 201)).toHaveLength(60);
    expect(flood.find((r) => r.status === 429)).toMatchObject(tooMany);
    // Others on the same link go on: a respondent's pace (a response and its photo calls) passes.
    for (let i = 0; i < 5; i++) expect((await up('10.1.0.3')).status).toBe(201);
    // The link as a whole: 200 uploads a 10 s window, whatever the addresses (another link: its own count).
    const busy = await link(p.id, '10.1.0.9');
    const spread = await Promise.all(
      Array.from({ length: 220 }, (_, i) =>
        api<Json>('POST', `project/${p.id}/response/`, {
          token: busy.token,
          headers: { 'x-forwarded-for': `10.1.${1 + (i >> 8)}.${i & 255}` },
          body: {
            sampler_schema: schema,
            response_id: rid(p.id, schema),
            device_id: 'fp-up',
            data: { '0': { [ids.adults]: 1 } },
          },
        }),
      ),
    );
    expect(spread.filter((r) => r.status === 201)).toHaveLength(200);
    expect(spread.find((r) => r.status === 429)).toMatchObject(tooMany);
    // People are not counted by these limits.
    expect(
      (
        await api('POST', `project/${p.id}/response/`, {
          token: owner.access,
          body: { sampler_schema: schema, response_id: rid(p.id, schema), data: { '0': { [ids.adults]: 1 } } },
        })
      ).status,
    ).toBe(201);
    // New collection tokens: 30 per address and 10 s.
    const opens = await Promise.all(
      Array.from({ length: 34 }, () =>
        api('POST', `collect/${survey.token}/`, {
          body: { token: survey.token },
          headers: { 'x-forwarded-for': '10.1.2.1' },
        }),
      ),
    );
    expect(opens.filter((r) => r.status === 200)).toHaveLength(30);
    expect(opens.find((r) => r.status === 429)).toMatchObject(tooMany);

    // Files waiting for their bytes: at most LINK_MAX_PENDING_MEDIA (50) per link.
    const other = await link(p.id, '10.1.3.1');
    const asks = [];
    for (let i = 0; i < 51; i++) {
      asks.push(
        await api<Json>('POST', `project/${p.id}/media/`, {
          token: other.token,
          headers: { 'x-forwarded-for': `10.1.4.${i}` },
          body: {
            response_id: rid(p.id, schema),
            kind: 'image',
            filename: 'a.png',
            content_type: 'image/png',
            size: 1000,
          },
        }),
      );
    }
    expect(asks.slice(0, 50).every((r) => r.status === 201)).toBe(true);
    expect(asks[50]).toMatchObject({
      status: 403,
      body: { detail: 'This link has reached its limit of files waiting to be uploaded.' },
    });
  });
});
