// Project users and permissions (spec 000 §7 Projects, Users; Workspaces: create a user with a projectId).
import type { FastifyInstance } from 'fastify';
import { isProblem, problems } from '@fieldwork/service-kit/problems';
import type { JobEvents } from '@fieldwork/service-kit';
import type { Clients } from '../clients.js';
import { id, ids, optId, optRolesIn, optStr, projectUserJson, rolesIn, str } from '../wire.js';
import { jobJson, jobResult, settleJob } from './exports.js';
import { projectId } from './projects.js';
import { projectUserSchemas as S } from '../schemas/project-users.js';
import { listOf, ref } from '../schemas/records.js';
import { noContent } from '../schemas/common.js';
import { cappedNote, limitPerCaller, meta, parseId, queryInt, secured, withSchema } from './util.js';
import { readUpload, uploadBodySchema } from './uploads.js';

type Json = Record<string, unknown>;

export default async function projectUserRoutes(
  app: FastifyInstance,
  { clients, jobEvents }: { clients: Clients; jobEvents: Pick<JobEvents, 'settle'> },
) {
  const opts = { preHandler: app.authenticate, schema: { tags: ['project users'], security: secured } };
  const p = clients.projects;
  const userId = (v: string) => parseId(v, problems.invalidUserId);

  app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
    '/api/project/:id/users/',
    withSchema(opts, { params: S.projectParams, querystring: S.listQuery, response: { 200: S.page } }),
    async (r) => {
      const q = r.query;
      const page = queryInt(q.page, 1, 'page', 1);
      const size = queryInt(q.page_size, 0, 'page_size', 0);
      const list = await p.listProjectUsers(
        {
          caller: r.caller,
          project_id: projectId(r),
          page,
          page_size: size,
          role: q.role ?? q.filter ?? '',
          search: q.search ?? '',
        },
        meta(r),
      );
      return {
        results: list.results.map(projectUserJson),
        count: list.count,
        page,
        page_size: list.page_size,
        page_size_capped: list.page_size_capped,
        ...cappedNote(list),
      };
    },
  );

  // Adds an existing workspace user to the project, or updates one already in it.
  app.put<{ Params: { id: string; userId: string }; Body: Json }>(
    '/api/project/:id/users/:userId/',
    withSchema(opts, { params: S.userParams, body: S.update, response: { 200: ref('ProjectUser') } }),
    async (r) => {
      const b = r.body ?? {};
      const project = projectId(r);
      const user = userId(r.params.userId);
      const roles = optRolesIn(b);
      try {
        return projectUserJson(
          await p.updateProjectUser(
            {
              caller: r.caller,
              project_id: project,
              user_id: user,
              roles,
              site: optId(b.site),
              group: optId(b.group),
              team: optId(b.team),
              read_sites: ids(b.read_sites),
              read_sites_given: Array.isArray(b.read_sites),
              first_name: optStr(b.first_name),
              last_name: optStr(b.last_name),
            },
            meta(r),
          ),
        );
      } catch (err) {
        // Not in the project yet: add them.
        if (!isProblem(err) || err.code !== '404.5') throw err;
      }
      return projectUserJson(
        await p.addProjectUser(
          {
            caller: r.caller,
            project_id: project,
            user_id: user,
            email: '',
            first_name: '',
            last_name: '',
            password: '',
            roles: roles ?? rolesIn({}),
            site: id(b.site),
            group: id(b.group),
            team: id(b.team),
            read_sites: ids(b.read_sites),
          },
          meta(r),
        ),
      );
    },
  );

  app.delete<{ Params: { id: string; userId: string } }>(
    '/api/project/:id/users/:userId/',
    withSchema(opts, { params: S.userParams, response: { 204: noContent } }),
    async (r, reply) => {
      await p.deleteProjectUser(
        { caller: r.caller, project_id: projectId(r), user_id: userId(r.params.userId) },
        meta(r),
      );
      return reply.status(204).send();
    },
  );

  // Creating a user goes to the project-user call when a projectId is present (spec 000 §5).
  app.post<{ Body: Json }>(
    '/api/api/v1/project-user/',
    withSchema(
      // Each address added is mailed an invitation, and tells its adder something: limited per caller (issue 30).
      { ...opts, config: limitPerCaller(app, 'people') },
      { body: S.create, response: { 200: ref('ProjectUser') } },
    ),
    async (r) => {
      const b = r.body ?? {};
      const project = id(b.projectId ?? b.project_id);
      if (project === 0) throw problems.invalidProjectId();
      return projectUserJson(
        await p.addProjectUser(
          {
            caller: r.caller,
            project_id: project,
            user_id: 0,
            email: str(b.email),
            first_name: str(b.first_name),
            last_name: str(b.last_name),
            password: str(b.password),
            roles: rolesIn(b),
            site: id(b.site),
            group: id(b.group),
            team: id(b.team),
            read_sites: ids(b.read_sites),
          },
          meta(r),
        ),
      );
    },
  );

  app.post<{ Body: Json }>(
    '/api/project-user/bulk/',
    withSchema(opts, { body: S.bulk, response: { 200: S.bulkReport } }),
    async (r) => {
      const b = r.body ?? {};
      const project = id(b.projectId ?? b.project_id);
      if (project === 0) throw problems.invalidProjectId();
      if (!Array.isArray(b.parsedList)) throw problems.invalidFields({ parsedList: ['Send the rows as a list.'] });
      const rows = (b.parsedList as unknown[]).map((raw) => {
        const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Json;
        const s = (k: string) =>
          typeof o[k] === 'string' ? (o[k] as string) : typeof o[k] === 'number' ? String(o[k]) : '';
        return {
          email: s('email'),
          first_name: s('first_name'),
          last_name: s('last_name'),
          role: s('role'),
          site: s('site'),
          group: s('group'),
          team: s('team'),
          password: s('password'),
        };
      });
      return p.bulkAddProjectUsers({ caller: r.caller, project_id: project, rows }, meta(r));
    },
  );

  // A bulk upload runs as a job (exports service); a small list answers its report at once, a large one 202 with the job.
  // The multipart body is documented (OpenAPI) and read by readUpload, which checks the part itself.
  const listOpts = {
    ...withSchema(opts, {
      params: S.projectParams,
      consumes: ['multipart/form-data'],
      body: uploadBodySchema(5 * 1024 * 1024),
      response: { 200: S.listDone, 202: S.listQueued },
    }),
    validatorCompiler: () => () => true,
  };
  app.post<{ Params: { id: string } }>('/api/project/:id/users/userslist/', listOpts, async (r, reply) => {
    const file = await readUpload(r, 5 * 1024 * 1024);
    const job = await settleJob(
      clients,
      jobEvents,
      r,
      await clients.exports.createUsersImport(
        { caller: r.caller, project_id: projectId(r), content: file.content, filename: file.filename },
        meta(r),
      ),
      15_000,
    );
    if (job.status === 'failed') throw problems.invalid(job.error);
    if (job.status !== 'done') return reply.status(202).send({ job: jobJson(job) });
    return { ...jobResult(job), job: jobJson(job) };
  });

  for (const method of ['post', 'put'] as const) {
    app[method]<{ Body: Json }>(
      '/api/project-users/permissions/',
      withSchema(opts, { body: S.permissions, response: { 200: listOf('ProjectUser') } }),
      async (r) => {
        const b = r.body ?? {};
        const project = id(b.projectId ?? b.project_id);
        if (project === 0) throw problems.invalidProjectId();
        const list = await p.setPermissions(
          {
            caller: r.caller,
            project_id: project,
            user_ids: ids(b.userIds ?? b.user_ids),
            permissions: Array.isArray(b.permissions)
              ? (b.permissions as unknown[]).filter((x): x is string => typeof x === 'string')
              : [],
            permissions_given: Array.isArray(b.permissions),
            read_sites: ids(b.read_sites),
            read_sites_given: Array.isArray(b.read_sites),
          },
          meta(r),
        );
        return { results: list.results.map(projectUserJson), count: list.count };
      },
    );
  }
}
