// Purging a deleted project against the real stores: every service runs (auth, projects with its purge job, forms,
// responses, results on chDB, exports with its workers) on one PostgreSQL database, NATS and object store. A project
// gets responses (PostgreSQL, the RESPONSES stream, chDB), media (objects and thumbnails), an export file, an
// uploaded file, a logo, a collection link; it is deleted, then purged through the projects service's calls; each
// store is counted before and after, by queries of its own, and a second project of the workspace keeps all of its.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common, exports_, forms, projects, responses, results } from '@fieldwork/proto';
import {
  connectNats,
  createClient,
  createLogger,
  createObjectStore,
  createPool,
  responseSubject,
  responsesStream,
  type Nats,
  type ObjectStore,
  type Sql,
} from '@fieldwork/service-kit';
import { addBlock, addItem, newSchemaBody } from '@fieldwork/sampler';
import { loadProjectsConfig } from '../src/config.js';
import { PURGE_MESSAGES } from '../src/service/purge.service.js';
import { PURGING } from '../src/service/settings.service.js';
import { acceptInvitation, newOwner, newProject, startPeers, type Peers } from './support/peers.js';

let peers: Peers;
let sql: Sql;
let files: ObjectStore;
let nats: Nats;
const clients = () => ({
  auth: createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret }),
  projects: createClient(projects.ProjectsServiceClient, peers.address('projects'), { secret: peers.contextSecret }),
  forms: createClient(forms.FormsServiceClient, peers.address('forms'), { secret: peers.contextSecret }),
  responses: createClient(responses.ResponsesServiceClient, peers.address('responses'), {
    secret: peers.contextSecret,
  }),
  results: createClient(results.ResultsServiceClient, peers.address('results'), { secret: peers.contextSecret }),
  exports: createClient(exports_.ExportsServiceClient, peers.address('exports'), { secret: peers.contextSecret }),
});
let c: ReturnType<typeof clients>;

// A 1x1 PNG (the media completion reads it and makes a thumbnail).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  peers = await startPeers(['auth', 'projects', 'forms', 'responses', 'results', 'exports']);
  sql = createPool(peers.infra.databaseUrl, { schema: 'public', appName: 'purge-service-test' });
  files = createObjectStore(loadProjectsConfig(peers.env('projects')));
  nats = await connectNats(peers.infra.natsUrl, { name: 'purge-test', log: createLogger('purge-test', 'silent') });
  c = clients();
}, 180_000);

afterAll(async () => {
  if (c) for (const client of Object.values(c)) client.close();
  await nats?.close();
  await sql?.end({ timeout: 5 });
  await peers?.stop();
});

const until = async (what: string, ok: () => Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** What each store holds of a project, counted here (not by the code under test). */
async function stored(projectId: number, logo: string) {
  const [pg] = await sql<Record<string, number>[]>`
    select (select count(*) from responses.responses where project_id = ${projectId})::int as responses,
           (select count(*) from responses.media where project_id = ${projectId})::int as media,
           (select count(*) from responses.response_outbox where project_id = ${projectId})::int as outbox,
           (select count(*) from responses.sql_access where project_id = ${projectId})::int as sql_access,
           (select count(*) from exports.jobs where project_id = ${projectId})::int as jobs,
           (select count(*) from forms.sampler_schemas where project_id = ${projectId})::int as schemas,
           (select count(*) from projects.projects where id = ${projectId})::int as projects,
           (select count(*) from projects.sites where project_id = ${projectId})::int as sites,
           (select count(*) from projects.project_users where project_id = ${projectId})::int as project_users,
           (select count(*) from projects.surveys where project_id = ${projectId})::int as surveys,
           (select count(*) from projects.project_files where project_id = ${projectId} or object_key = ${logo})::int as files`;
  let objects = 0;
  for (const prefix of ['images', 'signatures', 'uploads', 'exports', 'imports'])
    for await (const _ of files.list(`${prefix}/${projectId}/`)) objects++;
  if (logo !== '' && (await files.stat(logo))) objects++;
  const ingest = await c.results.ingestStatus({ project_id: projectId });
  const info = await nats.jsm.streams.info(responsesStream(peers.infra.natsPrefix).name, {
    subjects_filter: responseSubject(peers.infra.natsPrefix, projectId),
  });
  const stream = Object.values(info.state.subjects ?? {}).reduce((s, n) => s + n, 0);
  return { ...pg, objects, chdb_responses: Number(ingest.responses), chdb_answers: Number(ingest.answers), stream };
}

/** A project with 3 responses (one with an image), an export file, an uploaded file, a logo and a link. */
async function filledProject(caller: common.Caller, name: string) {
  const logo = await c.projects.uploadLogo({
    caller,
    organization_id: caller.organization_id,
    filename: 'logo.png',
    content_type: 'image/png',
    content: PNG,
  });
  const created = await newProject(peers, caller, name);
  await c.projects.updateProject(
    projects.UpdateProjectRequest.fromPartial({ caller, project_id: created.id, logo: logo.file_id }),
  );
  const schema = created.project_hierarchy[0]!.schema_id;
  const doc = await c.forms.getSchemaDocument({ caller, schema_id: schema });
  const block = addBlock(newSchemaBody('S'), { en: 'Well' });
  const depth = addItem(block.body, block.id, 'number', 'en', 'Depth');
  await c.forms.saveSchemaDocument({
    caller,
    schema_id: schema,
    body_json: JSON.stringify(depth.body),
    revision: doc.revision,
    name: '',
  });
  for (let i = 0; i < 3; i++) {
    await c.responses.upload({
      caller,
      project_id: created.id,
      action: 'complete',
      payload_json: JSON.stringify({
        sampler_schema: schema,
        device_id: 'd',
        response_id: `${created.id}-${schema}-${caller.user_id}-d-${i}`,
        data: { '0': { [depth.id]: 10 + i } },
      }),
    });
  }
  const media = await c.responses.createMediaUpload({
    caller,
    project_id: created.id,
    response_id: `${created.id}-${schema}-${caller.user_id}-d-0`,
    kind: 'image',
    filename: 'well.png',
    content_type: 'image/png',
    size: PNG.length,
  });
  await files.put(media.key, PNG, { contentType: 'image/png', size: PNG.length });
  await c.responses.completeMediaUpload({ caller, project_id: created.id, media_id: media.media_id });
  await c.projects.uploadFile(
    projects.UploadFileRequest.fromPartial({
      caller,
      project_id: created.id,
      filename: 'households.csv',
      content: Buffer.from('name\nAna\n'),
    }),
  );
  await c.projects.createSurvey(
    projects.CreateSurveyRequest.fromPartial({
      caller,
      project_id: created.id,
      expiry_date: new Date(Date.now() + 86_400_000).toISOString(),
    }),
  );
  const job = await c.exports.createExport(
    exports_.CreateExportRequest.fromPartial({ caller, project_id: created.id, kind: 'named_csv' }),
  );
  await until('the export file', async () => (await c.exports.getJob({ caller, job_id: job.id })).status === 'done');
  await until(
    'the responses in chDB',
    async () => Number((await c.results.ingestStatus({ project_id: created.id })).responses) === 3,
  );
  return {
    project: created,
    logo: (await sql<{ logo: string }[]>`select logo from projects.projects where id = ${created.id}`)[0]!.logo,
  };
}

const ref = (caller: common.Caller, project_id: number) => ({ caller, project_id });

describe('purging a deleted project', () => {
  let owner: common.Caller;
  let target: Awaited<ReturnType<typeof filledProject>>;
  let kept: Awaited<ReturnType<typeof filledProject>>;

  beforeAll(async () => {
    owner = (await newOwner(peers, 'purger')).caller;
    target = await filledProject(owner, 'Wells 2024');
    kept = await filledProject(owner, 'Wells 2025');
  }, 180_000);

  it('refuses a project that is not deleted, with the reason', async () => {
    await expect(c.projects.getPurge(ref(owner, target.project.id))).rejects.toMatchObject({
      code: '400.1',
      fields: { project_state: [PURGE_MESSAGES.notDeleted] },
    });
    await expect(c.projects.startPurge(ref(owner, target.project.id))).rejects.toMatchObject({
      code: '400.1',
      fields: { project_state: [PURGE_MESSAGES.notDeleted] },
    });
  });

  it('takes no uploads once deleted: responses, media, files and links are refused', { timeout: 30_000 }, async () => {
    await c.projects.setStatus({ caller: owner, project_id: target.project.id, project_state: 'D' });
    // A call that does not come through the gateway (which sends a fresh grant) may use the responses service's
    // access cache for up to 15 s (docs/architecture.md, "Staleness"): wait it out.
    await new Promise((r) => setTimeout(r, 15_500));
    const schema = target.project.project_hierarchy[0]!.schema_id;
    const invalid = { message: 'Invalid Project Id!' };
    await expect(
      c.responses.upload({
        caller: owner,
        project_id: target.project.id,
        action: 'save',
        payload_json: JSON.stringify({
          sampler_schema: schema,
          device_id: 'd',
          response_id: `${target.project.id}-${schema}-9-d-9`,
          data: { '0': { 1: 1 } },
        }),
      }),
    ).rejects.toMatchObject(invalid);
    await expect(
      c.responses.createMediaUpload({
        caller: owner,
        project_id: target.project.id,
        response_id: `${target.project.id}-${schema}-9-d-9`,
        kind: 'image',
        filename: 'x.png',
        content_type: 'image/png',
        size: PNG.length,
      }),
    ).rejects.toMatchObject(invalid);
    await expect(
      c.projects.uploadFile(
        projects.UploadFileRequest.fromPartial({
          caller: owner,
          project_id: target.project.id,
          filename: 'a.csv',
          content: Buffer.from('a\n1\n'),
        }),
      ),
    ).rejects.toMatchObject(invalid);
    await expect(
      c.projects.createSurvey(
        projects.CreateSurveyRequest.fromPartial({
          caller: owner,
          project_id: target.project.id,
          expiry_date: new Date(Date.now() + 86_400_000).toISOString(),
        }),
      ),
    ).rejects.toMatchObject({ message: 'A finalized or deleted project takes no new collection links.' });
  });

  it('is in no list and no count of the workspace once deleted; the others count their responses', async () => {
    const listed = await c.projects.listProjects({ caller: owner, organization_id: owner.organization_id });
    expect(listed.results.map((p) => p.id)).toEqual([kept.project.id]);
    // The projects page's card counts the kept project's responses (the list used to answer 0 for every project).
    expect(listed.results[0]).toMatchObject({ total_responses: 3, complete_responses: 3, incomplete_responses: 0 });
    expect(listed.results[0]!.last_response).not.toBe('');
    const advanced = await c.projects.listAdvancedProjects({ caller: owner, organization_id: owner.organization_id });
    expect(advanced.results.map((p) => p.id)).toEqual([kept.project.id]);
    const purges = await c.projects.listPurges({ caller: owner, organization_id: owner.organization_id });
    expect(purges.results).toEqual([expect.objectContaining({ project_id: target.project.id, state: 'none' })]);
  });

  it('is refused to anyone but the owner of its workspace', async () => {
    const stranger = (await newOwner(peers, 'stranger')).caller;
    await expect(c.projects.startPurge(ref(stranger, target.project.id))).rejects.toMatchObject({
      message: 'Invalid Project Id!',
    });
    await expect(c.projects.listPurges({ caller: stranger, organization_id: owner.organization_id })).rejects.toThrow();
    // A workspace project admin manages every project but does not own the workspace.
    const admin = await c.auth.createOrganizationUser(
      auth.CreateOrganizationUserRequest.fromPartial({
        caller: owner,
        organization: owner.organization_id,
        email: `admin.${peers.infra.runId}@example.org`,
        first_name: 'Pat',
        last_name: 'Admin',
        password: 'correct horse 42',
        project_admin: true,
      }),
    );
    // An address added by someone else is an invitation (issue 30): the admin confirms it, then has an account.
    expect(admin.user).toBe(0);
    await acceptInvitation(peers, `admin.${peers.infra.runId}@example.org`);
    const [row] = await sql<{ id: string }[]>`
      select id from auth.users where lower(email) = ${`admin.${peers.infra.runId}@example.org`}`;
    const adminCaller = common.Caller.fromPartial({ user_id: Number(row!.id), organization_id: owner.organization_id });
    await expect(c.projects.startPurge(ref(adminCaller, target.project.id))).rejects.toMatchObject({
      message: "You don't have access to this item.",
    });
    expect((await sql`select 1 from projects.project_purges where project_id = ${target.project.id}`).length).toBe(0);
  });

  it('names what goes, removes it from every store and leaves the other project whole', async () => {
    const before = await stored(target.project.id, target.logo);
    expect(before).toMatchObject({
      responses: 3,
      media: 1,
      jobs: 1,
      schemas: 1,
      projects: 1,
      surveys: 1,
      // image, thumbnail, export file, uploaded file, logo
      objects: 5,
      chdb_responses: 3,
    });
    expect(before.stream).toBeGreaterThanOrEqual(3);
    const keptBefore = await stored(kept.project.id, kept.logo);

    const preview = await c.projects.getPurge(ref(owner, target.project.id));
    expect(preview.state).toBe('none');
    expect(preview.counts).toMatchObject({
      responses: 3,
      media_files: 1,
      export_jobs: 1,
      schemas: 1,
      uploaded_files: 1,
    });

    const started = await c.projects.startPurge(ref(owner, target.project.id));
    expect(started.state).toBe('running');
    // Restoring is refused once the purge is asked.
    await expect(
      c.projects.setStatus({ caller: owner, project_id: target.project.id, project_state: 'P' }),
    ).rejects.toMatchObject({ code: '400.1', fields: { project_state: [PURGING] } });
    await until('the purge', async () => (await c.projects.getPurge(ref(owner, target.project.id))).state === 'done');

    expect(await stored(target.project.id, target.logo)).toEqual({
      responses: 0,
      media: 0,
      outbox: 0,
      sql_access: 0,
      jobs: 0,
      schemas: 0,
      projects: 0,
      sites: 0,
      project_users: 0,
      surveys: 0,
      files: 0,
      objects: 0,
      chdb_responses: 0,
      chdb_answers: 0,
      stream: 0,
    });
    expect(await stored(kept.project.id, kept.logo)).toEqual(keptBefore);

    const done = await c.projects.getPurge(ref(owner, target.project.id));
    expect(done).toMatchObject({ state: 'done', name: 'Wells 2024' });
    expect(done.counts).toMatchObject({ responses: 3, export_jobs: 1, projects: 1 });
    const audit = await c.auth.listAudit({
      caller: owner,
      organization_id: owner.organization_id,
      event: '',
      page: 1,
      page_size: 50,
    });
    const events = audit.results.filter((e) => e.target === `project ${target.project.id}`).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['project_deleted', 'project_purge_requested', 'project_purged']));
    const purges = await c.projects.listPurges({ caller: owner, organization_id: owner.organization_id });
    expect(purges.results).toEqual([expect.objectContaining({ project_id: target.project.id, state: 'done' })]);
  }, 120_000);
});
