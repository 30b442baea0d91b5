// XLSForm repeats as levels of the project's hierarchy, through the API: a household form with a `members` repeat
// (and a `visits` repeat in it) makes a three-level project, each level's schema holding its form; responses of the
// members level are filed with their household as parent_id, and the members' categories are conditioned on the
// household's answer. Importing again: a file that would drop a level with responses is refused (409.3) and changes
// nothing; replacing forms that have responses needs confirm (409.2), with the changes of every level; when the
// hierarchy cannot be stored, the forms are rolled back and the new levels' schemas deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import postgres from 'postgres';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { client, login, point, type Api, type Session } from './helpers.js';

type Json = Record<string, any>;

let t: TestStack;
let api: Api;
let owner: Session;
let db: postgres.Sql;

beforeAll(async () => {
  t = await startTestStack();
  api = client(t);
  owner = await login(api, t.demo.username, t.demo.password);
  db = postgres(t.infra.databaseUrl, { max: 2, onnotice: () => undefined });
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
let counter = 0;
const rid = (p: number, s: number) => `${p}-${s}-1-rep-${Date.now()}-${++counter}`;

/** The household XLSForm: `members` repeats inside the household; `visits` (when asked for) inside `members`. */
async function household(opts: { visits: boolean; phone?: boolean }): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const survey = wb.addWorksheet('survey');
  const rows = [
    ['type', 'name', 'label', 'relevant', 'required', 'repeat_count'],
    ['text', 'hh_name', 'Household name', '', 'yes', ''],
    ['integer', 'hh_size', 'People living here', '', '', ''],
    ['begin repeat', 'members', 'Members', '${hh_size} > 0', '', '${hh_size}'],
    ['text', 'm_name', 'Name', '', 'yes', ''],
    ['integer', 'm_age', 'Age', '', '', ''],
    ...(opts.phone ? [['text', 'm_phone', 'Phone', '', '', '']] : []),
    ...(opts.visits
      ? [
          ['begin repeat', 'visits', 'Visits', '', '', ''],
          ['date', 'v_date', 'Visit date', '', '', ''],
          ['end repeat', '', '', '', '', ''],
        ]
      : []),
    ['end repeat', '', '', '', '', ''],
    ['text', 'hh_comment', 'Comment', '', '', ''],
  ];
  for (const r of rows) survey.addRow(r);
  wb.addWorksheet('choices').addRow(['list_name', 'name', 'label']);
  const settings = wb.addWorksheet('settings');
  settings.addRow(['form_title']);
  settings.addRow(['Household survey']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(projectId: number, content: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: XLSX }), 'household.xlsx');
  const r = await api<{ file_id: string }>('POST', `project/${projectId}/upload/`, { token: owner.access, form });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.file_id;
}
const convert = async (projectId: number, content: Buffer, confirm = false) =>
  api<Json>('POST', `project/${projectId}/create-form-from-upload/`, {
    token: owner.access,
    body: { file_identifier: await upload(projectId, content), ...(confirm ? { confirm } : {}) },
  });
const hierarchyOf = async (projectId: number) =>
  (await api<Json>('GET', `project/${projectId}/`, { token: owner.access })).body.project_hierarchy as Json[];
const formOf = async (schemaId: number) =>
  (await api<Json>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body;
const codes = (form: Json) =>
  Object.values(form.entities.items as Record<string, Json>)
    .map((i) => i.codeName as string)
    .sort();
const itemId = (form: Json, code: string) =>
  Number(Object.values(form.entities.items as Record<string, Json>).find((i) => i.codeName === code)!.id);

describe('an XLSForm with repeats', () => {
  it('makes a level of the hierarchy per nested repeat, whose responses are child responses', async () => {
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Repeats', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const first = p.project_hierarchy[0].schema_id as number;

    const made = await convert(p.id, await household({ visits: true }));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.summary).toBe('Imported 6 questions with 1 loss.');
    expect(made.body.notes).toEqual([
      {
        sheet: 'survey',
        row: 4,
        column: 'repeat_count',
        message: expect.stringContaining('The repeat_count "${hh_size}" is not kept'),
      },
    ]);
    // The first level keeps its schema; members and visits are levels 1 and 2, named after their repeats.
    const levels = await hierarchyOf(p.id);
    expect(levels.map((l) => [l.level, l.name])).toEqual([
      [0, p.project_hierarchy[0].name],
      [1, 'Members'],
      [2, 'Visits'],
    ]);
    expect(levels[0]!.schema_id).toBe(first);
    const [, members, visits] = levels.map((l) => l.schema_id as number);
    expect(made.body.schema).toMatchObject({ id: first, level: 0, name: 'Household survey' });
    expect(made.body.levels.map((l: Json) => [l.id, l.level, l.name])).toEqual([
      [members, 1, 'Members'],
      [visits, 2, 'Visits'],
    ]);
    const home = await formOf(first);
    const member = await formOf(members!);
    const visit = await formOf(visits!);
    expect(codes(home)).toEqual(['hh_comment', 'hh_name', 'hh_size']);
    expect(codes(member)).toEqual(['m_age', 'm_name']);
    expect(codes(visit)).toEqual(['v_date']);
    // The repeat's relevance: each category of the members' form tests the household's answer, by its schema id.
    for (const id of member.form as number[]) {
      expect(member.entities.blocks[id].conditions).toEqual([
        { itemId: itemId(home, 'hh_size'), schemaId: first, condition: { $gt: 0 }, finalized: true },
      ]);
    }
    const project = await api<Json>('GET', `project/${p.id}/`, { token: owner.access });
    expect(project.body.is_hierarchical).toBe(true);

    // A household and two of its members, filed through the API with the household as their parent.
    const up = (b: Json) => api<Json>('POST', `project/${p.id}/response/`, { token: owner.access, body: b });
    const hh = rid(p.id, first);
    expect(
      (
        await up({
          sampler_schema: first,
          response_id: hh,
          data: { '0': { [itemId(home, 'hh_name')]: 'Ndlovu', [itemId(home, 'hh_size')]: 2 } },
        })
      ).status,
    ).toBe(201);
    const names = ['Thandi', 'Sipho'];
    const kids: string[] = [];
    for (const [i, name] of names.entries()) {
      const id = rid(p.id, members!);
      kids.push(id);
      const r = await up({
        sampler_schema: members,
        response_id: id,
        parent_id: hh,
        data: { '0': { [itemId(member, 'm_name')]: name, [itemId(member, 'm_age')]: 30 + i } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toMatchObject({ parent_id: hh, ancestors: [hh] });
    }
    // A member needs its household.
    expect(
      await up({
        sampler_schema: members,
        response_id: rid(p.id, members!),
        data: { '0': { [itemId(member, 'm_name')]: 'Nobody' } },
      }),
    ).toMatchObject({ status: 400, body: { parent_id: expect.any(Array) } });
    const visited = await up({
      sampler_schema: visits,
      response_id: rid(p.id, visits!),
      parent_id: kids[0],
      data: { '0': { [itemId(visit, 'v_date')]: '2026-11-20' } },
    });
    expect(visited).toMatchObject({ status: 201, body: { ancestors: [hh, kids[0]] } });
    expect(
      (await api<Json>('GET', `project/${p.id}/response/single/${hh}/`, { token: owner.access })).body.children_count,
    ).toBe(2);

    // A file without the visits level would remove a level with responses: refused, nothing changed.
    const dropping = await convert(p.id, await household({ visits: false }), true);
    expect(dropping.status, JSON.stringify(dropping.body)).toBe(409);
    expect(dropping.body.detail).toContain(
      'would remove the level "Visits" (level 3 of the hierarchy), which already has responses.',
    );
    expect(await hierarchyOf(p.id)).toEqual(levels);
    for (const [id, before] of [
      [first, home],
      [members, member],
      [visits, visit],
    ] as const)
      expect((await formOf(id!)).revision).toBe(before.revision);

    // Replacing forms with responses: 409.2 listing the changes of every level, then confirmed.
    const changed = await household({ visits: true, phone: true });
    const unconfirmed = await convert(p.id, changed);
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.detail).toMatch(/^This form has 4 responses: replacing it changes 1 question\./);
    expect(unconfirmed.body.changes).toEqual({ 'Members/m_phone': ['added', 'open'] });
    expect((await formOf(members!)).revision).toBe(member.revision);
    const confirmed = await convert(p.id, changed, true);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await hierarchyOf(p.id)).toEqual(levels);
    expect(codes(await formOf(members!))).toEqual(['m_age', 'm_name', 'm_phone']);

    // The first level's XLSForm holds the lower levels as nested repeats: imported into another project, it makes
    // the same three levels.
    const file = await fetch(`${t.baseUrl}/api/samplerschema/${first}/xlsform/`, {
      headers: { authorization: `JWT ${owner.access}` },
    });
    expect(file.status).toBe(200);
    const other = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Repeats again', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const again = await convert(other.id, Buffer.from(await file.arrayBuffer()));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.notes).toEqual([]);
    expect((await hierarchyOf(other.id)).map((l) => [l.level, l.name])).toEqual([
      [0, other.project_hierarchy[0].name],
      [1, 'Members'],
      [2, 'Visits'],
    ]);
    expect(again.body.levels.map(codes)).toEqual([['m_age', 'm_name', 'm_phone'], ['v_date']]);
    // A hierarchy naming another project's schema is still refused.
    const foreign = await api<Json>('POST', `project/${other.id}/hierarchy/`, {
      token: owner.access,
      body: {
        is_hierarchical: true,
        project_hierarchy: [
          ...(await hierarchyOf(other.id)).slice(0, 2),
          { level: 2, name: 'Visits', schema_id: visits },
        ],
      },
    });
    expect(foreign).toMatchObject({
      status: 400,
      body: { project_hierarchy: ['No schema of this project has this id.'] },
    });
  });

  it('leaves the forms and the hierarchy as they were when the projects service fails to set the hierarchy', async () => {
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Refused', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const first = p.project_hierarchy[0].schema_id as number;
    const before = await formOf(first);
    const schemas = async () =>
      (
        await db<
          { id: number }[]
        >`select id::int as id from forms.sampler_schemas where project_id = ${p.id} and not deleted order by id`
      ).map((r) => r.id);
    // The projects database refuses to store this project's hierarchy (a trigger, as a failing write would).
    await db.unsafe(
      `create or replace function projects.refuse_hierarchy_for_test() returns trigger language plpgsql as $$ begin raise exception 'hierarchy refused by the test'; end $$`,
    );
    await db.unsafe(
      `create trigger refuse_hierarchy_for_test before update of project_hierarchy on projects.projects for each row when (new.id = ${Number(p.id)}) execute function projects.refuse_hierarchy_for_test()`,
    );
    try {
      const r = await convert(p.id, await household({ visits: true }));
      expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(500);
      // The first level's form was saved in the transaction that was rolled back; the new levels' schemas are gone.
      expect(await hierarchyOf(p.id)).toEqual(p.project_hierarchy);
      expect(await formOf(first)).toEqual(before);
      expect(await schemas()).toEqual([first]);
    } finally {
      await db.unsafe('drop trigger refuse_hierarchy_for_test on projects.projects');
      await db.unsafe('drop function projects.refuse_hierarchy_for_test()');
    }
    // The same file goes in once the hierarchy can be stored.
    const r = await convert(p.id, await household({ visits: true }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await hierarchyOf(p.id)).map((l) => l.name)).toEqual([p.project_hierarchy[0].name, 'Members', 'Visits']);
    expect(await schemas()).toHaveLength(3);
  });

  it('leaves the hierarchy alone for a form without repeats', async () => {
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Flat', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const wb = new ExcelJS.Workbook();
    const survey = wb.addWorksheet('survey');
    for (const r of [
      ['type', 'name', 'label'],
      ['text', 'a', 'A'],
    ])
      survey.addRow(r);
    const r = await convert(p.id, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.levels).toEqual([]);
    expect(await hierarchyOf(p.id)).toEqual(p.project_hierarchy);
  });
});
