// The exports service's use cases (ExportService, as the gRPC handlers call it, and its job worker) on a real
// PostgreSQL and NATS, with the real projects, forms and responses services: an export is queued, taken by the
// worker and written as a file; who may queue and read jobs, and the refusals.
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common, exports_, forms, projects, responses } from '@fieldwork/proto';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import {
  connectNats,
  createClient,
  createLogger,
  createObjectStore,
  ensureStream,
  type Nats,
} from '@fieldwork/service-kit';
import {
  acceptInvitation,
  migratedPool,
  newOwner,
  newProject,
  startPeers,
  type Peers,
} from '../../projects/test/support/peers.js';
import { loadExportsConfig } from '../src/config.js';
import type { ExportsDeps } from '../src/service/deps.js';
import { ExportService } from '../src/service/export.service.js';
import { JobStore } from '../src/store/job.store.js';
import { jobsStream, jobSubject } from '../src/stream.js';
import { ExportWorker } from '../src/worker/worker.js';

let peers: Peers;
let nats: Nats;
let deps: ExportsDeps;
let worker: ExportWorker;
let service: ExportService;
let jobs: JobStore;
const ctx = { requestId: 'exports-service-test' };

beforeAll(async () => {
  // Not the exports service itself: its workers would take this test's jobs.
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadExportsConfig(peers.env('exports'));
  const log = createLogger('exports-service-test', 'silent');
  nats = await connectNats(peers.infra.natsUrl, { name: 'exports-service-test', log });
  const stream = jobsStream(peers.infra.natsPrefix);
  await ensureStream(nats.jsm, stream);
  const store = createObjectStore(config);
  await store.ensureReady();
  deps = {
    sql: await migratedPool(peers, 'exports'),
    log,
    store,
    auth: createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret }),
    projects: createClient(projects.ProjectsServiceClient, peers.address('projects'), { secret: peers.contextSecret }),
    forms: createClient(forms.FormsServiceClient, peers.address('forms'), { secret: peers.contextSecret }),
    responses: createClient(responses.ResponsesServiceClient, peers.address('responses'), {
      secret: peers.contextSecret,
    }),
    enqueue: async (jobId) =>
      void (await nats.js.publish(jobSubject(peers.infra.natsPrefix), jobId, { msgID: `export:${jobId}` })),
    announceFinished: () => undefined,
    fileTtlHours: 1,
    contextSecret: peers.contextSecret,
  };
  worker = new ExportWorker(nats, deps, {
    stream: stream.name,
    pageSize: config.EXPORT_PAGE_SIZE,
    pageDelayMs: 0,
    maxAttempts: 2,
    ackWaitS: config.EXPORT_ACK_WAIT_S,
    log,
  });
  await worker.start();
  service = new ExportService(deps);
  jobs = new JobStore(deps.sql);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  deps?.auth.close();
  deps?.projects.close();
  deps?.forms.close();
  deps?.responses.close();
  await nats?.close();
  await peers?.stop();
});

/** A project whose form asks Adults (a number), with two responses uploaded to the responses service. */
async function projectWithResponses() {
  const { caller } = await newOwner(peers);
  const project = await newProject(peers, caller);
  const schema = project.project_hierarchy[0]!.schema_id;
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
  const doc = await deps.forms.getSchemaDocument({ caller, schema_id: schema });
  await deps.forms.saveSchemaDocument({
    caller,
    schema_id: schema,
    body_json: JSON.stringify(adults.body),
    revision: doc.revision,
    name: '',
  });
  const ids = [`${project.id}-${schema}-1-d-1`, `${project.id}-${schema}-1-d-2`];
  for (const [i, id] of ids.entries())
    await deps.responses.upload({
      caller,
      project_id: project.id,
      action: 'save',
      payload_json: JSON.stringify({
        sampler_schema: schema,
        device_id: 'd',
        response_id: id,
        data: { '0': { [adults.id]: 17 + i } },
      }),
    });
  return { caller, project, schema, responseIds: ids };
}

/** Adds a user to the project with `roles`, through the projects service. */
async function member(owner: common.Caller, projectId: number, label: string, roles: object): Promise<common.Caller> {
  const added = await deps.projects.addProjectUser(
    projects.AddProjectUserRequest.fromPartial({
      caller: owner,
      project_id: projectId,
      email: `${label}.${projectId}.${peers.infra.runId}@example.org`,
      first_name: 'Rae',
      last_name: label,
      password: 'correct horse 42',
      roles,
    }),
  );
  await acceptInvitation(peers, added.email);
  return common.Caller.fromPartial({ user_id: added.user_id, organization_id: owner.organization_id });
}

const exportRequest = (
  caller: common.Caller,
  projectId: number,
  fields: Partial<exports_.CreateExportRequest> = {},
) => ({
  caller,
  project_id: projectId,
  schema_id: 0,
  kind: 'named_csv',
  lang: '',
  profile: '',
  layout: '',
  ...fields,
});

async function finished(caller: common.Caller, jobId: string): Promise<exports_.Job> {
  const end = Date.now() + 30_000;
  for (;;) {
    const job = await service.get({ caller, job_id: jobId }, ctx);
    if (['done', 'failed', 'cancelled'].includes(job.status)) return job;
    if (Date.now() > end) throw new Error(`the job is still ${job.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe(ExportService.name, () => {
  it("queues an export of the project's top form, which the worker writes as a CSV of every response", async () => {
    const { caller, project, schema, responseIds } = await projectWithResponses();
    const queued = await service.create(exportRequest(caller, project.id), ctx);
    expect(queued).toMatchObject({ project_id: project.id, schema_id: schema, kind: 'named_csv', status: 'queued' });
    const done = await finished(caller, queued.id);
    expect(done).toMatchObject({ status: 'done', percent: 100, rows_done: 2 });
    expect(done.url).not.toBe('');
    const row = await jobs.get(queued.id);
    const csv = await text(await deps.store.get(row!.object_key!));
    const [header, ...rows] = csv
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    expect(header).toEqual([
      'response_id',
      'parent_id',
      'Site',
      'Group',
      'Team',
      'Collector',
      'device_id',
      'completed',
      'time_created',
      'time_updated',
      'time_completed',
      'time_uploaded',
      'latitude',
      'longitude',
      'Adults',
    ]);
    const byId = Object.fromEntries(rows.map((r) => [r[0], Object.fromEntries(header!.map((h, i) => [h, r[i]]))]));
    expect(Object.keys(byId).sort()).toEqual([...responseIds].sort());
    expect(byId[responseIds[0]!]).toMatchObject({ Site: 'Default Site', device_id: 'd', completed: '0', Adults: '17' });
    expect(byId[responseIds[1]!]).toMatchObject({ Adults: '18' });
  });

  /** A project whose form asks Adults once and Age per person (a repeated category), with `data` per response. */
  async function projectWithRepeats(data: (ids: { adults: number; age: number }) => object[]) {
    const { caller } = await newOwner(peers);
    const project = await newProject(peers, caller);
    const schema = project.project_hierarchy[0]!.schema_id;
    const once = addBlock(newSchemaBody('S'), { en: 'Household' });
    const adults = addItem(once.body, once.id, 'number', 'en', 'Adults');
    const people = addBlock(adults.body, { en: 'People' });
    const age = addItem(people.body, people.id, 'number', 'en', 'Age');
    const doc = await deps.forms.getSchemaDocument({ caller, schema_id: schema });
    await deps.forms.saveSchemaDocument({
      caller,
      schema_id: schema,
      body_json: JSON.stringify(age.body),
      revision: doc.revision,
      name: '',
    });
    const ids = data({ adults: adults.id, age: age.id }).map((d, i) => ({ id: `${project.id}-${schema}-1-d-${i}`, d }));
    for (const { id, d } of ids)
      await deps.responses.upload({
        caller,
        project_id: project.id,
        action: 'save',
        payload_json: JSON.stringify({ sampler_schema: schema, device_id: 'd', response_id: id, data: d }),
      });
    return { caller, project, responseIds: ids.map((x) => x.id) };
  }

  async function csvOf(caller: common.Caller, projectId: number, layout = '') {
    const queued = await service.create(exportRequest(caller, projectId, { layout }), ctx);
    expect(await finished(caller, queued.id)).toMatchObject({ status: 'done' });
    const csv = await text(await deps.store.get((await jobs.get(queued.id))!.object_key!));
    const [header, ...rows] = csv
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
  }

  it('exports every repeat instance: a column per instance of a repeated question ("Age", "Age [2]", "Age [3]")', async () => {
    const { caller, project, responseIds } = await projectWithRepeats(({ adults, age }) => [
      { '0': { [adults]: 2, [age]: 30 }, '1': { [age]: 4 }, '2': { [age]: 7 } },
      { '0': { [adults]: 1, [age]: 40 } },
    ]);
    const rows = await csvOf(caller, project.id);
    expect(Object.keys(rows[0]!).slice(14)).toEqual(['Adults', 'Age', 'Age [2]', 'Age [3]']);
    const byId = Object.fromEntries(rows.map((r) => [r.response_id, r]));
    expect(byId[responseIds[0]!]).toMatchObject({ Adults: '2', Age: '30', 'Age [2]': '4', 'Age [3]': '7' });
    expect(byId[responseIds[1]!]).toMatchObject({ Adults: '1', Age: '40', 'Age [2]': '', 'Age [3]': '' });
    // Asked as a long table: a row per response and instance.
    const long = await csvOf(caller, project.id, 'long');
    expect(long.map((r) => [r.response_id, r.repeat, r.Adults, r.Age])).toEqual([
      [responseIds[0], '0', '2', '30'],
      [responseIds[0], '1', '', '4'],
      [responseIds[0], '2', '', '7'],
      [responseIds[1], '0', '1', '40'],
    ]);
    await expect(service.create(exportRequest(caller, project.id, { layout: 'tall' }), ctx)).rejects.toMatchObject({
      code: '400.1',
      fields: { layout: ['Choose wide or long.'] },
    });
  });

  it('exports a long table, one row per response and instance, when a question has more than 20 instances', async () => {
    const { caller, project, responseIds } = await projectWithRepeats(({ adults, age }) => [
      {
        '0': { [adults]: 21, [age]: 50 },
        ...Object.fromEntries(Array.from({ length: 20 }, (_, k) => [String(k + 1), { [age]: k + 1 }])),
      },
      { '0': { [adults]: 1, [age]: 40 } },
    ]);
    const rows = await csvOf(caller, project.id);
    expect(Object.keys(rows[0]!).slice(14)).toEqual(['repeat', 'Adults', 'Age']);
    expect(rows).toHaveLength(22);
    const first = rows.filter((r) => r.response_id === responseIds[0]);
    expect(first.map((r) => [r.repeat, r.Adults, r.Age])).toEqual([
      ['0', '21', '50'],
      ...Array.from({ length: 20 }, (_, k) => [String(k + 1), '', String(k + 1)]),
    ]);
    expect(rows.filter((r) => r.response_id === responseIds[1]).map((r) => [r.repeat, r.Age])).toEqual([['0', '40']]);
  });

  it('refuses an unknown kind of export: "Not found."', async () => {
    const { caller, project } = await projectWithResponses();
    await expect(service.create(exportRequest(caller, project.id, { kind: 'pdf' }), ctx)).rejects.toMatchObject({
      code: '404.1',
      message: 'Not found.',
    });
  });

  it('answers "Invalid Schema Id!" for a form of another project', async () => {
    const { caller, project } = await projectWithResponses();
    const other = await newProject(peers, caller, 'Other');
    await expect(
      service.create(exportRequest(caller, project.id, { schema_id: other.project_hierarchy[0]!.schema_id }), ctx),
    ).rejects.toMatchObject({ code: '404.9', message: 'Invalid Schema Id!' });
  });

  it('refuses an export to a collector, who may not read all results, and to a caller of another workspace', async () => {
    const { caller, project } = await projectWithResponses();
    const collector = await member(caller, project.id, 'collector', { collector: true });
    await expect(service.create(exportRequest(collector, project.id), ctx)).rejects.toMatchObject({
      code: '403.1',
      message: "You don't have access to this item.",
    });
    const other = await newOwner(peers);
    await expect(service.create(exportRequest(other.caller, project.id), ctx)).rejects.toMatchObject({
      code: '404.4',
    });
  });

  it('shows a job only to the one who queued it: another researcher of the project gets "Not found."', async () => {
    const { caller, project } = await projectWithResponses();
    const researcher = await member(caller, project.id, 'researcher', { researcher: true });
    const job = await service.create(exportRequest(caller, project.id), ctx);
    await expect(service.get({ caller: researcher, job_id: job.id }, ctx)).rejects.toMatchObject({ code: '404.1' });
    await expect(service.get({ caller, job_id: '00000000-0000-0000-0000-000000000000' }, ctx)).rejects.toMatchObject({
      code: '404.1',
    });
    // The researcher's own export is theirs to read.
    const own = await service.create(exportRequest(researcher, project.id), ctx);
    expect((await finished(researcher, own.id)).status).toBe('done');
  });

  it('names the collectors in a researcher’s export as in the owner’s, a collector without a name included (issue 30 item 8)', async () => {
    const { caller, project } = await projectWithResponses();
    const researcher = await member(caller, project.id, 'researcher', { researcher: true });
    // The owner (the responses' collector) without a name: their name is their username, which the project shows a
    // researcher no longer (only those who manage its users see it); the export names them from the accounts.
    await deps.auth.updateUser({ caller, id: caller.user_id, first_name: '', last_name: '' });
    const seen = await deps.projects.getProject({ caller: researcher, project_id: project.id });
    expect(seen.projectuser_set.find((u) => u.user_id === caller.user_id)).toMatchObject({
      display_name: '',
      username: '',
    });
    const byOwner = await csvOf(caller, project.id);
    const byResearcher = await csvOf(researcher, project.id);
    expect(byOwner[0]!.Collector).not.toBe('');
    expect(byOwner[0]!.Collector).not.toBe(String(caller.user_id));
    expect(byResearcher.map((r) => r.Collector)).toEqual(byOwner.map((r) => r.Collector));
  });

  it('previews a CSV import column by column once the workspace has imports, and refuses to queue a file naming no question', async () => {
    const { caller, project } = await projectWithResponses();
    const upload = (filename: string, csv: string) =>
      deps.projects.uploadFile(
        projects.UploadFileRequest.fromPartial({
          caller,
          project_id: project.id,
          filename,
          content_type: 'text/csv',
          content: Buffer.from(csv),
        }),
      );
    const file = await upload('rows.csv', 'Adults,Colour\n4,red\n5,blue\n');
    const importRequest = (fileId: string) =>
      exports_.ImportRequest.fromPartial({
        caller,
        project_id: project.id,
        file_identifier: fileId,
        value_delimiter: ' | ',
      });
    // Imports are a feature of the workspace: refused until it is enabled there.
    await expect(service.previewImport(importRequest(file.file_id), ctx)).rejects.toMatchObject({ code: '403.1' });
    await deps.auth.adminSetFeatures({ organization_id: caller.organization_id, enable: ['ingestion'], disable: [] });
    const preview = await service.previewImport(importRequest(file.file_id), ctx);
    expect(preview.columns.map((c) => [c.header, c.target_kind])).toEqual([
      ['Adults', 'item'],
      ['Colour', ''],
    ]);
    // A CSV's cells are text as the file holds them.
    expect(preview.rows.map((r) => r.cells.map((c) => c.text ?? c.number ?? c.flag ?? null))).toEqual([
      ['4', 'red'],
      ['5', 'blue'],
    ]);
    const unmapped = await upload('colours.csv', 'Colour\nred\n');
    await expect(service.createImport(importRequest(unmapped.file_id), ctx)).rejects.toMatchObject({
      code: '400.2',
      message: 'No column of the file is mapped to a question of this form.',
    });
  });

  it('refuses an empty users file: "The file is empty."', async () => {
    const { caller, project } = await projectWithResponses();
    await expect(
      service.createUsersImport(
        { caller, project_id: project.id, content: Buffer.alloc(0), filename: 'users.csv' },
        ctx,
      ),
    ).rejects.toMatchObject({ code: '400.1', fields: { file: ['The file is empty.'] } });
  });
});
