// Export and import routes through app.inject with fake services: who exports and who imports (decided once, at the
// gateway, before the exports service is asked), the job answers on the wire (200 with the file's url, 202 while it
// runs), and the refusals passed through.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { problems } from '@fieldwork/service-kit';
import { exports_, projects } from '@fieldwork/proto';
import { buildTestGateway, type Role } from '../testing/inject.js';
import { routesTagged, uncovered } from '../testing/routes.js';

// Every route of this group is reached by a test below (the last test checks it).
vi.mock('fastify', async (importOriginal) =>
  (await import('../testing/routes.js')).watchRoutes(await importOriginal<typeof import('fastify')>()),
);

const t = await buildTestGateway();
afterAll(() => t.close());
beforeEach(() => t.reset());

const DENIED = { detail: "You don't have access to this item." };
const job = (fields: object) =>
  exports_.Job.fromPartial({ id: 'job-1', project_id: 7, kind: 'named_csv', status: 'running', ...fields });

/**
 * An export is every answer of the project: the spec is silent; it needs what reading all results needs, the results
 * screen (spec 001 §6): the workspace's owner and project admin, staff, the project owner and the researcher. Not
 * read_sites alone (a part of the results, not all of them), nor any other role.
 */
const EXPORT: Record<Role, number> = {
  owner: 202,
  wsProjectAdmin: 202,
  staff: 202,
  projectOwner: 202,
  researcher: 202,
  readSites: 403,
  projectAdmin: 403,
  staffAdmin: 403,
  collector: 403,
  dataManager: 403,
  guest: 403,
  outsider: 404,
};
/**
 * Importing responses needs the projectLevelIngestion screen (spec 000 §6 names it a project role permission): the
 * project owner's ("project owner everything"), and those whose workspace roles imply every project permission.
 */
const IMPORT: Record<Role, number> = {
  owner: 202,
  wsProjectAdmin: 202,
  staff: 202,
  projectOwner: 202,
  researcher: 403,
  readSites: 403,
  projectAdmin: 403,
  staffAdmin: 403,
  collector: 403,
  dataManager: 403,
  guest: 403,
  outsider: 404,
};

const PREVIEW = exports_.ImportPreview.fromPartial({
  columns: [{ header: 'A', target_kind: 'item', item_id: 1, target: '', label: 'Q1' }],
  rows: [{ cells: [{ text: '1' }, { number: 2 }, {}] }],
  errors: {},
  row_problems: [{ problems: { A: 'Not a number.' } }],
  questions: [{ id: 1, code: 'q1', label: 'Q1', type: 'number' }],
});

async function byRole(method: 'GET' | 'POST', url: string) {
  const { status, refusals, leaked } = await t.byRole(
    { method, url, ...(method === 'POST' ? { payload: {} } : {}) },
    () => t.answer('exports', 'previewImport', PREVIEW),
  );
  for (const [role, body] of Object.entries(refusals)) if (status[role as Role] === 403) expect(body).toEqual(DENIED);
  return { status, leaked };
}

describe('export routes', () => {
  describe('who exports', () => {
    it.each([
      ['GET', '/api/project/7/named_csv/?wait=0'],
      ['GET', '/api/project/7/coded_csv/?wait=0'],
      ['GET', '/api/project/7/dictionary_csv/?wait=0'],
      ['GET', '/api/project/7/xlsx_excel/?wait=0'],
      ['POST', '/api/project/7/export/'],
    ] as const)('%s %s', async (method, url) => {
      const { status, leaked } = await byRole(method, url);
      expect(status).toEqual(EXPORT);
      expect(leaked).toEqual([]);
    });
  });

  describe('who imports', () => {
    it.each([['/api/project/7/import/'], ['/api/project/7/import/preview/']])('POST %s', async (url) => {
      const { status, leaked } = await byRole('POST', url);
      // The preview answers 200 where the import answers 202 with its job.
      expect(status).toEqual(
        Object.fromEntries(
          Object.entries(IMPORT).map(([r, s]) => [r, s === 202 && url.endsWith('preview/') ? 200 : s]),
        ),
      );
      expect(leaked).toEqual([]);
    });
  });

  it('a finished export: 200 with its url; the query read into the request', async () => {
    t.answer('exports', 'createExport', job({ status: 'done', url: '/files/x.csv' }));
    const res = await t.inject({
      url: '/api/project/7/coded_csv/?schema=2&lang=fr&profile=p-1&layout=long',
      headers: t.as('owner'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ url: '/files/x.csv', job: { id: 'job-1', status: 'done', report_url: null } });
    expect(t.serviceCalls()[0]).toMatchObject({
      method: 'createExport',
      req: { project_id: 7, schema_id: 2, kind: 'coded_csv', lang: 'fr', profile: 'p-1', layout: 'long' },
    });
  });

  it('refuses a layout other than wide or long before any service is asked', async () => {
    const res = await t.inject({ url: '/api/project/7/named_csv/?layout=tall', headers: t.as('owner') });
    expect(res.statusCode).toBe(400);
    expect(t.serviceCalls()).toEqual([]);
  });

  it('a running export: 202 with the job and no url yet', async () => {
    t.answer('exports', 'createExport', job({}));
    t.answer('exports', 'getJob', job({}));
    const res = await t.inject({ url: '/api/project/7/named_csv/?wait=0', headers: t.as('owner') });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ url: null, job: { id: 'job-1', status: 'running', result: {} } });
  });

  it('a failed export: 400 with its error', async () => {
    t.answer('exports', 'createExport', job({ status: 'failed', error: 'No form to export.' }));
    const res = await t.inject({ url: '/api/project/7/named_csv/?wait=0', headers: t.as('owner') });
    expect([res.statusCode, res.json()]).toEqual([400, { non_field_errors: ['No form to export.'] }]);
  });

  it('refuses a schema that is not an integer with 400 naming it, before the service', async () => {
    const res = await t.inject({ url: '/api/project/7/named_csv/?schema=two', headers: t.as('owner') });
    expect([res.statusCode, res.json()]).toEqual([400, { schema: ['A valid integer is required.'] }]);
    expect(t.serviceCalls()).toEqual([]);
  });

  it('an import: its mapping, at the top level or in data, sent on; 202 with the job', async () => {
    t.answer('exports', 'createImport', job({ kind: 'import' }));
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/import/',
      headers: t.as('owner'),
      payload: { data: { schema: 2, file_identifier: 'f-1', label_map: { A: 'q1' }, dropped_columns: ['B'] } },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ job: { id: 'job-1', kind: 'import' } });
    expect(t.serviceCalls()[0]?.req).toMatchObject({
      project_id: 7,
      schema_id: 2,
      file_identifier: 'f-1',
      label_map: { A: 'q1' },
      dropped_columns: ['B'],
    });
  });

  it('an import preview: the service’s typed preview on the wire', async () => {
    t.answer('exports', 'previewImport', PREVIEW);
    const res = await t.inject({
      method: 'POST',
      url: '/api/project/7/import/preview/',
      headers: t.as('owner'),
      payload: { file_identifier: 'f-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      columns: [{ header: 'A', target_kind: 'item', item_id: 1, target: '', label: 'Q1' }],
      rows: [['1', 2, null]],
      errors: {},
      row_problems: [{ A: 'Not a number.' }],
      questions: [{ id: 1, code: 'q1', label: 'Q1', type: 'number' }],
    });
  });

  it('jobs: 200 with the job, 404 passed on for a job that is not the caller’s', async () => {
    t.answer(
      'exports',
      'getJob',
      job({ status: 'done', url: '/files/x.csv', import_counts: { stored: 3, unmodified: 0, ignored: 0, failed: 1 } }),
    );
    const res = await t.inject({ url: '/api/exports/jobs/job-1/', headers: t.as('researcher') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: 'job-1',
      url: '/files/x.csv',
      result: { stored: 3, unmodified: 0, ignored: 0, failed: 1 },
    });
    expect(res.json()).not.toHaveProperty('import_counts');
    t.answer('exports', 'cancelJob', () => {
      throw problems.notFound();
    });
    const other = await t.inject({
      method: 'POST',
      url: '/api/exports/jobs/job-2/cancel/',
      headers: t.as('researcher'),
    });
    expect([other.statusCode, other.json()]).toEqual([404, { detail: 'Not found.' }]);
    expect(t.serviceCalls().at(-1)?.req).toMatchObject({ job_id: 'job-2' });
  });

  it('SQL access: 201 with the password once, 200 when disabled', async () => {
    t.answer('responses', 'enableSqlAccess', { enabled: true, username: 'u', password: 'p' });
    const on = await t.inject({ method: 'POST', url: '/api/project/7/postgres/', headers: t.as('owner') });
    expect(on.statusCode).toBe(201);
    expect(on.json()).toMatchObject({ enabled: true, username: 'u', password: 'p' });
    const off = await t.inject({ method: 'POST', url: '/api/project/7/disable_postgres/', headers: t.as('owner') });
    expect([off.statusCode, off.json()]).toEqual([200, { enabled: false }]);
  });

  it('a workspace feature that is off: import and SQL access say which feature and who turns it on, before any service', async () => {
    // The owner's access as the projects service answers it while the workspace's ingestion feature is off.
    t.answer('projects', 'getAccess', (req) =>
      projects.ProjectAccess.fromPartial({
        project_id: Number(req.project_id),
        organization_id: 12,
        screens: ['home', 'sites', 'parameters', 'admins', 'form', 'results', 'collector', 'dataManager'],
        feature_off_screens: ['projectLevelIngestion'],
        feature_off: 'ingestion',
      }),
    );
    const message =
      'This needs the workspace feature "ingestion", which is off in this workspace. Workspace roles cannot turn it on: ask the operator of this Fieldwork deployment, who runs: pnpm fieldwork workspace features --id 12 --enable ingestion';
    for (const url of [
      '/api/project/7/import/',
      '/api/project/7/import/preview/',
      '/api/project/7/postgres/',
      '/api/project/7/disable_postgres/',
    ]) {
      const res = await t.inject({ method: 'POST', url, headers: t.as('owner'), payload: {} });
      expect([url, res.statusCode, res.json()]).toEqual([url, 403, { detail: message }]);
    }
    expect(t.serviceCalls()).toEqual([]);
    // A role that would not open the screen anyway gets the plain refusal, feature or not.
    t.reset();
    t.answer('projects', 'getAccess', (req) =>
      projects.ProjectAccess.fromPartial({
        project_id: Number(req.project_id),
        organization_id: 12,
        screens: ['home', 'results'],
        feature_off: 'ingestion',
      }),
    );
    const plain = await t.inject({ method: 'POST', url: '/api/project/7/postgres/', headers: t.as('researcher') });
    expect([plain.statusCode, plain.json()]).toEqual([403, DENIED]);
  });

  it('has reached every route of its group', () => {
    const routes = [...routesTagged(['exports'])];
    expect(routes.length).toBeGreaterThan(1);
    expect(uncovered(routes, t.requested)).toEqual([]);
  });
});
