// Spec 001 responses through the API: upload (save, complete, uncomplete) validated with packages/sampler,
// idempotency by response_id, lock, delete, hierarchy, longitudinal lookups, geotag history, reading with the
// filter model and the caller's scope, collection links, media, and the JetStream stream of accepted changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import sharp from 'sharp';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem, type SchemaBody } from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { results as resultsProto } from '@fieldwork/proto';
import { createClient } from '@fieldwork/service-kit';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

let t: TestStack;
let api: Api;
let owner: Session;
let db: postgres.Sql;
const pass = 'responses pass 1';

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

type Json = Record<string, any>;

/** A household form: adults (number 0-20, required), fuel (choice), double (calculated), note (open), photo (image). */
function householdForm() {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
  let body = updateItem(adults.body, adults.id, {
    options: {
      ...adults.body.entities.items[adults.id]!.options,
      isRequiredQuestion: true,
      minimum: { active: true, value: 0 },
      maximum: { active: true, value: 20 },
    },
  });
  const fuel = addItem(body, b.id, 'choice', 'en', 'Fuel');
  const wood = addChoice(fuel.body, fuel.id, 'en', 'Wood');
  const gas = addChoice(wood.body, fuel.id, 'en', 'Gas');
  const double = addItem(gas.body, b.id, 'calculated', 'en', 'Double');
  body = updateItem(double.body, double.id, {
    options: { ...double.body.entities.items[double.id]!.options, formula: `Q${b.id}_${adults.id} * 2` },
  });
  const note = addItem(body, b.id, 'open', 'en', 'Note');
  const photo = addItem(note.body, b.id, 'image', 'en', 'Photo');
  return {
    body: photo.body,
    ids: {
      adults: adults.id,
      fuel: fuel.id,
      double: double.id,
      note: note.id,
      photo: photo.id,
      wood: wood.id,
      gas: gas.id,
    },
  };
}

async function projectWithForm(name: string, body: SchemaBody, extra: Json = {}) {
  const p = (
    await api<Json>('POST', 'project/', {
      token: owner.access,
      body: { name, organization_pk: owner.organization.id, geotag: point(0, 0), ...extra },
    })
  ).body;
  const schema = p.sampler_schemas[0].id as number;
  const saved = await api('PUT', `samplerschema/${schema}/`, { token: owner.access, body: { ...body, revision: 1 } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { p, schema };
}

async function projectUser(projectId: number, email: string, roles: Json): Promise<Session> {
  const r = await api<{ user_id: number }>('POST', 'api/v1/project-user/', {
    token: owner.access,
    body: { email, password: pass, projectId, ...roles },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await acceptInvitation(t, api, email, pass);
  return login(api, email, pass);
}

let counter = 0;
const rid = (p: number, s: number) => `${p}-${s}-1-dev-${Date.now()}-${++counter}`;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

describe('upload', () => {
  it('stores a response once, recomputes calculations, ignores older copies and skips unmodified ones', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Upload A', body);
    const id = rid(p.id, schema);
    const payload = {
      project: p.id,
      sampler_schema: schema,
      device_id: 'dev-1',
      response_id: id,
      site: p.sites[0].id,
      time_updated: iso(60_000),
      data: { '0': { [ids.adults]: 3, [ids.fuel]: [ids.wood], [ids.double]: 999, [ids.note]: 'blue door' } },
    };
    const first = await api<Json>('POST', `project/${p.id}/response/`, { token: owner.access, body: payload });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      upload_status: 'stored',
      response_id: id,
      project: p.id,
      sampler_schema: schema,
      user: owner.user.id,
      site_id: p.sites[0].id,
      completed: false,
      deleted: false,
      locked: false,
      is_valid: true,
      version: 1,
      // The calculated answer is the server's, not the 999 sent.
      data: { '0': { [ids.adults]: 3, [ids.fuel]: [ids.wood], [ids.double]: 6, [ids.note]: 'blue door' } },
    });
    // The same copy again: one response, unmodified.
    const again = await api<Json>('POST', `project/${p.id}/response/`, { token: owner.access, body: payload });
    expect(again).toMatchObject({ status: 200, body: { upload_status: 'unmodified', version: 1 } });
    // An older copy is ignored, not an error.
    const older = await api<Json>('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: { ...payload, time_updated: iso(3_600_000), data: { '0': { [ids.adults]: 1 } } },
    });
    expect(older).toMatchObject({
      status: 200,
      body: { upload_status: 'ignored', version: 1, data: { '0': { [ids.adults]: 3 } } },
    });
    // A newer one wins.
    const newer = await api<Json>('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: { ...payload, time_updated: iso(0), data: { '0': { [ids.adults]: 4 } } },
    });
    expect(newer).toMatchObject({
      status: 200,
      body: { upload_status: 'stored', version: 2, data: { '0': { [ids.adults]: 4, [ids.double]: 8 } } },
    });
    expect((await db`select count(*)::int as n from responses.responses where response_id = ${id}`)[0]!.n).toBe(1);
    // No answered question: skipped, nothing stored.
    const empty = rid(p.id, schema);
    const none = await api<Json>('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: { ...payload, response_id: empty, data: { '0': { [ids.note]: '' } } },
    });
    expect(none).toMatchObject({ status: 200, body: { upload_status: 'unmodified', response_id: empty } });
    expect((await db`select count(*)::int as n from responses.responses where response_id = ${empty}`)[0]!.n).toBe(0);
  });

  it('refuses bad payloads with field errors and the record validity messages', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Upload B', body);
    const base = {
      sampler_schema: schema,
      device_id: 'd',
      response_id: rid(p.id, schema),
      data: { '0': { [ids.adults]: 2 } },
    };
    const post = (b: unknown, path = 'response/') =>
      api<Json>('POST', `project/${p.id}/${path}`, { token: owner.access, body: b });
    expect(await post({ ...base, data: { '0': { [ids.adults]: 21 } } })).toMatchObject({
      status: 400,
      body: { [`data.0.${ids.adults}`]: ['Ensure this value is less than or equal to 20.'] },
    });
    expect(await post({ ...base, data: { '0': { [ids.adults]: 'many' } } })).toMatchObject({
      status: 400,
      body: { [`data.0.${ids.adults}`]: ['Enter a number.'] },
    });
    expect(await post({ ...base, data: { '0': { [ids.fuel]: [ids.wood, ids.gas] } } })).toMatchObject({
      status: 400,
      body: { [`data.0.${ids.fuel}`]: ['Choose one answer only.'] },
    });
    expect(await post({ ...base, data: { '0': { [ids.fuel]: [12345] } } })).toMatchObject({
      status: 400,
      body: { [`data.0.${ids.fuel}`]: ['Choose among the choices of this question.'] },
    });
    expect(await post({ ...base, data: { '0': { 9999: 1 } } })).toMatchObject({
      status: 400,
      body: { 'data.0.9999': ['No question of this form has this id.'] },
    });
    expect(await post({ ...base, response_id: `999-${schema}-x` })).toMatchObject({
      status: 400,
      body: { response_id: [`The response id must start with ${p.id}-${schema}-.`] },
    });
    expect(await post({ ...base, project: p.id + 1000 })).toMatchObject({
      status: 400,
      body: { project: ['This response belongs to another project.'] },
    });
    expect(await post({ ...base, time_updated: '2999-01-01T00:00:00Z' })).toMatchObject({
      status: 400,
      body: { time_updated: ['Enter a valid time, not in the future.'] },
    });
    expect(await post({ ...base, data: 'nope' })).toMatchObject({ status: 400, body: { data: [expect.any(String)] } });
    expect(await post([1, 2])).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Send the request body as a JSON object.'] },
    });
    expect((await api('POST', `project/${p.id}/response/`, { token: owner.access, body: '{"broken' })).status).toBe(
      400,
    );
    // Another project's form.
    const other = await projectWithForm('Upload B2', body);
    expect(await post({ ...base, sampler_schema: other.schema })).toMatchObject({
      status: 400,
      body: { sampler_schema: ['This form does not belong to the project.'] },
    });
    // Complete needs the required question.
    const incomplete = { ...base, response_id: rid(p.id, schema), data: { '0': { [ids.note]: 'only a note' } } };
    expect(await post(incomplete, 'response/complete/')).toMatchObject({
      status: 400,
      body: { non_field_errors: ['All required questions must be answered to save this record.'] },
    });
    expect(await post(incomplete)).toMatchObject({ status: 201, body: { is_valid: false, completed: false } });
    const done = await post(
      { ...incomplete, time_updated: iso(0), data: { '0': { [ids.adults]: 1, [ids.note]: 'only a note' } } },
      'response/complete/',
    );
    expect(done).toMatchObject({
      status: 200,
      body: { is_valid: true, completed: true, time_completed: expect.any(String) },
    });
    const undone = await post(
      { ...incomplete, time_updated: iso(-10), data: { '0': { [ids.adults]: 1, [ids.note]: 'only a note' } } },
      'response/uncomplete/',
    );
    expect(undone).toMatchObject({ status: 200, body: { completed: false, time_completed: null } });
    // Nothing of the refused uploads was stored.
    expect((await db`select count(*)::int as n from responses.responses where project_id = ${p.id}`)[0]!.n).toBe(1);
    // No token, or a token of nobody.
    expect((await api('POST', `project/${p.id}/response/`, { body: base })).status).toBe(401);
  });

  it('checks every rule of every answer as the web form does, never requires a hidden question, and names each refused question', async () => {
    // A form with text rules, a multiselect with a choice count, and a follow-up category shown only for "Yes".
    const b = addBlock(newSchemaBody('S'), { en: 'Visit' });
    const code = addItem(b.body, b.id, 'open', 'en', 'Household code');
    const crops = addItem(code.body, b.id, 'choice', 'en', 'Crops');
    const maize = addChoice(crops.body, crops.id, 'en', 'Maize');
    const beans = addChoice(maize.body, crops.id, 'en', 'Beans');
    const rice = addChoice(beans.body, crops.id, 'en', 'Rice');
    const sick = addItem(rice.body, b.id, 'binary', 'en', 'Anyone sick?');
    const yes = addChoice(sick.body, sick.id, 'en', 'Yes');
    const no = addChoice(yes.body, sick.id, 'en', 'No');
    const follow = addBlock(no.body, { en: 'Illness' });
    const who = addItem(follow.body, follow.id, 'open', 'en', 'Who is sick?');
    let body = updateItem(who.body, code.id, {
      options: {
        isRequiredQuestion: true,
        minLength: { active: true, value: 6 },
        maxLength: { active: true, value: 6 },
        pattern: {
          active: true,
          value: '^[A-Z]{2}[0-9]{4}$',
          message: { en: 'Two capitals and four digits, like KE0042.' },
        },
      },
    });
    body = updateItem(body, crops.id, {
      options: { ...body.entities.items[crops.id]!.options, multiselect: true, maxChoices: { active: true, value: 2 } },
    });
    body = updateItem(body, who.id, { options: { ...body.entities.items[who.id]!.options, isRequiredQuestion: true } });
    body.entities.blocks[follow.id]!.conditions = [
      { itemId: sick.id, schemaId: 0, condition: [yes.id], finalized: true },
    ];
    const { p, schema } = await projectWithForm('Rules', body);
    const post = (data: Json, path = 'response/', id = rid(p.id, schema)) =>
      api<Json>('POST', `project/${p.id}/${path}`, {
        token: owner.access,
        body: { sampler_schema: schema, device_id: 'd', response_id: id, data: { '0': data } },
      });

    expect(await post({ [code.id]: 'KE42' })).toMatchObject({
      status: 400,
      body: { [`data.0.${code.id}`]: ['Ensure this field has at least 6 characters.'] },
    });
    expect(await post({ [code.id]: 'ke0042' })).toMatchObject({
      status: 400,
      body: { [`data.0.${code.id}`]: ['Two capitals and four digits, like KE0042.'] },
    });
    expect(await post({ [crops.id]: [maize.id, beans.id, rice.id] })).toMatchObject({
      status: 400,
      body: { [`data.0.${crops.id}`]: ['Choose at most 2 answers.'] },
    });
    // Completing names each unanswered required question that is shown, and only those.
    expect(await post({ [sick.id]: [yes.id] }, 'response/complete/')).toMatchObject({
      status: 400,
      body: {
        non_field_errors: ['All required questions must be answered to save this record.'],
        [`data.0.${code.id}`]: ['This question is required.'],
        [`data.0.${who.id}`]: ['This question is required.'],
      },
    });
    // "No": the illness category is hidden, its question is not required and its stale answer is not stored.
    const id = rid(p.id, schema);
    const done = await post(
      { [code.id]: 'KE0042', [sick.id]: [no.id], [who.id]: 'stale answer' },
      'response/complete/',
      id,
    );
    expect(done).toMatchObject({
      status: 201,
      body: { completed: true, is_valid: true, data: { '0': { [code.id]: 'KE0042', [sick.id]: [no.id] } } },
    });
    expect(done.body.data['0'][who.id]).toBeUndefined();
    // The same response sent twice (a retry after a lost answer) is stored once.
    const again = await post(
      { [code.id]: 'KE0042', [sick.id]: [no.id], [who.id]: 'stale answer' },
      'response/complete/',
      id,
    );
    expect(again).toMatchObject({ status: 200, body: { upload_status: 'unmodified', version: 1 } });
    expect((await db`select count(*)::int as n from responses.responses where project_id = ${p.id}`)[0]!.n).toBe(1);
  });

  it('refuses a form pattern that could backtrack without end, and checks answers against a slow pattern without holding the service', async () => {
    const b = addBlock(newSchemaBody('S'), { en: 'Text' });
    const q = addItem(b.body, b.id, 'open', 'en', 'Word');
    const withPattern = (pattern: string) =>
      updateItem(q.body, q.id, {
        options: { ...q.body.entities.items[q.id]!.options, pattern: { active: true, value: pattern } },
      });
    const p = (
      await api<Json>('POST', 'project/', {
        token: owner.access,
        body: { name: 'Patterns', organization_pk: owner.organization.id, geotag: point(0, 0) },
      })
    ).body;
    const schema = p.sampler_schemas[0].id as number;
    const nested = await api<Json>('PUT', `samplerschema/${schema}/`, {
      token: owner.access,
      body: { ...withPattern('^(a+)+$'), revision: 1 },
    });
    expect(nested).toMatchObject({
      status: 400,
      body: { rules: [expect.stringContaining('could take too long to check')] },
    });
    // Overlapping alternatives under one repetition pass the check but backtrack exponentially in a plain engine.
    expect(
      (
        await api('PUT', `samplerschema/${schema}/`, {
          token: owner.access,
          body: { ...withPattern('^(a|aa)*$'), revision: 1 },
        })
      ).status,
    ).toBe(200);
    const started = Date.now();
    const [slow, neighbour] = await Promise.all([
      api<Json>('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: {
          sampler_schema: schema,
          response_id: rid(p.id, schema),
          data: { '0': { [q.id]: `${'a'.repeat(9000)}!` } },
        },
      }),
      api('GET', `project/${p.id}/response/`, { token: owner.access }),
    ]);
    expect(slow).toMatchObject({
      status: 400,
      body: { [`data.0.${q.id}`]: ['Enter a value in the expected format.'] },
    });
    expect(neighbour.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("files a response under the collector's site, lets a collector with several sites choose one, and refuses any other site", async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Sites', body);
    const north = (
      await api<Json>('POST', `project/${p.id}/sites/`, {
        token: owner.access,
        body: { name: 'North', geotag: point(1, 1) },
      })
    ).body;
    const south = (
      await api<Json>('POST', `project/${p.id}/sites/`, {
        token: owner.access,
        body: { name: 'South', geotag: point(2, 2) },
      })
    ).body;
    const group = (
      await api<Json>('POST', `project/${p.id}/groups/`, {
        token: owner.access,
        body: { name: 'North Group', site: north.id },
      })
    ).body;
    const team = (
      await api<Json>('POST', `project/${p.id}/teams/`, {
        token: owner.access,
        body: { name: 'North Team', group: group.id },
      })
    ).body;
    const collector = await projectUser(p.id, 'col.sites@responses.test', { collector: true, team: team.id });
    const other = await projectWithForm('Sites elsewhere', body);
    const post = (who: Session, site: number | undefined) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: who.access,
        body: {
          sampler_schema: schema,
          response_id: rid(p.id, schema),
          ...(site ? { site } : {}),
          data: { '0': { [ids.adults]: 1 } },
        },
      });

    // The project tells each caller where they may file, their own site first.
    expect((await api<Json>('GET', `project/${p.id}/`, { token: collector.access })).body.collect_sites).toEqual([
      north.id,
    ]);
    expect((await api<Json>('GET', `project/${p.id}/`, { token: owner.access })).body.collect_sites).toEqual(
      expect.arrayContaining([p.sites[0].id, north.id, south.id]),
    );
    // No site said: the collector's own site, group and team.
    expect(await post(collector, undefined)).toMatchObject({
      status: 201,
      body: { site_id: north.id, group_id: group.id, team_id: team.id },
    });
    expect(await post(collector, south.id)).toMatchObject({
      status: 400,
      body: { site: ['You cannot add responses to this site.'] },
    });
    expect(await post(collector, other.p.sites[0].id)).toMatchObject({
      status: 400,
      body: { site: ['You cannot add responses to this site.'] },
    });
    expect(await post(owner, other.p.sites[0].id)).toMatchObject({
      status: 400,
      body: { site: ['You cannot add responses to this site.'] },
    });
    // A second site (read_sites): the collector chooses; a site not their own takes no group or team of theirs.
    const granted = await api('POST', 'project-users/permissions/', {
      token: owner.access,
      body: { projectId: p.id, userIds: [collector.user.id], read_sites: [south.id] },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    await new Promise((r) => setTimeout(r, 15_500)); // the responses service keeps a caller's access for up to 15 s
    expect((await api<Json>('GET', `project/${p.id}/`, { token: collector.access })).body.collect_sites).toEqual([
      north.id,
      south.id,
    ]);
    expect(await post(collector, south.id)).toMatchObject({
      status: 201,
      body: { site_id: south.id, group_id: null, team_id: null },
    });
    expect(await post(owner, south.id)).toMatchObject({ status: 201, body: { site_id: south.id } });
  });

  it('keeps lock, delete and status changes to those allowed, and the geotag history at 10', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Upload C', body);
    const alice = await projectUser(p.id, 'alice.c@responses.test', { collector: true });
    const bob = await projectUser(p.id, 'bob.c@responses.test', { collector: true });
    const dm = await projectUser(p.id, 'dm.c@responses.test', { data_manager: true });
    const researcher = await projectUser(p.id, 'res.c@responses.test', { researcher: true });
    const id = rid(p.id, schema);
    let n = 0;
    const send = (who: Session, extra: Json = {}, path = 'response/') =>
      api<Json>('POST', `project/${p.id}/${path}`, {
        token: who.access,
        body: {
          sampler_schema: schema,
          response_id: id,
          device_id: 'a',
          time_updated: iso(100_000 - ++n * 10),
          data: { '0': { [ids.adults]: n % 20 } },
          ...extra,
        },
      });
    expect(await send(alice)).toMatchObject({ status: 201, body: { user: alice.user.id } });
    expect((await send(bob)).status).toBe(403);
    expect((await send(researcher)).status).toBe(403);
    expect(await send(alice, { locked: true })).toMatchObject({ status: 200, body: { locked: true } });
    // Locked: the data manager may not change it; the creator may.
    expect(await send(dm)).toMatchObject({
      status: 400,
      body: {
        non_field_errors: [
          "This response is locked: only a mobile manager or the response's own creator may change it.",
        ],
      },
    });
    expect(await send(alice)).toMatchObject({ status: 200 });
    // A mobile manager may unlock.
    await db`update auth.users set is_mobilemanager = true where id = ${dm.user.id}`;
    expect(await send(dm, { locked: false })).toMatchObject({ status: 200, body: { locked: false } });
    // Delete and undelete; the data manager completes it.
    expect(await send(alice, { deleted: true })).toMatchObject({ status: 200, body: { deleted: true } });
    expect(await send(dm, { deleted: false })).toMatchObject({ status: 200, body: { deleted: false } });
    expect(await send(dm, { archived: true }, 'response/complete/')).toMatchObject({
      status: 200,
      body: { completed: true, archived: true },
    });
    // Twelve moves keep the last ten points.
    for (let i = 0; i < 12; i++) expect((await send(alice, { geotag: point(10 + i, 20 + i) })).status).toBe(200);
    const last = await api<Json>('GET', `project/${p.id}/response/single/${id}/`, { token: owner.access });
    expect(last.body.geotag).toMatchObject({ type: 'Point', coordinates: [31, 21] });
    expect(last.body.geotag_history).toHaveLength(10);
    expect(last.body.geotag_history[0].coordinates).toEqual([22, 12]);
  });

  it('links responses of lower levels to their parent and ancestors', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Hierarchy', body);
    const h = await api<Json>('POST', `project/${p.id}/hierarchy/`, {
      token: owner.access,
      body: {
        is_hierarchical: true,
        project_hierarchy: [
          p.project_hierarchy[0],
          { level: 1, name: 'Members', schema_id: 0 },
          { level: 2, name: 'Visits', schema_id: 0 },
        ],
      },
    });
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    const [, members, visits] = h.body.project_hierarchy.map((l: Json) => l.schema_id as number);
    const member = addItem(addBlock(newSchemaBody('S'), { en: 'Member' }).body, 1, 'open', 'en', 'Name');
    for (const s of [members, visits])
      expect(
        (await api('PUT', `samplerschema/${s}/`, { token: owner.access, body: { ...member.body, revision: 1 } }))
          .status,
      ).toBe(200);
    const home = rid(p.id, schema);
    const up = (b: Json) => api<Json>('POST', `project/${p.id}/response/`, { token: owner.access, body: b });
    expect((await up({ sampler_schema: schema, response_id: home, data: { '0': { [ids.adults]: 2 } } })).status).toBe(
      201,
    );
    const m = `${p.id}-${members}-1-d-1`;
    expect(await up({ sampler_schema: members, response_id: m, data: { '0': { [member.id]: 'Ana' } } })).toMatchObject({
      status: 400,
      body: { parent_id: ['A response of a lower level needs its parent response.'] },
    });
    expect(
      await up({ sampler_schema: members, response_id: m, parent_id: 'nope', data: { '0': { [member.id]: 'Ana' } } }),
    ).toMatchObject({
      status: 400,
      body: { parent_id: ['The parent response was not found in this project.'] },
    });
    expect(
      await up({ sampler_schema: members, response_id: m, parent_id: home, data: { '0': { [member.id]: 'Ana' } } }),
    ).toMatchObject({
      status: 201,
      body: { parent_id: home, ancestors: [home] },
    });
    const v = `${p.id}-${visits}-1-d-1`;
    expect(
      await up({ sampler_schema: visits, response_id: v, parent_id: home, data: { '0': { [member.id]: 'x' } } }),
    ).toMatchObject({
      status: 400,
      body: { parent_id: ['The parent response must be of the level above this form.'] },
    });
    expect(
      await up({ sampler_schema: visits, response_id: v, parent_id: m, data: { '0': { [member.id]: 'x' } } }),
    ).toMatchObject({ status: 201, body: { ancestors: [home, m] } });
    expect(
      await up({
        sampler_schema: schema,
        response_id: rid(p.id, schema),
        parent_id: home,
        data: { '0': { [ids.adults]: 1 } },
      }),
    ).toMatchObject({
      status: 400,
      body: { parent_id: ['Only responses of a lower level have a parent response.'] },
    });
    const got = await api<Json>('GET', `project/${p.id}/response/single/${home}/`, { token: owner.access });
    expect(got.body.children_count).toBe(1);
  });

  it('keeps longitudinal records unique by their identifier and finds them by it', async () => {
    const body = newSchemaBody('L');
    const { p, schema } = await projectWithForm('Cohort', body, { project_type: 'L' });
    const up = (response_id: string, key: number, name: string) =>
      api<Json>('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: { sampler_schema: schema, response_id, data: { '0': { 1: key, 2: name } } },
      });
    expect(await up(rid(p.id, schema), 1001, 'Ana')).toMatchObject({
      status: 201,
      body: { lookup_answers: { 1: 1001, 2: 'Ana' }, display_name: '1001 Ana' },
    });
    expect(await up(rid(p.id, schema), 1001, 'Another Ana')).toMatchObject({
      status: 409,
      body: { detail: 'A record with this identifier already exists.' },
    });
    expect((await up(rid(p.id, schema), 1002, 'Ben')).status).toBe(201);
    const found = await api<Json>('GET', `project/${p.id}/response/lookup/?schema=${schema}&key=1001`, {
      token: owner.access,
    });
    expect(found).toMatchObject({ status: 200, body: { count: 1, results: [{ lookup_answers: { 2: 'Ana' } }] } });
    expect(
      (await api<Json>('GET', `project/${p.id}/response/lookup/?schema=${schema}&key=7`, { token: owner.access })).body
        .count,
    ).toBe(0);
  });
});

describe('reading', () => {
  it('pages the full fetch, filters chunks with the filter model, and shows each caller only what they may see', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Reading', body);
    const site2 = (
      await api<Json>('POST', `project/${p.id}/sites/`, {
        token: owner.access,
        body: { name: 'North', geotag: point(1, 1) },
      })
    ).body;
    const collector = await projectUser(p.id, 'col.r@responses.test', { collector: true });
    const researcher = await projectUser(p.id, 'res.r@responses.test', { researcher: true });
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const who = i < 4 ? collector : owner;
      const r = await api<Json>('POST', `project/${p.id}/response/${i % 3 === 0 ? 'complete/' : ''}`, {
        token: who.access,
        body: {
          sampler_schema: schema,
          response_id: rid(p.id, schema),
          // A collector files under their own site only; the owner under any.
          site: i % 2 === 0 || who === collector ? p.sites[0].id : site2.id,
          time_created: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
          data: {
            '0': {
              [ids.adults]: i,
              [ids.fuel]: [i % 2 === 0 ? ids.wood : ids.gas],
              [ids.note]: i === 5 ? 'Green House' : 'plain',
            },
          },
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      made.push(r.body.response_id);
    }
    await api('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: {
        sampler_schema: schema,
        response_id: made[11],
        deleted: true,
        time_updated: iso(0),
        data: { '0': { [ids.adults]: 11 } },
      },
    });

    // Full fetch in batches.
    const first = await api<Json>('GET', `project/${p.id}/response/?limit=5`, { token: owner.access });
    expect(first.body.results).toHaveLength(5);
    const next = await api<Json>('GET', `project/${p.id}/response/from/${first.body.results[4].id}/?limit=5`, {
      token: owner.access,
    });
    const rest = await api<Json>('GET', `project/${p.id}/response/from/${next.body.results[4].id}/?limit=5`, {
      token: owner.access,
    });
    expect([...first.body.results, ...next.body.results, ...rest.body.results].map((r: Json) => r.response_id)).toEqual(
      made,
    );
    expect((await api('GET', `project/${p.id}/response/?limit=abc`, { token: owner.access })).status).toBe(400);

    const chunk = (filters: Json, who = owner, q = 'page=1&page_size=50') =>
      api<Json>('POST', `project/${p.id}/response-chunk/filter/?${q}`, {
        token: who.access,
        body: { filters, currentSamplerSchema: schema },
      });
    expect((await chunk({})).body.count).toBe(11);
    expect((await chunk({ showDeleted: true })).body.count).toBe(12);
    expect((await chunk({ showOnlyCompleted: true })).body.count).toBe(4);
    expect((await chunk({ site: site2.id })).body.count).toBe(3);
    expect((await chunk({ collector: collector.user.id })).body.count).toBe(4);
    expect((await chunk({ createdBy: collector.user.id })).body.count).toBe(4);
    expect((await chunk({ createdBy: -1 })).body.count).toBe(11);
    const jan = (d: number) => Date.UTC(2026, 0, d) / 1000;
    expect(
      (
        await chunk({
          date_ranges: [{ entity: 'response', dateType: 'time_created', startDateTime: jan(3), endDateTime: jan(6) }],
        })
      ).body.count,
    ).toBe(4);
    expect((await chunk({ filters: [{ question: ids.adults, operator: '>=', value: 8 }] })).body.count).toBe(3);
    expect((await chunk({ filters: [{ question: ids.adults, operator: '==', value: '3' }] })).body.count).toBe(1);
    expect((await chunk({ filters: [{ question: ids.fuel, operator: 'in', value: [ids.gas] }] })).body.count).toBe(5);
    expect(
      (await chunk({ filters: [{ question: ids.note, operator: 'contains', value: 'green' }] })).body.results.map(
        (r: Json) => r.response_id,
      ),
    ).toEqual([made[5]]);
    const paged = await chunk({}, owner, 'page=2&page_size=5');
    expect(paged.body).toMatchObject({ count: 11 });
    expect(paged.body.results).toHaveLength(5);
    expect(await chunk({ filters: [{ question: ids.adults, operator: 'LIKE', value: 1 }] })).toMatchObject({
      status: 400,
      body: { 'filters.filters.0.operator': [expect.any(String)] },
    });
    expect(await chunk({ date_ranges: [{ dateType: 'time_exploded' }] })).toMatchObject({ status: 400 });

    // The collector sees their own; the researcher everything.
    expect((await chunk({}, collector)).body.count).toBe(4);
    expect((await api<Json>('GET', `project/${p.id}/response/`, { token: collector.access })).body.count).toBe(4);
    expect((await chunk({}, researcher)).body.count).toBe(11);
    expect((await api('GET', `project/${p.id}/response/single/${made[8]}/`, { token: collector.access })).status).toBe(
      404,
    );
    expect((await api('GET', `project/${p.id}/response/single/${made[1]}/`, { token: collector.access })).status).toBe(
      200,
    );
    expect((await api('GET', `project/${p.id}/response/single/nope/`, { token: owner.access })).status).toBe(404);

    // Open responses by mail: to the caller's own address only (never project data to an address of their choosing).
    expect(
      await api('POST', `project/${p.id}/open-response/email/`, {
        token: owner.access,
        body: { send_to: t.demo.email.toUpperCase() },
      }),
    ).toMatchObject({
      status: 200,
      body: { open: 7 },
    });
    expect(
      await api('POST', `project/${p.id}/open-response/email/`, {
        token: owner.access,
        body: { send_to: 'lead@responses.test' },
      }),
    ).toMatchObject({
      status: 400,
      body: { send_to: ['Open responses can only be mailed to your own address.'] },
    });
    expect(
      await api('POST', `project/${p.id}/open-response/email/`, {
        token: owner.access,
        body: { send_to: 'not an email' },
      }),
    ).toMatchObject({ status: 400 });
  });

  it("reads a referenced project's responses, and no one else's", async () => {
    const { body, ids } = householdForm();
    const registry = await projectWithForm('Registry R', body);
    const main = await projectWithForm('Main R', body);
    const r = rid(registry.p.id, registry.schema);
    expect(
      (
        await api('POST', `project/${registry.p.id}/response/`, {
          token: owner.access,
          body: { sampler_schema: registry.schema, response_id: r, data: { '0': { [ids.adults]: 5 } } },
        })
      ).status,
    ).toBe(201);
    expect(
      (await api('GET', `project/${main.p.id}/references/${registry.p.id}/responses/`, { token: owner.access })).status,
    ).toBe(404);
    await api('PATCH', `project/${registry.p.id}/`, { token: owner.access, body: { is_entity: true } });
    await api('POST', `project/${main.p.id}/references/`, {
      token: owner.access,
      body: { id: registry.p.id, action: 'add' },
    });
    const got = await api<Json>('GET', `project/${main.p.id}/references/${registry.p.id}/responses/`, {
      token: owner.access,
    });
    expect(got).toMatchObject({ status: 200, body: { count: 1, results: [{ response_id: r }] } });
  });
});

describe('collection links', () => {
  it('lets a link collect in its project and nothing else, until it expires', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Links C', body);
    const other = await projectWithForm('Links other', body);
    const s = await api<Json>('POST', `project/${p.id}/surveys/`, {
      token: owner.access,
      body: { expiry_date: '2099-01-01T00:00:00Z' },
    });
    const open = await api<Json>('POST', `collect/${s.body.token}/`, {
      body: { token: s.body.token, fingerprint: 'fp-1', email: 'resp@example.org' },
    });
    expect(open).toMatchObject({
      status: 200,
      body: {
        proceed_unauthenticated: true,
        token: expect.any(String),
        project_details: { id: p.id, name: 'Links C' },
        sampler_schemas: [{ id: schema }],
      },
    });
    const survey = await api<Json>('GET', `collect/survey/${s.body.token}/`);
    expect(survey).toMatchObject({ status: 200, body: { sampler_schemas: [{ id: schema }] } });
    const token = open.body.token as string;
    // The respondent loads the form and uploads.
    expect(await api<Json>('GET', `samplerschema/${schema}/`, { token })).toMatchObject({
      status: 200,
      body: { id: schema },
    });
    const id = rid(p.id, schema);
    const up = await api<Json>('POST', `project/${p.id}/response/complete/`, {
      token,
      body: { sampler_schema: schema, response_id: id, device_id: 'fp-1', data: { '0': { [ids.adults]: 2 } } },
    });
    expect(up).toMatchObject({ status: 201, body: { user: null, email: 'resp@example.org', completed: true } });
    // Nothing else: not the list, not another project, not the project, not another form.
    for (const [method, path] of [
      ['GET', `project/${p.id}/response/`],
      ['GET', `project/${p.id}/response/single/${id}/`],
      ['GET', `project/${p.id}/`],
      ['GET', `samplerschema/${other.schema}/`],
      ['GET', 'organization/'],
    ] as const) {
      expect((await api(method, path, { token })).status, `${method} ${path}`).toBeGreaterThanOrEqual(401);
      expect((await api(method, path, { token })).status, `${method} ${path}`).toBeLessThan(405);
    }
    const elsewhere = await api<Json>('POST', `project/${other.p.id}/response/`, {
      token,
      body: {
        sampler_schema: other.schema,
        response_id: rid(other.p.id, other.schema),
        data: { '0': { [ids.adults]: 2 } },
      },
    });
    expect([403, 404]).toContain(elsewhere.status);
    // Another respondent's response cannot be overwritten through a link.
    const theirs = await api<Json>('POST', `project/${p.id}/response/`, {
      token,
      body: {
        sampler_schema: schema,
        response_id: id,
        device_id: 'fp-2',
        time_updated: iso(-5),
        data: { '0': { [ids.adults]: 9 } },
      },
    });
    expect(theirs.status).toBe(403);
    // Expired links.
    await db`update projects.surveys set expiry_date = now() - interval '1 day' where id = ${s.body.id}`;
    expect(await api('POST', `collect/${s.body.token}/`, { body: { token: s.body.token } })).toMatchObject({
      status: 400,
      body: { non_field_errors: ['This link has expired.'] },
    });
    expect(await api('GET', `collect/survey/${s.body.token}/`)).toMatchObject({
      status: 400,
      body: { non_field_errors: ['This link has expired.'] },
    });
    expect((await api('GET', 'collect/survey/no-such-token-here/')).status).toBe(404);
    expect(await api('POST', `collect/${s.body.token}/`, { body: { email: 'x'.repeat(300) } })).toMatchObject({
      status: 400,
    });
  });
});

describe('media', () => {
  it('uploads images and signatures through presigned URLs with limits, thumbnails and pending counts', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Media', body);
    const id = rid(p.id, schema);
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const ask = (b: Json) =>
      api<Json>('POST', `project/${p.id}/media/`, {
        token: owner.access,
        body: {
          response_id: id,
          kind: 'image',
          filename: 'door.png',
          content_type: 'image/png',
          size: png.length,
          ...b,
        },
      });
    const m = await ask({});
    expect(m).toMatchObject({
      status: 201,
      body: {
        media_id: expect.any(String),
        key: expect.stringMatching(new RegExp(`^images/${p.id}/${id}/[0-9a-f-]{36}-door\\.png$`)),
      },
    });
    // Pending until completed.
    const saved = await api<Json>('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: { sampler_schema: schema, response_id: id, data: { '0': { [ids.adults]: 1, [ids.photo]: m.body.key } } },
    });
    expect(saved.body.media_uploading_count).toBe(1);
    expect(
      (await api(`POST`, `project/${p.id}/media/${m.body.media_id}/complete/`, { token: owner.access })).status,
    ).toBe(400);
    const put = await fetch(m.body.upload_url, { method: 'PUT', body: png, headers: { 'content-type': 'image/png' } });
    expect(put.status).toBeLessThan(300);
    const done = await api<Json>('POST', `project/${p.id}/media/${m.body.media_id}/complete/`, { token: owner.access });
    expect(done).toMatchObject({
      status: 200,
      body: {
        size: png.length,
        content_type: 'image/png',
        media_uploading_count: 0,
        thumbnail_url: expect.any(String),
      },
    });
    const thumb = Buffer.from(await (await fetch(done.body.thumbnail_url)).arrayBuffer());
    expect(await sharp(thumb).metadata()).toMatchObject({ width: 100, height: 100, format: 'jpeg' });
    expect(
      (await api<Json>('GET', `project/${p.id}/response/single/${id}/`, { token: owner.access })).body
        .media_uploading_count,
    ).toBe(0);

    // A signature, and the refusals.
    const sig = await ask({ kind: 'signature', filename: '../../etc/passwd.png' });
    expect(sig.body.key).toMatch(new RegExp(`^signatures/${p.id}/${id}/[0-9a-f-]{36}-passwd\\.png$`));
    expect(await ask({ content_type: 'application/pdf' })).toMatchObject({
      status: 400,
      body: { content_type: ['Upload a file of type image/jpeg, image/png, image/webp.'] },
    });
    expect(await ask({ size: 16 * 1024 * 1024 })).toMatchObject({
      status: 400,
      body: { size: ['The file is larger than 15 MB.'] },
    });
    expect(await ask({ kind: 'video' })).toMatchObject({
      status: 400,
      body: { kind: ['The kind must be image or signature.'] },
    });
    expect(await ask({ response_id: '999999-1-x' })).toMatchObject({ status: 400 });
    // A file that is not what it says is refused and removed.
    // (Declared as the 25 bytes it is: a signed upload takes no more than its declared size.)
    const fake = await ask({ size: 25 });
    await fetch(fake.body.upload_url, {
      method: 'PUT',
      body: Buffer.from('<script>alert(1)</script>'),
      headers: { 'content-type': 'image/png' },
    });
    expect(
      await api('POST', `project/${p.id}/media/${fake.body.media_id}/complete/`, { token: owner.access }),
    ).toMatchObject({
      status: 400,
      body: { content_type: ['The file is not the image its type says.'] },
    });
  });
});

describe('the stream', () => {
  it('publishes every accepted change once to RESPONSES on responses.<projectId> with Nats-Msg-Id response_id:version', async () => {
    const { body, ids } = householdForm();
    const { p, schema } = await projectWithForm('Stream', body);
    const id = rid(p.id, schema);
    const up = (n: number, ago: number) =>
      api('POST', `project/${p.id}/response/`, {
        token: owner.access,
        body: { sampler_schema: schema, response_id: id, time_updated: iso(ago), data: { '0': { [ids.adults]: n } } },
      });
    await up(1, 30_000);
    await up(1, 30_000); // unmodified: not published
    await up(2, 20_000);
    await up(0, 40_000); // older: ignored
    const nc = await connect({ servers: t.infra.natsUrl.replace(/^nats:\/\//, '') });
    try {
      const jsm = await jetstreamManager(nc);
      const stream = `${t.infra.natsPrefix}_RESPONSES`;
      const subject = `${t.infra.natsPrefix}.responses.${p.id}`;
      let seen: { id: string; data: Json }[] = [];
      for (let i = 0; i < 50 && seen.length < 2; i++) {
        seen = [];
        const info = await jsm.streams.info(stream);
        for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
          const m = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
          if (m && m.subject === subject) seen.push({ id: m.header?.get('Nats-Msg-Id') ?? '', data: m.json<Json>() });
        }
        if (seen.length < 2) await new Promise((r) => setTimeout(r, 200));
      }
      expect(seen.map((s) => s.id)).toEqual([`${id}:1`, `${id}:2`]);
      expect(seen[1]!.data).toMatchObject({
        response_id: id,
        version: 2,
        project: p.id,
        schema,
        data: { '0': { [ids.adults]: 2, [ids.double]: 4 } },
      });
    } finally {
      await nc.close();
    }
    // And in the results store (ClickHouse): one response at its latest version, with its answers.
    const results = createClient(resultsProto.ResultsServiceClient, `127.0.0.1:${t.ports.results}`, {
      secret: t.contextSecret,
    });
    try {
      let status = await results.ingestStatus({ project_id: p.id });
      for (let i = 0; i < 50 && status.answers !== 2; i++) {
        await new Promise((r) => setTimeout(r, 200));
        status = await results.ingestStatus({ project_id: p.id });
      }
      // adults and the calculated double.
      expect(status).toMatchObject({ responses: 1, answers: 2, deleted: 0 });
    } finally {
      results.close();
    }
  });
});
