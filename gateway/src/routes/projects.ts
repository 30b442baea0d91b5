// Projects (spec 000 §7 Projects): create, read, update, duplicate, upload, status, type, period, hierarchy.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ObjectStore } from '@fieldwork/service-kit';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { projectSchemas as S } from '../schemas/projects.js';
import { ref } from '../schemas/records.js';
import { geotagIn, id, optId, optStr, projectJson, str, trendIn } from '../wire.js';
import { apiKeyRoute, meta, parseId, secured, withSchema } from './util.js';
import { readUpload, streamUpload, uploadBodySchema, UPLOAD_MAX_BYTES } from './uploads.js';

type Json = Record<string, unknown>;
type P = { Params: { id: string }; Body: Json };
export const projectId = (r: FastifyRequest<{ Params: { id: string } }>) =>
  parseId(r.params.id, problems.invalidProjectId);

export default async function projectRoutes(
  app: FastifyInstance,
  { clients, objects }: { clients: Clients; objects?: ObjectStore | undefined },
) {
  const opts = { preHandler: app.authenticate, config: apiKeyRoute, schema: { tags: ['projects'], security: secured } };
  const projects = clients.projects;
  const project = { 200: ref('Project') };
  const one = (response: object) => withSchema(opts, { params: S.projectParams, response });
  const oneWith = (b: object) => withSchema(opts, { params: S.projectParams, body: b, response: project });
  const full = async (r: FastifyRequest, projectIdValue: number) =>
    projectJson(await projects.getProject({ caller: r.caller, project_id: projectIdValue }, meta(r)));

  app.post<{ Body: Json }>(
    '/api/project/',
    withSchema(opts, { body: S.create, response: { 201: ref('Project') } }),
    async (r, reply) => {
      const b = r.body ?? {};
      const made = await projects.createProject(
        {
          caller: r.caller,
          organization_pk: id(b.organization_pk),
          name: str(b.name),
          description: str(b.description),
          frontend_color: str(b.frontend_color),
          frontend_icon: str(b.frontend_icon),
          folder_id: id(b.folder_id),
          logo: str(b.logo),
          ...geotagIn(b.geotag),
        },
        meta(r),
      );
      return reply.status(201).send(projectJson(made));
    },
  );

  app.get<P>('/api/project/:id/', one(project), async (r) => full(r, projectId(r)));
  app.get<P>('/api/project/:id/home/', one({ 200: S.home }), async (r) =>
    projects.projectHome({ caller: r.caller, project_id: projectId(r) }, meta(r)),
  );
  app.get<P>('/api/project/:id/summary-by-site/', one({ 200: S.summaryBySite }), async (r) => {
    const { results } = await projects.summaryBySite({ caller: r.caller, project_id: projectId(r) }, meta(r));
    return { results: results.map((s) => ({ ...s, last_response: s.last_response || null })), count: results.length };
  });

  const update = async (r: FastifyRequest<P>) => {
    const b = r.body ?? {};
    const geo = geotagIn(b.geotag);
    return projectJson(
      await projects.updateProject(
        {
          caller: r.caller,
          project_id: projectId(r),
          name: optStr(b.name),
          description: optStr(b.description),
          frontend_color: optStr(b.frontend_color),
          frontend_icon: optStr(b.frontend_icon),
          folder_id: optId(b.folder_id),
          logo: optStr(b.logo),
          date_end: optStr(b.date_end),
          goal_count: typeof b.goal_count === 'number' ? b.goal_count : undefined,
          current_collection_round_start: optStr(b.current_collection_round_start),
          ...geo,
        },
        meta(r),
      ),
    );
  };
  const updateOpts = oneWith(S.update);
  app.put<P>('/api/project/:id/', updateOpts, update);
  // PATCH carries is_entity (spec); other fields are applied as a partial update.
  app.patch<P>('/api/project/:id/', updateOpts, async (r) => {
    const b = r.body ?? {};
    if ('is_entity' in b) {
      if (typeof b.is_entity !== 'boolean') throw problems.invalidFields({ is_entity: ['Must be a valid boolean.'] });
      await projects.setEntity({ caller: r.caller, project_id: projectId(r), is_entity: b.is_entity }, meta(r));
      const rest = Object.keys(b).filter((k) => k !== 'is_entity');
      if (rest.length === 0) return full(r, projectId(r));
    }
    return update(r);
  });

  const duplicate = async (
    r: FastifyRequest<{ Params: { id: string; folderId?: string } }>,
    reply: { status: (n: number) => { send: (b: unknown) => unknown } },
  ) => {
    const folder = r.params.folderId !== undefined ? parseId(r.params.folderId, problems.notFound) : 0;
    const made = await projects.duplicateProject(
      { caller: r.caller, project_id: projectId(r), folder_id: folder },
      meta(r),
    );
    return reply.status(201).send(projectJson(made));
  };
  app.post<{ Params: { id: string } }>(
    '/api/project/:id/duplicate/',
    withSchema(one({ 201: ref('Project') }), { body: S.duplicate }),
    (r, reply) => duplicate(r, reply),
  );
  app.post<{ Params: { id: string; folderId: string } }>(
    '/api/project/:id/duplicate/:folderId/',
    withSchema(opts, { params: S.duplicateParams, body: S.duplicate, response: { 201: ref('Project') } }),
    (r, reply) => duplicate(r, reply),
  );

  // A project file (imports, form files): streamed to the object store when the gateway has one, else sent whole.
  // The body schema documents the multipart body (OpenAPI); the handler reads and checks the part itself.
  const uploadOpts = {
    ...opts,
    schema: {
      ...opts.schema,
      params: S.projectParams,
      consumes: ['multipart/form-data'],
      body: uploadBodySchema(UPLOAD_MAX_BYTES),
      response: { 201: S.uploaded },
    },
    validatorCompiler: () => () => true,
  };
  app.post<P>('/api/project/:id/upload/', uploadOpts, async (r, reply) => {
    const pid = projectId(r);
    const base = {
      caller: r.caller,
      project_id: pid,
      filename: '',
      content_type: '',
      content: Buffer.alloc(0),
      object_key: '',
      check_only: false,
    };
    if (!objects) {
      const file = await readUpload(r, UPLOAD_MAX_BYTES);
      return reply.status(201).send(await projects.uploadFile({ ...base, ...file }, meta(r)));
    }
    const made = await streamUpload(
      r,
      objects,
      pid,
      UPLOAD_MAX_BYTES,
      (filename) => projects.uploadFile({ ...base, filename, check_only: true }, meta(r)),
      ({ filename, object_key }) => projects.uploadFile({ ...base, filename, object_key }, meta(r)),
    );
    return reply.status(201).send(made);
  });

  app.post<P>(
    '/api/project/:id/status/',
    withSchema(oneWith(S.status), { response: { 200: S.statusReply } }),
    async (r) =>
      projects.setStatus(
        { caller: r.caller, project_id: projectId(r), project_state: str(r.body?.project_state) },
        meta(r),
      ),
  );
  // A deleted project's purge (the workspace owner's): what it would remove, then the purge, run by a background job.
  const purgeJson = (p: { requested_at: string; finished_at: string; counts: Record<string, number> }) => ({
    ...p,
    counts: Object.fromEntries(Object.entries(p.counts).map(([k, v]) => [k, Number(v)])),
    requested_at: p.requested_at || null,
    finished_at: p.finished_at || null,
  });
  app.get<P>('/api/project/:id/purge/', one({ 200: S.purge }), async (r) =>
    purgeJson(await projects.getPurge({ caller: r.caller, project_id: projectId(r) }, meta(r))),
  );
  app.post<P>(
    '/api/project/:id/purge/',
    // Removing a project for good needs a person: an API key may delete a project (a data route) but not purge it,
    // so a leaked key cannot destroy data past recovery (issue 30 item 12).
    withSchema({ ...opts, config: {} }, { params: S.projectParams, body: S.purgeStart, response: { 202: S.purge } }),
    async (r, reply) =>
      reply
        .status(202)
        .send(purgeJson(await projects.startPurge({ caller: r.caller, project_id: projectId(r) }, meta(r)))),
  );

  app.post<P>('/api/project/:id/type/', oneWith(S.type), async (r) =>
    projectJson(
      await projects.setType(
        {
          caller: r.caller,
          project_id: projectId(r),
          project_type: str(r.body?.project_type),
          trend_series_options: trendIn(r.body?.trend_series_options),
        },
        meta(r),
      ),
    ),
  );
  app.post<P>('/api/project/:id/period/', oneWith(S.period), async (r) =>
    projectJson(
      await projects.setPeriod(
        { caller: r.caller, project_id: projectId(r), trend_series_options: trendIn(r.body?.trend_series_options) },
        meta(r),
      ),
    ),
  );
  app.post<P>('/api/project/:id/hierarchy/', oneWith(S.hierarchy), async (r) => {
    const b = r.body ?? {};
    const levels = Array.isArray(b.project_hierarchy) ? (b.project_hierarchy as Json[]) : [];
    if (typeof b.is_hierarchical !== 'boolean')
      throw problems.invalidFields({ is_hierarchical: ['Must be a valid boolean.'] });
    return projectJson(
      await projects.setHierarchy(
        {
          caller: r.caller,
          project_id: projectId(r),
          is_hierarchical: b.is_hierarchical,
          project_hierarchy: levels.map((l, i) => ({
            level: typeof l.level === 'number' ? l.level : i,
            name: str(l.name),
            schema_id: id(l.schema_id ?? l.schema),
          })),
        },
        meta(r),
      ),
    );
  });
  app.post<P>('/api/project/:id/timingcolumn/', oneWith(S.timingColumn), async (r) =>
    projectJson(
      await projects.setTimingColumn(
        { caller: r.caller, project_id: projectId(r), timing_column: str(r.body?.timing_column) },
        meta(r),
      ),
    ),
  );
  app.post<P>('/api/project/:id/aggregator/', oneWith(S.aggregator), async (r) =>
    projectJson(
      await projects.setAggregator(
        { caller: r.caller, project_id: projectId(r), project_aggregator: str(r.body?.project_aggregator) },
        meta(r),
      ),
    ),
  );
}
