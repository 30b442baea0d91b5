// The form builder's calls (spec 001 §7 Schema): load and save a sampler schema, languages, a form from an upload.
import type { FastifyInstance } from 'fastify';
import { FORM_MAX_BYTES } from '@fieldwork/sampler';
import { problems } from '@fieldwork/service-kit/problems';
import type { forms } from '@fieldwork/proto';
import type { Clients } from '../clients.js';
import { formSchemas } from '../schemas/forms.js';
import { ref } from '../schemas/records.js';
import { id, str } from '../wire.js';
import { projectId } from './projects.js';
import { apiKeyRoute, meta, parseId, secured, withSchema } from './util.js';

type Json = Record<string, unknown>;

/** The document as the web app reads it: the schema's fields with its id, name and revision. */
function documentJson(d: forms.SchemaDocument) {
  return {
    ...(JSON.parse(d.body_json) as Json),
    id: d.id,
    name: d.name,
    project: d.project_id,
    level: d.level,
    revision: d.revision,
    time_updated: d.time_updated,
    editable: d.editable,
  };
}

/** A save holds the form and a few fields: the forms service refuses a form over FORM_MAX_BYTES, naming the limit. */
const FORM_BODY_LIMIT = FORM_MAX_BYTES + 1024 * 1024;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An attachment named `name`: an ASCII fallback for old clients, the name itself in UTF-8 (RFC 6266, 8187). */
export function attachment(name: string): string {
  const ascii =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\w. -]+/g, '_')
      .replace(/"/g, '_') || 'form.xlsx';
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** A version id is a revision (int32 on the wire): larger ids are no version rather than another one. */
const versionId = (value: string) => {
  const v = parseId(value, problems.notFound);
  if (v > 2_147_483_647) throw problems.notFound();
  return v;
};

export default async function formRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const opts = { preHandler: app.authenticate, config: apiKeyRoute, schema: { tags: ['forms'], security: secured } };
  const f = clients.forms;

  // Respondents of a collection link load their form with the link's token.
  app.get<{ Params: { id: string } }>(
    '/api/samplerschema/:id/',
    withSchema(
      { ...opts, preHandler: app.authenticateCollect },
      { params: formSchemas.schemaParams, response: { 200: ref('SamplerSchema') } },
    ),
    async (r) =>
      documentJson(
        await f.getSchemaDocument(
          { caller: r.caller, schema_id: parseId(r.params.id, problems.invalidSchemaId) },
          meta(r),
        ),
      ),
  );

  // The form as an XLSForm workbook, for whoever may load it (not for collection links).
  app.get<{ Params: { id: string } }>(
    '/api/samplerschema/:id/xlsform/',
    {
      ...opts,
      schema: {
        ...opts.schema,
        summary: 'The form as an XLSForm (.xlsx: survey, choices, settings)',
        params: formSchemas.schemaParams,
        response: { 200: formSchemas.xlsForm },
      },
    },
    async (r, reply) => {
      const file = await f.exportXlsForm(
        { caller: r.caller, schema_id: parseId(r.params.id, problems.invalidSchemaId) },
        meta(r),
      );
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', attachment(file.filename))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(file.content));
    },
  );

  app.put<{ Params: { id: string }; Body: Json }>(
    '/api/samplerschema/:id/',
    {
      ...opts,
      bodyLimit: FORM_BODY_LIMIT,
      schema: {
        ...opts.schema,
        params: formSchemas.schemaParams,
        body: formSchemas.save,
        response: { 200: ref('SamplerSchema') },
      },
    },
    async (r) => {
      const { id: _id, name, revision, project: _p, level: _l, time_updated: _t, editable: _e, ...body } = r.body ?? {};
      if (
        revision !== undefined &&
        revision !== null &&
        !(typeof revision === 'number' && Number.isSafeInteger(revision) && revision >= 0)
      ) {
        throw problems.invalidFields({ revision: ['A valid integer is required.'] });
      }
      const saved = await f.saveSchemaDocument(
        {
          caller: r.caller,
          schema_id: parseId(r.params.id, problems.invalidSchemaId),
          body_json: JSON.stringify(body),
          revision: typeof revision === 'number' ? revision : 0,
          name: typeof name === 'string' ? name : '',
        },
        meta(r),
      );
      return documentJson(saved);
    },
  );

  app.get('/api/languages/', withSchema(opts, { response: { 200: formSchemas.languages } }), async (r) => {
    const { results } = await f.listLanguages({}, meta(r));
    return { results, count: results.length };
  });

  // Making a form needs the form screen of the project: decided once at the gateway (route-access.ts), before a file
  // is converted.
  const formScreen = withSchema(opts, {
    params: formSchemas.projectParams,
    body: formSchemas.convert,
    response: { 200: formSchemas.converted },
  });
  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/create-form-from-upload/',
    formScreen,
    async (r) => {
      const b = r.body ?? {};
      const reply = await f.convertUpload(
        {
          caller: r.caller,
          project_id: projectId(r),
          file_identifier: str(b.file_identifier ?? b.file_id),
          schema_id: id(b.schema),
          confirm: b.confirm === true,
        },
        meta(r),
      );
      // An XLSForm's repeats: the forms of the levels below `schema` (the project's hierarchy now ends with them).
      return {
        schema: reply.schema ? documentJson(reply.schema) : null,
        levels: reply.levels.map(documentJson),
        notes: reply.notes,
        format: reply.format,
        questions: reply.questions,
        summary: reply.summary,
      };
    },
  );

  // Earlier versions of a form, and putting one back (409.2 replacements keep the form they replace as one).
  app.get<{ Params: { id: string } }>(
    '/api/samplerschema/:id/versions/',
    withSchema(opts, {
      summary: 'Earlier versions of a form, newest first',
      params: formSchemas.schemaParams,
      response: { 200: formSchemas.versions },
    }),
    async (r) => {
      const { results } = await f.listSchemaVersions(
        { caller: r.caller, schema_id: parseId(r.params.id, problems.invalidSchemaId) },
        meta(r),
      );
      return { results, count: results.length };
    },
  );

  app.post<{ Params: { id: string; versionId: string } }>(
    '/api/samplerschema/:id/versions/:versionId/restore/',
    {
      ...opts,
      schema: {
        ...opts.schema,
        summary: 'Makes an earlier version the current form; the current one becomes a version',
        params: formSchemas.versionParams,
        body: formSchemas.restore,
        response: { 200: ref('SamplerSchema') },
      },
    },
    async (r) =>
      documentJson(
        await f.restoreSchemaVersion(
          {
            caller: r.caller,
            schema_id: parseId(r.params.id, problems.invalidSchemaId),
            version_id: versionId(r.params.versionId),
          },
          meta(r),
        ),
      ),
  );
}
