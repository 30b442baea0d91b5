// Spec 001 forms through the API: load and save sampler schemas with the save refusals, languages, and forms made
// from a question list and from an XLSForm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  addBlock,
  addChoice,
  addItem,
  deleteChoice,
  FORM_RULE_MESSAGES,
  newSchemaBody,
  updateBlock,
  updateItem,
  type SchemaBody,
} from '@fieldwork/sampler';
import { startTestStack, type TestStack } from '@fieldwork/launcher';
import { acceptInvitation, client, login, point, type Api, type Session } from './helpers.js';

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

const newProject = async (name: string) =>
  (
    await api<Record<string, any>>('POST', 'project/', {
      token: owner.access,
      body: { name, organization_pk: owner.organization.id, geotag: point(0, 0) },
    })
  ).body;

function twoQuestions(): { body: SchemaBody; ids: number[]; block: number } {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const q1 = addItem(b.body, b.id, 'number', 'en', 'Adults');
  const q2 = addItem(q1.body, b.id, 'choice', 'en', 'Fuel');
  const c = addChoice(q2.body, q2.id, 'en', 'Wood');
  return { body: c.body, ids: [q1.id, q2.id], block: b.id };
}

describe('sampler schemas', () => {
  it('loads a new schema, saves revisions, and refuses a stale one', async () => {
    const p = await newProject('Form A');
    const schemaId = p.sampler_schemas[0].id;
    const got = await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access });
    expect(got).toMatchObject({
      status: 200,
      body: { id: schemaId, version: '1.0', form: [], revision: 1, editable: true, primary_language: 'en' },
    });
    const { body } = twoQuestions();
    const saved = await api<Record<string, any>>('PUT', `samplerschema/${schemaId}/`, {
      token: owner.access,
      body: { ...body, revision: 1, name: 'Household form' },
    });
    expect(saved).toMatchObject({ status: 200, body: { revision: 2, name: 'Household form' } });
    const again = await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access });
    expect(again.body.entities.items).toEqual(body.entities.items);
    expect(again.body.form).toEqual(body.form);
    expect(
      await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: { ...body, revision: 1 } }),
    ).toMatchObject({
      status: 409,
      body: { detail: 'A newer revision of this form already exists.' },
    });
    // With a question the project can go live; then its schema is closed.
    expect(
      await api('POST', `project/${p.id}/status/`, { token: owner.access, body: { project_state: 'O' } }),
    ).toMatchObject({ status: 200 });
    expect(
      await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: { ...body, revision: 2 } }),
    ).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Cannot edit schema for this project!'] },
    });
    expect(
      (await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body.editable,
    ).toBe(false);
  });

  it('refuses several primary keys, and a longitudinal schema without one', async () => {
    const p = await newProject('Form B');
    const schemaId = p.sampler_schemas[0].id;
    const { body, ids } = twoQuestions();
    const twoKeys = updateItem(updateItem(body, ids[0]!, { options: { isPrimaryKey: true } }), ids[1]!, {
      options: { isPrimaryKey: true },
    });
    expect(await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: twoKeys })).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Cannot save schema with multiple primary keys!'] },
    });
    await api('POST', `project/${p.id}/type/`, { token: owner.access, body: { project_type: 'L' } });
    expect(await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body })).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Cannot save longitudinal schema without a primary key!'] },
    });
    const oneKey = updateItem(body, ids[0]!, { options: { isPrimaryKey: true } });
    expect((await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: oneKey })).status).toBe(200);
  });

  it('refuses bad documents and broken formulas with field errors', async () => {
    const p = await newProject('Form C');
    const schemaId = p.sampler_schemas[0].id;
    expect(
      await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: { form: 'nope' } }),
    ).toMatchObject({
      status: 400,
      body: {
        schema: [
          'form must be a list of category ids.',
          'counters must hold blocks, items, choices and languages.',
          'entities must hold blocks, items, choices and languages.',
        ],
      },
    });
    const { body, block, ids } = twoQuestions();
    const calc = addItem(body, block, 'calculated', 'en', 'Total');
    const broken = updateItem(calc.body, calc.id, { options: { formula: `Q${block}_${ids[0]}*` } });
    const r = await api<Record<string, string[]>>('PUT', `samplerschema/${schemaId}/`, {
      token: owner.access,
      body: broken,
    });
    expect(r.status).toBe(400);
    expect(r.body.formula![0]).toMatch(
      /^total: Not a valid formula! Line 1, col \d+: .* Your calculation will not be saved until fixed\.$/,
    );
    const fine = updateItem(calc.body, calc.id, { options: { formula: `Q${block}_${ids[0]}*2` } });
    expect((await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: fine })).status).toBe(200);
    // No formula yet is no error: the calculated question is simply not calculated.
    const empty = updateItem(calc.body, calc.id, { options: { formula: '' } });
    expect((await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: empty })).status).toBe(200);
    // A condition that starts with AND is always false (spec 001 §5): refused at its category.
    const follow = addBlock(fine, { en: 'Follow-up' });
    const test = { itemId: ids[0]!, schemaId: 0, condition: { $gte: 1 }, finalized: true };
    const andFirst = updateBlock(follow.body, follow.id, { conditions: [{ operator: 'AND' }, test] });
    expect(await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: andFirst })).toMatchObject({
      status: 400,
      body: { [`blocks.${follow.id}.conditions`]: [FORM_RULE_MESSAGES.conditionPlacement] },
    });
    // Answer rules that could never work, or could hold a service: refused with the builder's own messages.
    const text = addItem(fine, block, 'open', 'en', 'Code');
    const rules = updateItem(text.body, text.id, {
      options: {
        minLength: { active: true, value: 8 },
        maxLength: { active: true, value: 4 },
        pattern: { active: true, value: '(\\w+)\\1' },
      },
    });
    const refused = await api<Record<string, string[]>>('PUT', `samplerschema/${schemaId}/`, {
      token: owner.access,
      body: rules,
    });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        rules: [
          'code: The fewest characters must not be more than the most.',
          'code: Back-references and look-arounds cannot be checked safely: write the pattern without them.',
        ],
      },
    });
  });

  it('refuses each broken item rule with a message at the item, and keeps the stored form', async () => {
    const p = await newProject('Form rules');
    const schemaId = p.sampler_schemas[0].id;
    const { body, ids, block } = twoQuestions();
    const [adults, fuel] = ids as [number, number];
    expect(
      (await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: { ...body, revision: 1 } })).status,
    ).toBe(200);
    const stored = async () =>
      (await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body;
    const before = await stored();
    const raw = (id: number, patch: Record<string, unknown>): SchemaBody => {
      const next = structuredClone(body);
      Object.assign(next.entities.items[id]!, patch);
      return next;
    };
    const wood = body.entities.items[fuel]!.options.choices![0]!;
    const cases: [string, SchemaBody, string, string][] = [
      [
        'a choice question without choices',
        deleteChoice(body, fuel, wood),
        `items.${fuel}.choices`,
        FORM_RULE_MESSAGES.choices,
      ],
      [
        'a minimum above the maximum',
        updateItem(body, adults, {
          options: { minimum: { active: true, value: 10 }, maximum: { active: true, value: 2 } },
        }),
        `items.${adults}.maximum`,
        FORM_RULE_MESSAGES.range,
      ],
      [
        'a blank name',
        updateItem(body, adults, { name: { en: '   ' } }),
        `items.${adults}.name`,
        FORM_RULE_MESSAGES.name,
      ],
      ['an item of type empty', raw(adults, { type: 'empty' }), `items.${adults}.type`, FORM_RULE_MESSAGES.empty],
      ['a blank code', raw(adults, { codeName: '' }), `items.${adults}.codeName`, FORM_RULE_MESSAGES.codeBlank],
      [
        'a duplicate code',
        raw(adults, { codeName: body.entities.items[fuel]!.codeName }),
        `items.${fuel}.codeName`,
        FORM_RULE_MESSAGES.codeDuplicate(body.entities.items[fuel]!.codeName),
      ],
      [
        'a condition on an unknown question',
        updateBlock(body, block, { conditions: [{ itemId: 999, schemaId: 0, condition: [1], finalized: true }] }),
        `blocks.${block}.conditions`,
        FORM_RULE_MESSAGES.conditionUnknown(999),
      ],
    ];
    for (const [what, broken, field, message] of cases) {
      const r = await api<Record<string, string[]>>('PUT', `samplerschema/${schemaId}/`, {
        token: owner.access,
        body: { ...broken, revision: 2 },
      });
      expect(r, what).toMatchObject({ status: 400, body: { [field]: [message] } });
    }
    expect(await stored()).toEqual(before);
  });

  it('answers "Invalid Schema Id!" for unknown and foreign schemas, and lets collectors read but not write', async () => {
    expect(await api('GET', 'samplerschema/999999/', { token: owner.access })).toMatchObject({
      status: 404,
      body: { detail: 'Invalid Schema Id!' },
    });
    const p = await newProject('Form D');
    const schemaId = p.sampler_schemas[0].id;
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'forms.collector@example.org', password: 'collector pass 9', projectId: p.id, collector: true },
    });
    await acceptInvitation(t, api, 'forms.collector@example.org', 'collector pass 9');
    const collector = await login(api, 'forms.collector@example.org', 'collector pass 9');
    expect(await api('GET', `samplerschema/${schemaId}/`, { token: collector.access })).toMatchObject({
      status: 200,
      body: { editable: false },
    });
    expect(
      (await api('PUT', `samplerschema/${schemaId}/`, { token: collector.access, body: newSchemaBody('S') })).status,
    ).toBe(403);
    const other = await api<{ id: number }>('POST', 'organization/', {
      token: collector.access,
      body: { name: 'Collector Space' },
    });
    expect(other.status).toBe(201);
    const theirs = await api<Record<string, any>>('POST', 'project/', {
      token: collector.access,
      body: { name: 'Theirs', organization_pk: other.body.id, geotag: point(0, 0) },
    });
    expect(
      await api('GET', `samplerschema/${theirs.body.sampler_schemas[0].id}/`, { token: owner.access }),
    ).toMatchObject({ status: 404, body: { detail: 'Invalid Schema Id!' } });
  });

  it('saves and serves a form over one default gRPC message (4 MiB), and refuses one over the form limit naming it', async () => {
    // A form of `count` number questions with long names, built once (the builder's functions copy per change).
    const big = (count: number, nameChars: number) => {
      const { body, ids, block } = twoQuestions();
      const template = body.entities.items[ids[0]!]!;
      const entities = body.entities.blocks[block]!.entities;
      for (let i = 0; i < count; i++) {
        const id = body.counters.items + 1;
        body.counters.items = id;
        body.entities.items[id] = {
          ...template,
          id,
          codeName: `big_${i}`,
          name: { en: `${i} ${'x'.repeat(nameChars)}` },
        };
        entities.push({ type: 'item', id });
      }
      return { body, adults: ids[0]! };
    };
    const p = await newProject('Form Big');
    const schemaId = p.sampler_schemas[0].id;
    const { body, adults } = big(3000, 2000);
    const bytes = JSON.stringify(body).length;
    expect(bytes).toBeGreaterThan(6 * 1024 ** 2);
    const saved = await api<Record<string, any>>('PUT', `samplerschema/${schemaId}/`, {
      token: owner.access,
      body: { ...body, revision: 1 },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    const got = await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access });
    expect(got.status).toBe(200);
    expect(Object.keys(got.body.entities.items)).toHaveLength(3002);
    // The responses service reads the whole form to check an answer.
    const response = {
      project: p.id,
      sampler_schema: schemaId,
      device_id: 'dev-big',
      response_id: `${p.id}-${schemaId}-1-dev-big-${Date.now()}`,
      site: p.sites[0].id,
      time_updated: new Date().toISOString(),
      data: { '0': { [adults]: 4 } },
    };
    const stored = await api<Record<string, any>>('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: response,
    });
    expect(stored.status, JSON.stringify(stored.body).slice(0, 300)).toBe(201);
    // Over 16 MiB: the forms service's refusal names the limit; the stored form is unchanged.
    const huge = big(3000, 5500).body;
    expect(JSON.stringify(huge).length).toBeGreaterThan(16 * 1024 ** 2);
    expect(
      await api('PUT', `samplerschema/${schemaId}/`, { token: owner.access, body: { ...huge, revision: 2 } }),
    ).toMatchObject({
      status: 413,
      body: { detail: 'Forms are limited to 16 MB: this one is larger.' },
    });
    expect(
      (await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body.revision,
    ).toBe(2);
  });

  it('lists the ISO languages', async () => {
    const r = await api<{ results: { iso_code_1: string; name: string }[]; count: number }>('GET', 'languages/', {
      token: owner.access,
    });
    expect(r.body.count).toBeGreaterThan(180);
    expect(r.body.results).toContainEqual(expect.objectContaining({ iso_code_1: 'sw', name: 'Swahili' }));
  });
});

describe('forms from files', () => {
  const upload = async (projectId: number, name: string, content: Buffer | string, type: string) => {
    const form = new FormData();
    form.append('file', new Blob([content], { type }), name);
    const r = await api<{ file_id: string }>('POST', `project/${projectId}/upload/`, { token: owner.access, form });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.file_id;
  };

  it('makes a form from a CSV question list, reporting the rows it cannot use', async () => {
    const p = await newProject('From CSV');
    const csv =
      'category,question,type,choices,required,code\nHousehold,How many adults?,integer,,yes,adults\nHousehold,Main fuel,choice,Wood|Gas|Electricity,,fuel\nHousehold,Broken,teleport,,,\nAbout you,Your name,text,,,name\n';
    const fileId = await upload(p.id, 'questions.csv', csv, 'text/csv');
    const r = await api<Record<string, any>>('POST', `project/${p.id}/create-form-from-upload/`, {
      token: owner.access,
      body: { file_identifier: fileId },
    });
    expect(r).toMatchObject({
      status: 200,
      body: {
        format: 'question list (CSV)',
        questions: 3,
        notes: [{ sheet: 'questions', row: 4, message: expect.stringContaining('Unknown type "teleport"') }],
      },
    });
    const items = Object.values(r.body.schema.entities.items) as Record<string, any>[];
    expect(items.map((i) => [i.codeName, i.type])).toEqual([
      ['adults', 'number'],
      ['fuel', 'choice'],
      ['name', 'open'],
    ]);
    expect(items[0]!.options.isRequiredQuestion).toBe(true);
    expect(r.body.schema.form).toHaveLength(2);
  });

  it('replaces a form with responses only when confirmed, listing the changes, and keeps the old form restorable', async () => {
    const p = await newProject('Replace with responses');
    const schemaId = p.sampler_schemas[0].id;
    const { body, ids } = twoQuestions();
    expect(
      (
        await api('PUT', `samplerschema/${schemaId}/`, {
          token: owner.access,
          body: { ...body, revision: 1, name: 'Household form' },
        })
      ).status,
    ).toBe(200);
    const answer = await api('POST', `project/${p.id}/response/`, {
      token: owner.access,
      body: {
        project: p.id,
        sampler_schema: schemaId,
        device_id: 'dev-1',
        response_id: `${p.id}-${schemaId}-1-dev-${Date.now()}`,
        site: p.sites[0].id,
        time_updated: new Date().toISOString(),
        data: { '0': { [ids[0]!]: 3 } },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const before = (await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body;
    const { revision: _r, time_updated: _t, ...previous } = before;

    // Adults becomes a text question, fuel goes, a name question comes.
    const csv =
      'category,question,type,choices,required,code\nHousehold,How many adults?,text,,,adults\nAbout you,Your name,text,,,name\n';
    const fileId = await upload(p.id, 'questions.csv', csv, 'text/csv');
    const refused = await api('POST', `project/${p.id}/create-form-from-upload/`, {
      token: owner.access,
      body: { file_identifier: fileId },
    });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        detail:
          'This form has 1 response: replacing it changes 3 questions. Send confirm to replace it; the current form is kept as a version you can restore.',
        changes: { fuel: ['removed', 'choice'], adults: ['retyped', 'number', 'open'], name: ['added', 'open'] },
      },
    });
    expect((await api('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body).toEqual(before);

    const replaced = await api<Record<string, any>>('POST', `project/${p.id}/create-form-from-upload/`, {
      token: owner.access,
      body: { file_identifier: fileId, confirm: true },
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.schema.revision).toBe(3);
    const versions = await api<Record<string, any>>('GET', `samplerschema/${schemaId}/versions/`, {
      token: owner.access,
    });
    expect(versions).toMatchObject({
      status: 200,
      body: { count: 1, results: [{ id: 2, name: 'Household form', questions: 2, time_saved: expect.any(String) }] },
    });

    const restored = await api<Record<string, any>>('POST', `samplerschema/${schemaId}/versions/2/restore/`, {
      token: owner.access,
    });
    expect(restored).toMatchObject({ status: 200, body: { revision: 4 } });
    const {
      revision: _r2,
      time_updated: _t2,
      ...now
    } = (await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body;
    expect(now).toEqual(previous);
    // The replacing form is a version in its turn.
    const after = await api<Record<string, any>>('GET', `samplerschema/${schemaId}/versions/`, { token: owner.access });
    expect(after.body.results.map((v: { id: number; questions: number }) => [v.id, v.questions])).toEqual([
      [3, 2],
      [2, 2],
    ]);
    expect((await api('POST', `samplerschema/${schemaId}/versions/4/restore/`, { token: owner.access })).status).toBe(
      404,
    );
    expect(
      (await api('POST', `samplerschema/${schemaId}/versions/99999999999/restore/`, { token: owner.access })).status,
    ).toBe(404);
    expect((await api('GET', `samplerschema/${schemaId}/versions/`)).status).toBe(401);
    // Authorized like saving the form: not for a collector, not once the project is live.
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'versions.collector@example.org', password: 'collector pass 9', projectId: p.id, collector: true },
    });
    await acceptInvitation(t, api, 'versions.collector@example.org', 'collector pass 9');
    const collector = await login(api, 'versions.collector@example.org', 'collector pass 9');
    expect((await api('GET', `samplerschema/${schemaId}/versions/`, { token: collector.access })).status).toBe(403);
    expect(
      (await api('POST', `samplerschema/${schemaId}/versions/2/restore/`, { token: collector.access })).status,
    ).toBe(403);
    expect(
      await api('POST', `project/${p.id}/status/`, { token: owner.access, body: { project_state: 'O' } }),
    ).toMatchObject({ status: 200 });
    expect(await api('POST', `samplerschema/${schemaId}/versions/3/restore/`, { token: owner.access })).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Cannot edit schema for this project!'] },
    });
  });

  it('imports an XLSForm: groups, choices, calculations, relevance, and a report of what was not converted', async () => {
    const p = await newProject('From XLSForm');
    const wb = new ExcelJS.Workbook();
    const survey = wb.addWorksheet('survey');
    survey.addRows([
      [
        'type',
        'name',
        'label::English (en)',
        'label::French (fr)',
        'required',
        'relevant',
        'calculation',
        'constraint',
      ],
      ['start', 'start', '', '', '', '', '', ''],
      ['begin group', 'hh', 'Household', 'Ménage', '', '', '', ''],
      ['integer', 'adults', 'Adults', 'Adultes', 'yes', '', '', '. >= 0'],
      ['integer', 'children', 'Children', 'Enfants', '', '', '', ''],
      ['calculate', 'total', 'Total', 'Total', '', '', '${adults} + ${children}', ''],
      ['select_one fuel', 'fuel', 'Main fuel', 'Combustible', '', '', '', ''],
      ['text', 'fuel_other', 'Which fuel?', 'Lequel ?', '', "${fuel} = 'other'", '', ''],
      ['end group', '', '', '', '', '', '', ''],
      ['begin repeat', 'member', 'Member', 'Membre', '', '', '', ''],
      ['text', 'member_name', 'Name', 'Nom', '', '', '', ''],
      ['end repeat', '', '', '', '', '', '', ''],
      ['geopoint', 'where', 'Location', 'Position', '', '', '', ''],
      ['range', 'score', 'Score', 'Score', '', '', '', ''],
    ]);
    const choices = wb.addWorksheet('choices');
    choices.addRows([
      ['list_name', 'name', 'label::English (en)', 'label::French (fr)'],
      ['fuel', 'wood', 'Wood', 'Bois'],
      ['fuel', 'other', 'Other', 'Autre'],
    ]);
    wb.addWorksheet('settings').addRows([
      ['form_title', 'default_language'],
      ['Household survey', 'English (en)'],
    ]);
    const fileId = await upload(
      p.id,
      'household.xlsx',
      Buffer.from(await wb.xlsx.writeBuffer()),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const r = await api<Record<string, any>>('POST', `project/${p.id}/create-form-from-upload/`, {
      token: owner.access,
      body: { file_identifier: fileId },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ format: 'XLSForm', questions: 8 });
    expect(r.body.summary).toBe(`Imported 8 questions with ${r.body.notes.length} losses.`);
    const s = r.body.schema;
    expect(s.name).toBe('Household survey');
    const byCode = Object.fromEntries(
      (Object.values(s.entities.items) as Record<string, any>[]).map((i) => [i.codeName, i]),
    );
    expect(byCode.adults).toMatchObject({
      type: 'number',
      name: { en: 'Adults', fr: 'Adultes' },
      options: { isRequiredQuestion: true, minimum: { active: true, value: 0 } },
    });
    expect(byCode.score).toMatchObject({
      type: 'number',
      options: { minimum: { active: true, value: 0 }, maximum: { active: true, value: 10 } },
    });
    expect(byCode.fuel.options.choices.map((c: number) => s.entities.choices[c].codeName)).toEqual(['wood', 'other']);
    expect(byCode.where.type).toBe('geotag');
    const household = (Object.values(s.entities.blocks) as Record<string, any>[]).find(
      (b) => b.name.en === 'Household',
    )!;
    expect(byCode.total.options.formula).toBe(
      `Q${household.id}_${byCode.adults.id} + Q${household.id}_${byCode.children.id}`,
    );
    const conditional = (Object.values(s.entities.blocks) as Record<string, any>[]).find(
      (b) => b.conditions.length > 0,
    )!;
    expect(conditional.entities).toEqual([{ type: 'item', id: byCode.fuel_other.id }]);
    expect(conditional.conditions).toEqual([
      {
        itemId: byCode.fuel.id,
        schemaId: 0,
        condition: [s.entities.choices[byCode.fuel.options.choices[1]].id],
        finalized: true,
      },
    ]);
    // Every loss with its sheet, row (as the spreadsheet numbers it) and column.
    expect(r.body.notes).toEqual([
      {
        sheet: 'survey',
        row: 2,
        column: 'type',
        message: 'The metadata "start" is not a question; Fieldwork records the time a response is created itself.',
      },
      {
        sheet: 'survey',
        row: 14,
        column: 'type',
        message: expect.stringContaining('The range became a number question from 0 to 10'),
      },
    ]);
    expect(Object.values(s.entities.languages).map((l: any) => l.iso_code_1)).toEqual(['en', 'fr']);
    // The repeat is the project's second level, its question that level's form (form-repeats.e2e.test.ts).
    expect(byCode.member_name).toBeUndefined();
    expect(r.body.levels).toHaveLength(1);
    expect(r.body.levels[0]).toMatchObject({ level: 1, name: 'Member' });
    expect(
      (Object.values(r.body.levels[0].entities.items) as Record<string, any>[]).map((i) => [i.codeName, i.name]),
    ).toEqual([['member_name', { en: 'Name', fr: 'Nom' }]]);
  });

  it('refuses a workbook that is no XLSForm or yields no questions, naming what was expected, and keeps the form as it was', async () => {
    const p = await newProject('Keeps its form');
    const schemaId = p.sampler_schemas[0].id;
    const { body } = twoQuestions();
    expect(
      (
        await api('PUT', `samplerschema/${schemaId}/`, {
          token: owner.access,
          body: { ...body, revision: 1, name: 'Kept' },
        })
      ).status,
    ).toBe(200);
    const before = (await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body;
    const xlsx = async (sheets: Record<string, string[][]>) => {
      const wb = new ExcelJS.Workbook();
      for (const [name, rows] of Object.entries(sheets)) wb.addWorksheet(name).addRows(rows);
      return Buffer.from(await wb.xlsx.writeBuffer());
    };
    const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const cases: [string, Buffer | string, string][] = [
      [
        'legacy.xls',
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
        'This is a legacy Excel file (.xls)',
      ],
      ['renamed.xlsx', 'type,name,label\ntext,a,A\n', 'The file is not an XLSX workbook'],
      [
        'data.xlsx',
        await xlsx({
          Data: [
            ['id', 'value'],
            ['1', '2'],
          ],
        }),
        'The workbook has no sheet named survey',
      ],
      [
        'notype.xlsx',
        await xlsx({
          survey: [
            ['name', 'label'],
            ['a', 'A'],
          ],
        }),
        'has no column named type',
      ],
      [
        'empty.xlsx',
        await xlsx({
          survey: [
            ['type', 'name', 'label'],
            ['start', 'start', ''],
            ['note', 'hello', 'Hello'],
          ],
        }),
        'The XLSForm yields no questions',
      ],
    ];
    for (const [name, content, message] of cases) {
      const fileId = await upload(p.id, name, content, type);
      const r = await api<Record<string, any>>('POST', `project/${p.id}/create-form-from-upload/`, {
        token: owner.access,
        body: { file_identifier: fileId },
      });
      expect(r.status, name).toBe(400);
      expect(r.body.non_field_errors[0], name).toContain(message);
    }
    const after = (await api<Record<string, any>>('GET', `samplerschema/${schemaId}/`, { token: owner.access })).body;
    expect(after).toEqual(before);
    expect(after).toMatchObject({ name: 'Kept', revision: 2 });
  });

  it('refuses files it cannot read', async () => {
    const p = await newProject('Bad file');
    const fileId = await upload(p.id, 'notes.txt', 'hello', 'text/plain');
    expect(
      await api('POST', `project/${p.id}/create-form-from-upload/`, {
        token: owner.access,
        body: { file_identifier: fileId },
      }),
    ).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Upload a CSV question list, an XLSX question list or an XLSForm (.xlsx).'] },
    });
    expect(
      await api('POST', `project/${p.id}/create-form-from-upload/`, {
        token: owner.access,
        body: { file_identifier: '00000000-0000-0000-0000-000000000000' },
      }),
    ).toMatchObject({
      status: 400,
      body: { file_identifier: ['No file of this project has this id.'] },
    });
  });
});

describe('forms as XLSForm', () => {
  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const download = async (schemaId: number | string, token?: string) => {
    const res = await fetch(`${t.baseUrl}/api/samplerschema/${schemaId}/xlsform/`, {
      headers: token ? { authorization: `JWT ${token}` } : {},
    });
    return { status: res.status, headers: res.headers, content: Buffer.from(await res.arrayBuffer()) };
  };

  it('downloads the form as an XLSForm that makes the same form in another project', async () => {
    const from = await newProject('XLSForm source');
    const schemaId = from.sampler_schemas[0].id;
    // A bilingual form with a condition and a rule.
    const { body, ids } = twoQuestions();
    const fr = {
      ...body,
      counters: { ...body.counters, languages: 2 },
      entities: {
        ...body.entities,
        languages: { ...body.entities.languages, '2': { iso_code_1: 'fr', name: 'French', deleted: false, sort: 1 } },
      },
    };
    fr.entities.items[ids[0]!]!.name.fr = 'Adultes';
    const cond = addBlock(fr, { en: 'Wood', fr: 'Bois' });
    const wood = fr.entities.items[ids[1]!]!.options.choices![0]!;
    cond.body.entities.blocks[cond.id]!.conditions = [
      { itemId: ids[1]!, schemaId: 0, condition: [wood], finalized: true },
    ];
    const stove = addItem(cond.body, cond.id, 'open', 'en', 'Stove');
    stove.body.entities.items[stove.id]!.options.maxLength = { active: true, value: 20 };
    const saved = await api('PUT', `samplerschema/${schemaId}/`, {
      token: owner.access,
      body: { ...stove.body, name: 'Enquête ménage' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const file = await download(schemaId, owner.access);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe(XLSX);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Enquete menage.xlsx"; filename*=UTF-8''Enqu%C3%AAte%20m%C3%A9nage.xlsx`,
    );
    // The workbook an XLSForm user expects: survey, choices and settings, a column per language.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.content as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['survey', 'choices', 'settings']);
    const survey = wb.getWorksheet('survey')!;
    expect((survey.getRow(1).values as string[]).slice(1, 4)).toEqual(['type', 'name', 'label::English (en)']);
    expect(wb.getWorksheet('settings')!.getRow(2).values).toEqual([undefined, 'Enquête ménage', 'English (en)']);

    // Uploaded to another project, it makes the same questions.
    const to = await newProject('XLSForm target');
    const form = new FormData();
    form.append('file', new Blob([file.content], { type: XLSX }), 'Enquête ménage.xlsx');
    const up = await api<{ file_id: string }>('POST', `project/${to.id}/upload/`, { token: owner.access, form });
    expect(up.status).toBe(201);
    const r = await api<Record<string, any>>('POST', `project/${to.id}/create-form-from-upload/`, {
      token: owner.access,
      body: { file_identifier: up.body.file_id },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ format: 'XLSForm', questions: 3, notes: [] });
    const s = r.body.schema;
    expect(s.name).toBe('Enquête ménage');
    const original = stove.body.entities.items;
    const questions = (items: Record<string, any>) =>
      Object.values(items).map((i: any) => [i.codeName, i.type, i.name]);
    expect(questions(s.entities.items)).toEqual(questions(original));
    const byCode = Object.fromEntries(
      (Object.values(s.entities.items) as Record<string, any>[]).map((i) => [i.codeName, i]),
    );
    expect(byCode[original[stove.id]!.codeName].options.maxLength).toEqual({ active: true, value: 20 });
    expect(byCode[original[ids[0]!]!.codeName].options).toMatchObject({
      minimum: { active: true, value: 0 },
      maximum: { active: true, value: 100 },
    });
    const woodBlock = (Object.values(s.entities.blocks) as Record<string, any>[]).find((b) => b.name.en === 'Wood')!;
    expect(woodBlock).toMatchObject({
      name: { en: 'Wood', fr: 'Bois' },
      conditions: [{ itemId: byCode[original[ids[1]!]!.codeName].id, finalized: true }],
    });
    expect(s.form).toHaveLength(2);
  });

  it('is authorized like reading the form: collectors of the project may, others get "Invalid Schema Id!"', async () => {
    const p = await newProject('XLSForm access');
    const schemaId = p.sampler_schemas[0].id;
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'xlsform.collector@example.org', password: 'collector pass 9', projectId: p.id, collector: true },
    });
    await acceptInvitation(t, api, 'xlsform.collector@example.org', 'collector pass 9');
    const ours = await login(api, 'xlsform.collector@example.org', 'collector pass 9');
    const q = await newProject('XLSForm elsewhere');
    await api('POST', 'api/v1/project-user/', {
      token: owner.access,
      body: { email: 'xlsform.stranger@example.org', password: 'stranger pass 9', projectId: q.id, collector: true },
    });
    await acceptInvitation(t, api, 'xlsform.stranger@example.org', 'stranger pass 9');
    const stranger = await login(api, 'xlsform.stranger@example.org', 'stranger pass 9');
    expect((await download(schemaId, ours.access)).status).toBe(200);
    for (const [who, id, status] of [
      [stranger.access, schemaId, 404],
      [undefined, schemaId, 401],
      [owner.access, 999999, 404],
      [owner.access, 'abc', 404],
    ] as const) {
      const r = await download(id, who);
      expect(r.status, `${String(id)} as ${who ? 'user' : 'nobody'}`).toBe(status);
      if (status === 404) expect(JSON.parse(r.content.toString())).toEqual({ detail: 'Invalid Schema Id!' });
    }
  });
});
