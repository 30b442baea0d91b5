// Sites, groups and teams of a project (spec 000 §7 Projects).
import type { FastifyInstance } from 'fastify';
import { problems } from '@fieldwork/service-kit/problems';
import type { Clients } from '../clients.js';
import { geotagIn, id, optId, optStr, siteJson, str } from '../wire.js';
import { projectId } from './projects.js';
import { structureSchemas as S } from '../schemas/structure.js';
import { ref } from '../schemas/records.js';
import { noContent } from '../schemas/common.js';
import { apiKeyRoute, meta, parseId, secured, withSchema } from './util.js';

type Json = Record<string, unknown>;
type Sub = { Params: { id: string; sub: string }; Body: Json };

export default async function structureRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const opts = {
    preHandler: app.authenticate,
    config: apiKeyRoute,
    schema: { tags: ['sites, groups, teams'], security: secured },
  };
  const p = clients.projects;
  const create = (b: object, record: string) =>
    withSchema(opts, { params: S.projectParams, body: b, response: { 201: ref(record) } });
  const sub = (b?: object, record?: string) =>
    withSchema(opts, {
      params: S.subParams,
      ...(b ? { body: b } : {}),
      ...(record ? { response: { 200: ref(record) } } : {}),
    });

  const gone = withSchema(opts, { params: S.subParams, response: { 204: noContent } });

  const siteBody = (b: Json) => ({
    name: str(b.name),
    frontend_icon: str(b.frontend_icon),
    frontend_color: str(b.frontend_color),
    date_start: optStr(b.date_start),
    date_end: optStr(b.date_end),
    goal_count: typeof b.goal_count === 'number' ? b.goal_count : b.goal_count === null ? 0 : undefined,
    ...geotagIn(b.geotag),
  });
  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/sites/',
    create(S.site, 'Site'),
    async (r, reply) => {
      const site = await p.createSite(
        { caller: r.caller, project_id: projectId(r), site_id: 0, ...siteBody(r.body ?? {}) },
        meta(r),
      );
      return reply.status(201).send(siteJson(site));
    },
  );
  app.put<Sub>('/api/project/:id/sites/:sub/', sub(S.site, 'Site'), async (r) =>
    siteJson(
      await p.updateSite(
        {
          caller: r.caller,
          project_id: projectId(r),
          site_id: parseId(r.params.sub, problems.invalidSiteId),
          ...siteBody(r.body ?? {}),
        },
        meta(r),
      ),
    ),
  );
  app.patch<Sub>('/api/project/:id/sites/:sub/', sub(S.sitePatch, 'Site'), async (r) => {
    const b = r.body ?? {};
    const siteId = parseId(r.params.sub, problems.invalidSiteId);
    if (typeof b.active_flag === 'boolean' && Object.keys(b).length === 1) {
      return siteJson(
        await p.setSiteActive(
          { caller: r.caller, project_id: projectId(r), site_id: siteId, active_flag: b.active_flag },
          meta(r),
        ),
      );
    }
    if ('active_flag' in b && typeof b.active_flag !== 'boolean')
      throw problems.invalidFields({ active_flag: ['Must be a valid boolean.'] });
    return siteJson(
      await p.updateSite({ caller: r.caller, project_id: projectId(r), site_id: siteId, ...siteBody(b) }, meta(r)),
    );
  });
  app.delete<Sub>('/api/project/:id/sites/:sub/', gone, async (r, reply) => {
    await p.deleteSite(
      { caller: r.caller, project_id: projectId(r), site_id: parseId(r.params.sub, problems.invalidSiteId) },
      meta(r),
    );
    return reply.status(204).send();
  });

  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/groups/',
    create(S.group, 'Group'),
    async (r, reply) => {
      const b = r.body ?? {};
      return reply
        .status(201)
        .send(
          await p.createGroup(
            { caller: r.caller, project_id: projectId(r), group_id: 0, name: str(b.name), site: id(b.site) },
            meta(r),
          ),
        );
    },
  );
  app.patch<Sub>('/api/project/:id/groups/:sub/', sub(S.group, 'Group'), async (r) => {
    const b = r.body ?? {};
    return p.updateGroup(
      {
        caller: r.caller,
        project_id: projectId(r),
        group_id: parseId(r.params.sub, problems.invalidGroupId),
        name: optStr(b.name),
        site: optId(b.site),
      },
      meta(r),
    );
  });
  app.delete<Sub>('/api/project/:id/groups/:sub/', gone, async (r, reply) => {
    await p.deleteGroup(
      { caller: r.caller, project_id: projectId(r), group_id: parseId(r.params.sub, problems.invalidGroupId) },
      meta(r),
    );
    return reply.status(204).send();
  });

  app.post<{ Params: { id: string }; Body: Json }>(
    '/api/project/:id/teams/',
    create(S.team, 'Team'),
    async (r, reply) => {
      const b = r.body ?? {};
      return reply
        .status(201)
        .send(
          await p.createTeam(
            { caller: r.caller, project_id: projectId(r), team_id: 0, name: str(b.name), group: id(b.group) },
            meta(r),
          ),
        );
    },
  );
  app.patch<Sub>('/api/project/:id/teams/:sub/', sub(S.team, 'Team'), async (r) => {
    const b = r.body ?? {};
    return p.updateTeam(
      {
        caller: r.caller,
        project_id: projectId(r),
        team_id: parseId(r.params.sub, problems.invalidTeamId),
        name: optStr(b.name),
        group: optId(b.group),
      },
      meta(r),
    );
  });
  app.delete<Sub>('/api/project/:id/teams/:sub/', gone, async (r, reply) => {
    await p.deleteTeam(
      { caller: r.caller, project_id: projectId(r), team_id: parseId(r.params.sub, problems.invalidTeamId) },
      meta(r),
    );
    return reply.status(204).send();
  });
}
