// The responses service's use cases (UploadService, ReadService, CountService, as the gRPC handlers call them) on a
// real PostgreSQL, with the real projects service deciding access and the real forms service serving the schema:
// uploads decided against the stored copy, validation refusals, reading within the caller's scope, counts, and the
// signed grant a service trusts instead of asking the projects service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, common, forms, projects, responses } from '@fieldwork/proto';
import { addBlock, addItem, newSchemaBody, updateItem, type SchemaBody } from '@fieldwork/sampler';
import { createClient, createLogger, createObjectStore, GRANT_KEY, signGrant } from '@fieldwork/service-kit';
import {
  acceptInvitation,
  migratedPool,
  newOwner,
  newProject,
  startPeers,
  type Peers,
} from '../../projects/test/support/peers.js';
import { loadResponsesConfig } from '../src/config.js';
import { AccessCache } from '../src/service/access.js';
import { CountService } from '../src/service/count.service.js';
import type { ResponsesDeps } from '../src/service/deps.js';
import { ReadService } from '../src/service/read.service.js';
import { SchemaCache } from '../src/service/schemas.js';
import { UploadService } from '../src/service/upload.service.js';

let peers: Peers;
let deps: ResponsesDeps;
let uploads: UploadService;
let reads: ReadService;
let counts: CountService;
const ctx = { requestId: 'responses-service-test' };

beforeAll(async () => {
  // The responses service is served too (with the run's signing secret), for the grant test's call to its port.
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadResponsesConfig(peers.env('responses'));
  deps = {
    sql: await migratedPool(peers, 'responses'),
    log: createLogger('responses-service-test', 'silent'),
    auth: createClient(auth.AuthServiceClient, peers.address('auth'), { secret: peers.contextSecret }),
    projects: createClient(projects.ProjectsServiceClient, peers.address('projects'), { secret: peers.contextSecret }),
    forms: createClient(forms.FormsServiceClient, peers.address('forms'), { secret: peers.contextSecret }),
    files: createObjectStore(config),
    published: () => undefined,
    linkLimits: { responses: 100, mediaBytes: 1_000_000, pendingMedia: 50 },
  };
  const access = new AccessCache(deps.projects, peers.contextSecret);
  uploads = new UploadService(deps, access, new SchemaCache(deps.forms));
  reads = new ReadService(deps, access);
  counts = new CountService(deps.sql);
});

afterAll(async () => {
  deps?.auth.close();
  deps?.projects.close();
  deps?.forms.close();
  await peers?.stop();
});

/** Adults: a required number from 0 to 20; Double: calculated, adults × 2. */
function householdForm() {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const adults = addItem(b.body, b.id, 'number', 'en', 'Adults');
  let body: SchemaBody = updateItem(adults.body, adults.id, {
    options: {
      ...adults.body.entities.items[adults.id]!.options,
      isRequiredQuestion: true,
      minimum: { active: true, value: 0 },
      maximum: { active: true, value: 20 },
    },
  });
  const double = addItem(body, b.id, 'calculated', 'en', 'Double');
  body = updateItem(double.body, double.id, {
    options: { ...double.body.entities.items[double.id]!.options, formula: `Q${b.id}_${adults.id} * 2` },
  });
  const note = addItem(body, b.id, 'open', 'en', 'Note');
  return { body: note.body, ids: { adults: adults.id, double: double.id, note: note.id } };
}

/** A new owner's project whose first form is the household form, saved through the real forms service. */
async function projectWithForm() {
  const { caller } = await newOwner(peers);
  const project = await newProject(peers, caller);
  const schema = project.project_hierarchy[0]!.schema_id;
  const { body, ids } = householdForm();
  const doc = await deps.forms.getSchemaDocument({ caller, schema_id: schema });
  await deps.forms.saveSchemaDocument({
    caller,
    schema_id: schema,
    body_json: JSON.stringify(body),
    revision: doc.revision,
    name: '',
  });
  return { caller, project, schema, ids };
}

let counter = 0;
const rid = (p: number, s: number) => `${p}-${s}-1-dev-${++counter}`;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const answers = (r: responses.Response | undefined) =>
  JSON.parse(r!.data_json) as Record<string, Record<string, unknown>>;
const upload = (caller: common.Caller, projectId: number, payload: object, action = 'save', callCtx = ctx) =>
  uploads.upload({ caller, project_id: projectId, action, payload_json: JSON.stringify(payload) }, callCtx);

describe(UploadService.name, () => {
  it('stores a response once, recomputes its calculations, skips the same copy and ignores an older one', async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    const payload = {
      project: project.id,
      sampler_schema: schema,
      device_id: 'dev-1',
      response_id: rid(project.id, schema),
      time_updated: iso(60_000),
      data: { '0': { [ids.adults]: 3, [ids.double]: 999 } },
    };
    const first = await upload(caller, project.id, payload);
    expect(first.status).toBe('stored');
    expect(first.response).toMatchObject({ project: project.id, user: caller.user_id, version: 1, is_valid: true });
    // The calculated answer is the server's, not the 999 sent.
    expect(answers(first.response)['0']).toEqual({ [ids.adults]: 3, [ids.double]: 6 });
    expect((await upload(caller, project.id, payload)).status).toBe('unmodified');
    const older = await upload(caller, project.id, {
      ...payload,
      time_updated: iso(3_600_000),
      data: { '0': { [ids.adults]: 1 } },
    });
    expect(older.status).toBe('ignored');
    const newer = await upload(caller, project.id, {
      ...payload,
      time_updated: iso(0),
      // A new version never moves the response's creation: the results store partitions every version of a
      // response by its month created, and relies on all of them having the same (clickhouse/0012-partitions.sql).
      time_created: '2020-01-01T00:00:00.000Z',
      data: { '0': { [ids.adults]: 4 } },
    });
    expect(newer.status).toBe('stored');
    expect(newer.response).toMatchObject({ version: 2, time_created: first.response!.time_created });
    expect(answers(newer.response)['0']).toMatchObject({ [ids.adults]: 4, [ids.double]: 8 });
  });

  it("writes an import batch's new responses with the same outbox event as an upload's", async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    await deps.auth.adminSetFeatures({ organization_id: caller.organization_id, enable: ['ingestion'], disable: [] });
    const payload = (response_id: string) => ({
      project: project.id,
      sampler_schema: schema,
      device_id: 'dev-1',
      response_id,
      time_created: '2025-03-04T05:06:07.089Z',
      time_updated: '2025-03-04T06:07:08.900Z',
      data: { '0': { [ids.adults]: 3, [ids.note]: 'ok' } },
    });
    const uploaded = rid(project.id, schema);
    const imported = [rid(project.id, schema), rid(project.id, schema)];
    expect((await upload(caller, project.id, payload(uploaded))).status).toBe('stored');
    const batch = await uploads.importBatch(
      {
        caller,
        project_id: project.id,
        payloads_json: [...imported.map((id) => JSON.stringify(payload(id))), '{not json'],
        actions: ['save', 'save', 'save'],
      },
      ctx,
    );
    expect(batch.results.map((r) => r.status)).toEqual(['stored', 'stored', 'failed']);
    expect(JSON.stringify(batch.results[2]!.errors)).toContain('Send the response as a JSON object.');
    const events = await deps.sql<{ response_id: string; payload: Record<string, unknown> }[]>`
      select response_id, payload from response_outbox where project_id = ${project.id} order by id`;
    expect(events.map((e) => e.response_id)).toEqual([uploaded, ...imported]);
    const [one, ...many] = events.map((e) => e.payload);
    const expected = {
      type: 'response',
      version: 1,
      project: project.id,
      schema,
      user: caller.user_id,
      // Where the caller's own placement files it (the upload's event says where).
      site: one!.site,
      group: one!.group,
      team: one!.team,
      completed: false,
      deleted: false,
      archived: false,
      parent_id: null,
      geotag: null,
      time_created: '2025-03-04T05:06:07.089Z',
      time_updated: '2025-03-04T06:07:08.900Z',
      time_completed: null,
      data: { '0': { [ids.adults]: 3, [ids.double]: 6, [ids.note]: 'ok' } },
      removed: [],
    };
    for (const [i, event] of [one, ...many].entries()) {
      expect(event).toEqual({
        ...expected,
        response_id: [uploaded, ...imported][i],
        time_uploaded: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    }
  });

  it('refuses answers the form does not allow, at their questions, and a response id of another project', async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    const base = { sampler_schema: schema, device_id: 'd', response_id: rid(project.id, schema) };
    await expect(upload(caller, project.id, { ...base, data: { '0': { [ids.adults]: 21 } } })).rejects.toMatchObject({
      code: '400.1',
      fields: { [`data.0.${ids.adults}`]: ['Ensure this value is less than or equal to 20.'] },
    });
    await expect(
      upload(caller, project.id, { ...base, response_id: `999-${schema}-x`, data: { '0': { [ids.adults]: 1 } } }),
    ).rejects.toMatchObject({
      code: '400.1',
      fields: { response_id: [`The response id must start with ${project.id}-${schema}-.`] },
    });
  });

  it('refuses a form of another project: "This form does not belong to the project."', async () => {
    const { caller, project, ids } = await projectWithForm();
    const other = await newProject(peers, caller, 'Other');
    const otherSchema = other.project_hierarchy[0]!.schema_id;
    await expect(
      upload(caller, project.id, {
        sampler_schema: otherSchema,
        device_id: 'd',
        response_id: rid(project.id, otherSchema),
        data: { '0': { [ids.adults]: 1 } },
      }),
    ).rejects.toMatchObject({
      code: '400.1',
      fields: { sampler_schema: ['This form does not belong to the project.'] },
    });
  });

  it('completes a response only with its required questions answered', async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    const payload = {
      sampler_schema: schema,
      device_id: 'd',
      response_id: rid(project.id, schema),
      data: { '0': { [ids.note]: 'only a note' } },
    };
    await expect(upload(caller, project.id, payload, 'complete')).rejects.toMatchObject({
      code: '400.1',
      fields: { non_field_errors: ['All required questions must be answered to save this record.'] },
    });
    const saved = await upload(caller, project.id, payload);
    expect(saved.response).toMatchObject({ is_valid: false, completed: false });
    const done = await upload(
      caller,
      project.id,
      { ...payload, time_updated: iso(0), data: { '0': { [ids.adults]: 2, [ids.note]: 'only a note' } } },
      'complete',
    );
    expect(done.response).toMatchObject({ is_valid: true, completed: true });
  });

  it('refuses a caller of another workspace: "Invalid Project Id!"', async () => {
    const { project, schema, ids } = await projectWithForm();
    const other = await newOwner(peers);
    await expect(
      upload(other.caller, project.id, {
        sampler_schema: schema,
        device_id: 'd',
        response_id: rid(project.id, schema),
        data: { '0': { [ids.adults]: 1 } },
      }),
    ).rejects.toMatchObject({ code: '404.4', message: 'Invalid Project Id!' });
  });
});

describe(ReadService.name, () => {
  it('lists and reads the stored responses, "Not found." for an unknown id, and counts them by form', async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    const made = [];
    for (const [i, n] of [1, 2, 3].entries()) {
      const r = await upload(
        caller,
        project.id,
        {
          sampler_schema: schema,
          device_id: 'd',
          response_id: rid(project.id, schema),
          data: { '0': { [ids.adults]: n } },
        },
        i === 0 ? 'complete' : 'save',
      );
      made.push(r.response!.response_id);
    }
    const list = await reads.list({ caller, project_id: project.id, limit: 0, after_id: 0 }, ctx);
    expect(list.results.map((r) => r.response_id).sort()).toEqual([...made].sort());
    const one = await reads.getOne({ caller, project_id: project.id, response_id: made[1]! }, ctx);
    expect(answers(one)['0']).toMatchObject({ [ids.adults]: 2 });
    await expect(
      reads.getOne({ caller, project_id: project.id, response_id: `${project.id}-${schema}-nope` }, ctx),
    ).rejects.toMatchObject({ code: '404.1', message: 'Not found.' });
    const c = await counts.counts({ project_id: project.id });
    expect(c.all).toMatchObject({ total: 3, complete: 1 });
    expect(c.by_schema[schema]).toMatchObject({ total: 3, complete: 1 });
  });

  it('filters on a question by every repeat instance: a response matches when any instance does', async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    const made: string[] = [];
    for (const data of [
      { '0': { [ids.adults]: 1 }, '1': { [ids.adults]: 7 } },
      { '0': { [ids.adults]: 3 }, '1': { [ids.note]: 'Leaking roof' } },
    ]) {
      const r = await upload(caller, project.id, {
        sampler_schema: schema,
        device_id: 'd',
        response_id: rid(project.id, schema),
        data,
      });
      made.push(r.response!.response_id);
    }
    const filtered = async (filters: object) =>
      (
        await reads.filter(
          {
            caller,
            project_id: project.id,
            schema_id: schema,
            filters_json: JSON.stringify(filters),
            page: 1,
            page_size: 0,
          },
          ctx,
        )
      ).results.map((r) => r.response_id);
    expect(await filtered({ filters: [{ question: ids.adults, operator: '>', value: 5 }] })).toEqual([made[0]]);
    expect(await filtered({ filters: [{ question: ids.adults, operator: '==', value: 3 }] })).toEqual([made[1]]);
    expect(await filtered({ filters: [{ question: ids.note, operator: 'contains', value: 'ROOF' }] })).toEqual([
      made[1],
    ]);
  });

  it("lets a collector read only their own responses and their read_sites', not the rest of the project's", async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    const home = project.sites[0]!.id;
    const north = await deps.projects.createSite(
      projects.SiteRequest.fromPartial({
        caller,
        project_id: project.id,
        name: 'North',
        geotag: { latitude: 1, longitude: 2 },
      }),
    );
    const collector = async (label: string, site: number, readSites: number[]) => {
      const added = await deps.projects.addProjectUser(
        projects.AddProjectUserRequest.fromPartial({
          caller,
          project_id: project.id,
          email: `${label}.${project.id}.${peers.infra.runId}@example.org`,
          first_name: 'Cleo',
          last_name: label,
          password: 'correct horse 42',
          roles: { collector: true },
          site,
          read_sites: readSites,
        }),
      );
      await acceptInvitation(peers, added.email);
      return common.Caller.fromPartial({ user_id: added.user_id, organization_id: caller.organization_id });
    };
    const reader = await collector('reader', home, [north.id]);
    const northern = await collector('northern', north.id, []);
    const filed = async (who: common.Caller, site: number) =>
      (
        await upload(who, project.id, {
          sampler_schema: schema,
          device_id: 'd',
          response_id: rid(project.id, schema),
          site,
          data: { '0': { [ids.adults]: 1 } },
        })
      ).response!;
    const owners = await filed(caller, home);
    const readers = await filed(reader, home);
    const northerns = await filed(northern, north.id);
    expect(northerns.site_id).toBe(north.id);
    const listed = async (who: common.Caller) =>
      (await reads.list({ caller: who, project_id: project.id, limit: 0, after_id: 0 }, ctx)).results
        .map((r) => r.response_id)
        .sort();
    expect(await listed(caller)).toEqual([owners.response_id, readers.response_id, northerns.response_id].sort());
    // Their own, and North's (a read site), but not the owner's in their own site.
    expect(await listed(reader)).toEqual([readers.response_id, northerns.response_id].sort());
    expect(await listed(northern)).toEqual([northerns.response_id]);
    await expect(
      reads.getOne({ caller: northern, project_id: project.id, response_id: owners.response_id }, ctx),
    ).rejects.toMatchObject({ code: '404.1' });
  });

  it('refuses a caller of another workspace the project\'s responses: "Invalid Project Id!"', async () => {
    const { project } = await projectWithForm();
    const other = await newOwner(peers);
    await expect(
      reads.list({ caller: other.caller, project_id: project.id, limit: 0, after_id: 0 }, ctx),
    ).rejects.toMatchObject({
      code: '404.4',
    });
  });
});

describe('a signed grant in the call metadata', () => {
  it("is trusted when signed with the service's secret, and a forged one is ignored (the projects service decides)", async () => {
    const { caller, project, schema, ids } = await projectWithForm();
    const outsider = await newOwner(peers);
    // What the projects service answers the owner, granted instead to an outsider of the workspace.
    const ownersAccess = await deps.projects.getAccess({ caller, project_id: project.id });
    const payload = (n: number) =>
      JSON.stringify({
        sampler_schema: schema,
        device_id: 'd',
        response_id: rid(project.id, schema),
        data: { '0': { [ids.adults]: n } },
      });
    // Sent straight to the served responses service's port, as a caller bypassing the gateway would.
    const client = createClient(responses.ResponsesServiceClient, peers.address('responses'), {
      secret: peers.contextSecret,
    });
    try {
      const call = (secret: string) =>
        client.upload(
          { caller: outsider.caller, project_id: project.id, action: 'save', payload_json: payload(1) },
          { headers: { [GRANT_KEY]: signGrant(secret, outsider.caller, ownersAccess, Date.now()) } },
        );
      await expect(call('f'.repeat(64))).rejects.toMatchObject({ code: '404.4', message: 'Invalid Project Id!' });
      expect((await call(peers.contextSecret)).status).toBe('stored');
    } finally {
      client.close();
    }
  });
});
