// Responses, collection links and media (spec 001 §7 Responses, Collection, References, Uploads).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';
import type { projects, responses } from '@fieldwork/proto';
import type { Clients } from '../clients.js';
import { id, projectJson, str } from '../wire.js';
import { projectId } from './projects.js';
import { responseSchemas as S } from '../schemas/responses.js';
import { listOf, ref } from '../schemas/records.js';
import { apiKeyRoute, limit, linkLimits, meta, parseId, secured, queryInt, withSchema } from './util.js';
import { boundAnswers, boundFilters } from '../limits.js';

type Json = Record<string, unknown>;

const json = (text: string): unknown => (text === '' ? null : JSON.parse(text));
const orNull = <T>(v: T, empty: T): T | null => (v === empty ? null : v);

/** A stored location as GeoJSON, with accuracy and timestamp only when they are known. */
const pointJson = (p: responses.Point) => ({
  type: p.type,
  coordinates: p.coordinates,
  ...(p.accuracy !== undefined ? { accuracy: p.accuracy } : {}),
  ...(p.timestamp !== undefined ? { timestamp: p.timestamp } : {}),
});

/** A response as the web app reads it. */
export function responseJson(m: responses.Response) {
  return {
    id: m.id,
    response_id: m.response_id,
    project: m.project,
    sampler_schema: m.schema,
    user: orNull(m.user, 0),
    email: m.email,
    display_name: m.display_name,
    site_id: orNull(m.site_id, 0),
    group_id: orNull(m.group_id, 0),
    team_id: orNull(m.team_id, 0),
    device_id: m.device_id,
    completed: m.completed,
    deleted: m.deleted,
    locked: m.locked,
    is_valid: m.is_valid,
    is_marker: m.is_marker,
    archived: m.archived,
    parent_id: orNull(m.parent_id, ''),
    ancestors: m.ancestors,
    response_referenced_id: orNull(m.response_referenced_id, ''),
    geotag: m.geotag ? pointJson(m.geotag) : null,
    geotag_history: m.geotag_history.map(pointJson),
    media_uploading_count: m.media_uploading_count,
    signature_uploading_count: m.signature_uploading_count,
    time_created: m.time_created,
    time_updated: m.time_updated,
    time_completed: orNull(m.time_completed, ''),
    time_uploaded: m.time_uploaded,
    data: json(m.data_json) ?? {},
    lookup_answers: json(m.lookup_answers_json) ?? {},
    children_count: m.children_count,
    version: m.version,
  };
}

/** A referenced project's response as the reference picker reads it: which record it is, nothing of its answers. */
export function referenceJson(m: responses.Response) {
  return {
    id: m.id,
    response_id: m.response_id,
    project: m.project,
    sampler_schema: m.schema,
    display_name: m.display_name,
    lookup_answers: json(m.lookup_answers_json) ?? {},
    completed: m.completed,
    time_created: m.time_created,
    time_updated: m.time_updated,
    version: m.version,
  };
}

const listJson = (l: responses.ResponseList) => ({ results: l.results.map(responseJson), count: l.count });

/** A query number, or `fallback`; a non-number is refused. */
/** A collection token lasts until its link expires, at most 30 days. */
const COLLECT_TOKEN_MAX_MS = 30 * 24 * 3600 * 1000;

export default async function responseRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const opts = {
    preHandler: app.authenticate,
    config: apiKeyRoute,
    schema: { tags: ['responses'], security: secured },
  };
  const collectOpts = {
    preHandler: app.authenticateCollect,
    config: apiKeyRoute,
    schema: { tags: ['responses'], security: secured },
  };
  // The calls a collection link's respondent makes in numbers: uploads and media, limited per link and address.
  const uploadOpts = { ...collectOpts, preHandler: [app.authenticateCollect, linkLimits(app, 'uploads')] };
  const c = clients.responses;

  // Upload: a plain save, a complete or an uncomplete. A collection link's token may upload to its project.
  for (const [suffix, action] of [
    ['', 'save'],
    ['complete/', 'complete'],
    ['uncomplete/', 'uncomplete'],
  ] as const) {
    app.post<{ Params: { id: string }; Body: Json }>(
      `/api/project/:id/response/${suffix}`,
      {
        ...withSchema(uploadOpts, {
          params: S.projectParams,
          body: S.upload,
          response: { 200: S.uploaded, 201: S.uploaded },
        }),
        bodyLimit: 5 * 1024 * 1024,
      },
      async (r, reply) => {
        if (typeof r.body !== 'object' || r.body === null || Array.isArray(r.body))
          throw problems.invalidFields({ non_field_errors: ['Send the response as a JSON object.'] });
        boundAnswers(r.body.data);
        const out = await c.upload(
          { caller: r.caller, project_id: projectId(r), action, payload_json: JSON.stringify(r.body) },
          meta(r),
        );
        if (!out.response) return reply.send({ upload_status: out.status, response_id: str(r.body.response_id) });
        return reply
          .status(out.status === 'stored' && out.response.version === 1 ? 201 : 200)
          .send({ ...responseJson(out.response), upload_status: out.status });
      },
    );
  }

  app.get<{ Params: { id: string }; Querystring: { limit?: string } }>(
    '/api/project/:id/response/',
    withSchema(opts, { params: S.projectParams, querystring: S.listQuery, response: { 200: listOf('Response') } }),
    async (r) =>
      listJson(
        await c.list(
          { caller: r.caller, project_id: projectId(r), limit: queryInt(r.query.limit, 5000, 'limit'), after_id: 0 },
          meta(r),
        ),
      ),
  );
  app.get<{ Params: { id: string; lastId: string }; Querystring: { limit?: string } }>(
    '/api/project/:id/response/from/:lastId/',
    withSchema(opts, { params: S.fromParams, querystring: S.listQuery, response: { 200: listOf('Response') } }),
    async (r) =>
      listJson(
        await c.list(
          {
            caller: r.caller,
            project_id: projectId(r),
            limit: queryInt(r.query.limit, 5000, 'limit'),
            after_id: parseId(r.params.lastId, problems.notFound),
          },
          meta(r),
        ),
      ),
  );
  app.post<{ Params: { id: string }; Querystring: { page?: string; page_size?: string }; Body: Json }>(
    '/api/project/:id/response-chunk/filter/',
    withSchema(opts, {
      params: S.projectParams,
      querystring: S.pageQuery,
      body: S.filter,
      response: { 200: listOf('Response') },
    }),
    async (r) => {
      const b = r.body ?? {};
      return listJson(
        await c.filter(
          {
            caller: r.caller,
            project_id: projectId(r),
            filters_json: JSON.stringify(boundFilters(b.filters ?? {})),
            schema_id: id(b.currentSamplerSchema),
            page: queryInt(r.query.page, 1, 'page'),
            page_size: queryInt(r.query.page_size, 50, 'page_size'),
          },
          meta(r),
        ),
      );
    },
  );
  app.get<{ Params: { id: string; responseId: string } }>(
    '/api/project/:id/response/single/:responseId/',
    withSchema(opts, { params: S.singleParams, response: { 200: ref('Response') } }),
    async (r) =>
      responseJson(
        await c.getOne({ caller: r.caller, project_id: projectId(r), response_id: r.params.responseId }, meta(r)),
      ),
  );
  app.get<{ Params: { id: string }; Querystring: { schema?: string; key?: string } }>(
    '/api/project/:id/response/lookup/',
    withSchema(opts, { params: S.projectParams, querystring: S.lookupQuery, response: { 200: listOf('Response') } }),
    async (r) =>
      listJson(
        await c.lookup(
          {
            caller: r.caller,
            project_id: projectId(r),
            schema_id: queryInt(r.query.schema, 0, 'schema'),
            key: str(r.query.key),
          },
          meta(r),
        ),
      ),
  );
  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/open-response/email/',
    {
      ...withSchema(opts, { params: S.projectParams, body: S.email, response: { 200: S.emailed } }),
      config: { ...opts.config, ...limit(app, 'mail') },
    },
    async (r) => c.emailOpen({ caller: r.caller, project_id: projectId(r), send_to: str(r.body?.send_to) }, meta(r)),
  );
  // The reference picker: what the caller may read of the referenced project, with only the fields it shows.
  app.get<{ Params: { id: string; refId: string } }>(
    '/api/project/:id/references/:refId/responses/',
    withSchema(opts, { params: S.referenceParams, response: { 200: listOf('ReferenceResponse') } }),
    async (r) => {
      const l = await c.referenceResponses(
        { caller: r.caller, project_id: projectId(r), reference_id: parseId(r.params.refId, problems.notFound) },
        meta(r),
      );
      return { results: l.results.map(referenceJson), count: l.count };
    },
  );

  // Media: ask for a presigned upload, PUT the file there, then complete it.
  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/media/',
    withSchema(uploadOpts, { params: S.projectParams, body: S.media, response: { 201: S.mediaUpload } }),
    async (r, reply) => {
      const b = r.body ?? {};
      const size = typeof b.size === 'number' && Number.isSafeInteger(b.size) ? b.size : 0;
      const out = await c.createMediaUpload(
        {
          caller: r.caller,
          project_id: projectId(r),
          response_id: str(b.response_id),
          kind: str(b.kind),
          filename: str(b.filename),
          content_type: str(b.content_type),
          size,
        },
        meta(r),
      );
      return reply.status(201).send(out);
    },
  );
  app.post<{ Params: { id: string; mediaId: string } }>(
    '/api/project/:id/media/:mediaId/complete/',
    withSchema(uploadOpts, { params: S.mediaParams, body: S.mediaDone, response: { 200: S.mediaInfo } }),
    async (r) =>
      c.completeMediaUpload({ caller: r.caller, project_id: projectId(r), media_id: r.params.mediaId }, meta(r)),
  );

  // Collection links: the token's project, its forms and a collection token for the respondent.
  const collect = async (r: FastifyRequest, token: string, who: { email: string; fingerprint: string }) => {
    if (!/^[\w-]{8,200}$/.test(token)) throw problems.notFound();
    const t: projects.CollectionToken = await clients.projects.resolveCollectionToken({ token }, meta(r));
    if (t.expired) throw problems.linkExpired();
    // An anonymous link may never expire ('' ): its tokens still last at most COLLECT_TOKEN_MAX_MS. A link that asks
    // respondents to log in gives no token: they collect as themselves (spec 000 §2).
    const until = t.expiry_date === '' ? Infinity : new Date(t.expiry_date).getTime();
    const expiresAt = new Date(Math.min(until, Date.now() + COLLECT_TOKEN_MAX_MS));
    const signed = t.proceed_unauthenticated
      ? app.signCollectToken(
          { project_id: t.project_id, survey_id: t.survey_id, email: who.email, fingerprint: who.fingerprint },
          expiresAt,
        )
      : '';
    const { results } = await clients.forms.listSchemas({ project_id: t.project_id }, meta(r));
    const samplerSchemas = results.map((s) => ({ id: s.id, name: s.name, version: s.version, level: s.level }));
    return {
      project_details: { ...projectJson(t.project!), sampler_schemas: samplerSchemas },
      sampler_schemas: samplerSchemas,
      proceed_unauthenticated: t.proceed_unauthenticated,
      token: signed,
      expiry_date: t.expiry_date === '' ? null : t.expiry_date,
    };
  };
  const text = (v: unknown, max: number, field: string) => {
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string' || v.length > max)
      throw problems.invalidFields({ [field]: [`Ensure this field has no more than ${max} characters.`] });
    return v.trim();
  };
  app.post<{ Params: { token: string }; Body: Json }>(
    '/api/collect/:token/',
    {
      // Each call makes a new collection token: limited per link and per address like uploads.
      preHandler: linkLimits(app, 'opens'),
      schema: { tags: ['responses'], params: S.tokenParams, body: S.collect, response: { 200: S.collectLink } },
    },
    async (r) => {
      const b = r.body ?? {};
      const email = text(b.email, 254, 'email');
      if (email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        throw problems.invalidFields({ email: ['Enter a valid email address.'] });
      return collect(r, r.params.token, { email, fingerprint: text(b.fingerprint, 200, 'fingerprint') });
    },
  );
  app.get<{ Params: { token: string } }>(
    '/api/collect/survey/:token/',
    { schema: { tags: ['responses'], params: S.tokenParams, response: { 200: S.collectLink } } },
    async (r) => collect(r, r.params.token, { email: '', fingerprint: '' }),
  );
}
