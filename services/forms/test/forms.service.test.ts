// The forms service's use cases (SchemaService and DocumentService, as the gRPC handlers call them) on a real
// PostgreSQL, with the real projects service deciding who may read and save a form: loading, saving by revision,
// versions and restore, the internal calls of the other services, and the refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects, responses, type common } from '@fieldwork/proto';
import { addBlock, addItem, type SchemaBody } from '@fieldwork/sampler';
import { createClient, createLogger, createObjectStore, type Sql } from '@fieldwork/service-kit';
import { loadFormsConfig } from '../src/config.js';
import { ConversionPool } from '../src/convert/conversion-pool.js';
import { FORM_LIMITS } from '../src/convert/form-limits.js';
import { DocumentService } from '../src/service/document.service.js';
import { SchemaService } from '../src/service/schema.service.js';
import {
  acceptInvitation,
  migratedPool,
  newOwner,
  newProject,
  startPeers,
  type Peers,
} from '../../projects/test/support/peers.js';

let peers: Peers;
let sql: Sql;
let schemas: SchemaService;
let documents: DocumentService;
let conversions: ConversionPool;
const connect = () => ({
  projects: createClient(projects.ProjectsServiceClient, peers.address('projects'), { secret: peers.contextSecret }),
  responses: createClient(responses.ResponsesServiceClient, peers.address('responses'), {
    secret: peers.contextSecret,
  }),
});
let clients: ReturnType<typeof connect>;
const ctx = { requestId: 'forms-service-test' };

beforeAll(async () => {
  // The forms service is served too: the projects service makes a project's first form through it.
  peers = await startPeers(['auth', 'projects', 'forms', 'responses']);
  const config = loadFormsConfig(peers.env('forms'));
  sql = await migratedPool(peers, 'forms');
  clients = connect();
  const log = createLogger('forms-service-test', 'silent');
  conversions = new ConversionPool({
    // Workers run built JavaScript (pnpm run build).
    workerFile: new URL('../dist/convert/conversion.worker.js', import.meta.url),
    workers: 1,
    queue: 2,
    timeoutMs: 30_000,
    heapMb: 256,
    log,
  });
  schemas = new SchemaService(sql);
  documents = new DocumentService(
    sql,
    clients.projects,
    createObjectStore(config),
    log,
    conversions,
    { maxFileBytes: config.FORMS_MAX_FILE_BYTES, limits: FORM_LIMITS },
    clients.responses,
    peers.contextSecret,
  );
});

afterAll(async () => {
  await conversions?.close();
  clients?.projects.close();
  clients?.responses.close();
  await peers?.stop();
});

/** A project of a new owner and its first form, as the projects service made it. */
async function projectWithForm(): Promise<{ caller: common.Caller; project: projects.Project; schemaId: number }> {
  const { caller } = await newOwner(peers);
  const project = await newProject(peers, caller);
  return { caller, project, schemaId: project.project_hierarchy[0]!.schema_id };
}

function withQuestions(body: SchemaBody, n: number): SchemaBody {
  const b = addBlock(body, { en: 'Household' });
  let out = b.body;
  for (let i = 0; i < n; i++) out = addItem(out, b.id, 'number', 'en', `How many people ${i}?`).body;
  return out;
}

describe(DocumentService.name, () => {
  describe('get', () => {
    it("serves the project's first form to its owner, editable", async () => {
      const { caller, project, schemaId } = await projectWithForm();
      const doc = await documents.get({ caller, schema_id: schemaId }, ctx);
      expect(doc).toMatchObject({ id: schemaId, project_id: project.id, level: 0, editable: true });
      expect(JSON.parse(doc.body_json)).toMatchObject({ form: [] });
    });

    it('answers "Invalid Schema Id!" for an unknown schema and for a schema of a project the caller cannot see', async () => {
      const { caller, schemaId } = await projectWithForm();
      const other = await newOwner(peers);
      await expect(documents.get({ caller, schema_id: 987_654 }, ctx)).rejects.toMatchObject({
        code: '404.9',
        message: 'Invalid Schema Id!',
      });
      await expect(documents.get({ caller: other.caller, schema_id: schemaId }, ctx)).rejects.toMatchObject({
        code: '404.9',
        message: 'Invalid Schema Id!',
      });
    });
  });

  describe('save', () => {
    it('saves each new body as the next revision and lists the saved ones before the current as versions', async () => {
      const { caller, schemaId } = await projectWithForm();
      const first = await documents.get({ caller, schema_id: schemaId }, ctx);
      const body = withQuestions(JSON.parse(first.body_json) as SchemaBody, 3);
      const saved = await documents.save(
        { caller, schema_id: schemaId, body_json: JSON.stringify(body), revision: first.revision, name: 'Census' },
        ctx,
      );
      expect(saved).toMatchObject({ revision: first.revision + 1, name: 'Census' });
      expect(JSON.parse((await documents.get({ caller, schema_id: schemaId }, ctx)).body_json)).toEqual(body);
      const again = await documents.save(
        {
          caller,
          schema_id: schemaId,
          body_json: JSON.stringify(withQuestions(body, 1)),
          revision: saved.revision,
          name: '',
        },
        ctx,
      );
      const versions = await documents.versions({ caller, schema_id: schemaId }, ctx);
      expect(again.name).toBe('Census');
      expect(versions.results).toEqual([expect.objectContaining({ id: saved.revision, name: 'Census', questions: 3 })]);
    });

    it('refuses a save over a revision someone else moved past: "A newer revision of this form already exists."', async () => {
      const { caller, schemaId } = await projectWithForm();
      const first = await documents.get({ caller, schema_id: schemaId }, ctx);
      const body = JSON.parse(first.body_json) as SchemaBody;
      await documents.save(
        {
          caller,
          schema_id: schemaId,
          body_json: JSON.stringify(withQuestions(body, 1)),
          revision: first.revision,
          name: '',
        },
        ctx,
      );
      await expect(
        documents.save(
          {
            caller,
            schema_id: schemaId,
            body_json: JSON.stringify(withQuestions(body, 2)),
            revision: first.revision,
            name: '',
          },
          ctx,
        ),
      ).rejects.toMatchObject({ code: '409.1', message: 'A newer revision of this form already exists.' });
    });

    it('refuses a body that is not JSON, naming the field', async () => {
      const { caller, schemaId } = await projectWithForm();
      await expect(
        documents.save({ caller, schema_id: schemaId, body_json: '{not json', revision: 0, name: '' }, ctx),
      ).rejects.toMatchObject({ code: '400.1', fields: { schema: ['The schema is not valid JSON.'] } });
    });

    it('refuses a save to a collector of the project: "You don\'t have access to this item."', async () => {
      const { caller, project, schemaId } = await projectWithForm();
      const added = await clients.projects.addProjectUser(
        projects.AddProjectUserRequest.fromPartial({
          caller,
          project_id: project.id,
          email: `forms.collector.${peers.infra.runId}@example.org`,
          first_name: 'Cleo',
          last_name: 'Collector',
          password: 'correct horse 42',
          roles: { collector: true },
        }),
      );
      await acceptInvitation(peers, added.email);
      const collector = { ...caller, user_id: added.user_id };
      // A collector loads the form to fill it in, but may not change it.
      expect((await documents.get({ caller: collector, schema_id: schemaId }, ctx)).editable).toBe(false);
      const doc = await documents.get({ caller, schema_id: schemaId }, ctx);
      await expect(
        documents.save(
          { caller: collector, schema_id: schemaId, body_json: doc.body_json, revision: 0, name: '' },
          ctx,
        ),
      ).rejects.toMatchObject({ code: '403.1', message: "You don't have access to this item." });
    });
  });

  describe('restore', () => {
    it('makes an earlier version current as a new revision, and refuses an unknown version: "Not found."', async () => {
      const { caller, schemaId } = await projectWithForm();
      const first = await documents.get({ caller, schema_id: schemaId }, ctx);
      const original = withQuestions(JSON.parse(first.body_json) as SchemaBody, 1);
      const saved = await documents.save(
        { caller, schema_id: schemaId, body_json: JSON.stringify(original), revision: first.revision, name: '' },
        ctx,
      );
      const later = await documents.save(
        {
          caller,
          schema_id: schemaId,
          body_json: JSON.stringify(withQuestions(original, 2)),
          revision: saved.revision,
          name: '',
        },
        ctx,
      );
      const restored = await documents.restore({ caller, schema_id: schemaId, version_id: saved.revision }, ctx);
      expect(restored.revision).toBe(later.revision + 1);
      expect(JSON.parse(restored.body_json)).toEqual(original);
      await expect(
        documents.restore({ caller, schema_id: schemaId, version_id: restored.revision + 5 }, ctx),
      ).rejects.toMatchObject({ code: '404.1', message: 'Not found.' });
    });
  });

  describe('exportXlsForm', () => {
    it('writes the form as an XLSForm workbook named after it (safe for a file name), for whoever may load it', async () => {
      const { caller, schemaId } = await projectWithForm();
      const doc = await documents.get({ caller, schema_id: schemaId }, ctx);
      await documents.save(
        {
          caller,
          schema_id: schemaId,
          body_json: JSON.stringify(withQuestions(JSON.parse(doc.body_json) as SchemaBody, 2)),
          revision: doc.revision,
          name: 'Census 2026/27',
        },
        ctx,
      );
      const file = await documents.exportXlsForm({ caller, schema_id: schemaId }, ctx);
      expect(file.filename).toBe('Census 2026_27.xlsx'); // a slash has no place in a file name
      // An .xlsx is a zip archive: "PK\x03\x04".
      expect(file.content.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
      const other = await newOwner(peers);
      await expect(documents.exportXlsForm({ caller: other.caller, schema_id: schemaId }, ctx)).rejects.toMatchObject({
        code: '404.9',
      });
    });
  });

  describe('getInternal', () => {
    it('serves any schema to the services without a caller, and "Invalid Schema Id!" for an unknown one', async () => {
      const { schemaId } = await projectWithForm();
      expect((await documents.getInternal({ schema_id: schemaId })).id).toBe(schemaId);
      await expect(documents.getInternal({ schema_id: 0 })).rejects.toMatchObject({ code: '404.9' });
    });
  });
});

describe(SchemaService.name, () => {
  it("counts a project's questions by schema and copies its schemas to another project", async () => {
    const { caller, project, schemaId } = await projectWithForm();
    const doc = await documents.get({ caller, schema_id: schemaId }, ctx);
    await documents.save(
      {
        caller,
        schema_id: schemaId,
        body_json: JSON.stringify(withQuestions(JSON.parse(doc.body_json) as SchemaBody, 4)),
        revision: doc.revision,
        name: '',
      },
      ctx,
    );
    const counts = await schemas.countQuestions({ project_id: project.id });
    expect(counts.questions).toBe(4);
    expect(counts.by_schema[schemaId]).toBe(4);

    const target = await newProject(peers, caller, 'Copy');
    const copied = await schemas.duplicate({ from_project_id: project.id, to_project_id: target.id });
    expect(copied.results).toHaveLength(1);
    expect(copied.results[0]!.id).not.toBe(schemaId);
    expect((await schemas.countQuestions({ project_id: target.id })).questions).toBe(4); // its own empty form and the copy
  });
});
