// Form routes through app.inject with fake services: who makes a form from an upload (decided once, at the gateway,
// before the forms service converts anything), the form document on the wire, and the refusals passed through.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { problems } from '@fieldwork/service-kit';
import { buildTestGateway, JWT_SECRET, signJwt, type Role } from '../testing/inject.js';
import { routesTagged, uncovered } from '../testing/routes.js';

// Every route of this group is reached by a test below (the last test checks it).
vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => t.reset());

const document = {
  id: 2,
  name: 'Household',
  project_id: 7,
  level: 1,
  revision: 4,
  time_updated: '2026-01-02T03:04:05.000Z',
  editable: true,
  body_json: JSON.stringify({ blocks: [{ id: 1 }] }),
};
const wire = {
  blocks: [{ id: 1 }],
  id: 2,
  name: 'Household',
  project: 7,
  level: 1,
  revision: 4,
  time_updated: '2026-01-02T03:04:05.000Z',
  editable: true,
};

/**
 * Making a form is the form screen's (spec 000 §6 "Screen access": the project owner's everything, the project admin's
 * home, parameters, form), and that of those whose workspace roles imply every project permission, and staff.
 */
const MAKE_FORM: Record<Role, number> = {
  owner: 200,
  wsProjectAdmin: 200,
  staff: 200,
  projectOwner: 200,
  projectAdmin: 200,
  researcher: 403,
  readSites: 403,
  staffAdmin: 403,
  collector: 403,
  dataManager: 403,
  guest: 403,
  outsider: 404,
};

describe('form routes', () => {
  it('who makes a form from an upload', async () => {
    const { status, refusals, leaked } = await t.byRole(
      { method: 'POST', url: '/api/project/7/create-form-from-upload/', payload: { file_identifier: 'f-1' } },
      () => t.answer('forms', 'convertUpload', { schema: document, levels: [], notes: [], format: 'xlsform' }),
    );
    expect(status).toEqual(MAKE_FORM);
    for (const [role, body] of Object.entries(refusals))
      if (status[role as Role] === 403) expect(body).toEqual({ detail: "You don't have access to this item." });
    expect(leaked).toEqual([]);
  });

  it('a form made from an upload: its document and levels on the wire', async () => {
    const note = { sheet: 'survey', row: 3, message: 'n', column: 'type' };
    t.answer('forms', 'convertUpload', { schema: document, levels: [document], notes: [note], format: 'xlsform' });
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/create-form-from-upload/',
      headers: t.as('projectAdmin'),
      payload: { file_id: 'f-1', schema: 2, confirm: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ schema: wire, levels: [wire], notes: [note], format: 'xlsform' });
    expect(t.serviceCalls()[0]?.req).toMatchObject({
      project_id: 7,
      file_identifier: 'f-1',
      schema_id: 2,
      confirm: true,
    });
  });

  it('loads a form as the web app reads it, for a user or a collection link', async () => {
    t.answer('forms', 'getSchemaDocument', document);
    const res = await t.inject({ url: '/api/samplerschema/2/', headers: t.as('collector') });
    expect([res.statusCode, res.json()]).toEqual([200, wire]);
    const link = signJwt(JWT_SECRET, {
      token_type: 'collect',
      project_id: 7,
      survey_id: 1,
      email: '',
      fingerprint: '',
      iat: Math.floor(Date.now() / 1000),
    });
    const anonymous = await t.inject({ url: '/api/samplerschema/2/', headers: { authorization: `JWT ${link}` } });
    expect(anonymous.statusCode).toBe(200);
    expect(t.serviceCalls()[1]?.req).toMatchObject({ schema_id: 2, caller: { collect_project_id: 7, user_id: 0 } });
  });

  it('passes on the forms service’s 404', async () => {
    t.answer('forms', 'getSchemaDocument', () => {
      throw problems.invalidSchemaId();
    });
    const res = await t.inject({ url: '/api/samplerschema/2/', headers: t.as('owner') });
    expect([res.statusCode, res.json()]).toEqual([404, { detail: 'Invalid Schema Id!' }]);
  });

  it('saves a form: the body without the read-only fields, its revision apart', async () => {
    t.answer('forms', 'saveSchemaDocument', { ...document, revision: 5 });
    const res = await t.inject({
      method: 'PUT',
      url: '/api/samplerschema/2/',
      headers: t.as('owner'),
      payload: { ...wire, name: 'Renamed' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 2, revision: 5 });
    const req = t.serviceCalls()[0]?.req;
    expect(req).toMatchObject({ schema_id: 2, revision: 4, name: 'Renamed' });
    expect(JSON.parse(String(req?.body_json))).toEqual({ blocks: [{ id: 1 }] });
  });

  it('the XLSForm: an attachment of the workbook', async () => {
    t.answer('forms', 'exportXlsForm', { filename: 'Ménage.xlsx', content: Buffer.from('PK') });
    const res = await t.inject({ url: '/api/samplerschema/2/xlsform/', headers: t.as('owner') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Menage.xlsx"; filename*=UTF-8''M%C3%A9nage.xlsx`,
    );
    expect(res.body).toBe('PK');
  });

  it('languages and versions: lists with their count; a restore answers the document', async () => {
    t.answer('forms', 'listLanguages', { results: [{ code: 'fr', name: 'French' }] });
    const langs = await t.inject({ url: '/api/languages/', headers: t.as('guest') });
    expect([langs.statusCode, langs.json()]).toEqual([200, { results: [{ code: 'fr', name: 'French' }], count: 1 }]);
    t.answer('forms', 'listSchemaVersions', { results: [{ revision: 3 }] });
    const versions = await t.inject({ url: '/api/samplerschema/2/versions/', headers: t.as('owner') });
    expect(versions.statusCode).toBe(200);
    expect(versions.json()).toMatchObject({ results: [{ revision: 3 }], count: 1 });
    t.answer('forms', 'restoreSchemaVersion', document);
    const restored = await t.inject({
      method: 'POST',
      url: '/api/samplerschema/2/versions/3/restore/',
      headers: t.as('owner'),
    });
    expect([restored.statusCode, restored.json()]).toEqual([200, wire]);
    expect(t.serviceCalls().at(-1)?.req).toMatchObject({ schema_id: 2, version_id: 3 });
  });

  it('a form of a project the caller cannot see is an "Invalid Schema Id!" on every form route, asking the forms service nothing', async () => {
    // (Loading the form, GET /api/samplerschema/2/, also serves collection links: the forms service decides it.)
    for (const [method, url] of [
      ['GET', '/api/samplerschema/2/xlsform/'],
      ['PUT', '/api/samplerschema/2/'],
      ['GET', '/api/samplerschema/2/versions/'],
      ['POST', '/api/samplerschema/2/versions/3/restore/'],
    ] as const) {
      t.reset();
      const res = await t.inject({
        method,
        url,
        headers: t.as('outsider'),
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      expect([res.statusCode, res.json()], `${method} ${url}`).toEqual([404, { detail: 'Invalid Schema Id!' }]);
      expect(t.serviceCalls(), `${method} ${url}`).toEqual([]);
    }
  });

  it('has reached every route of its group', () => {
    const routes = [...routesTagged(['forms'])];
    expect(routes.length).toBeGreaterThan(1);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
