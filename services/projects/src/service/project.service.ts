// Projects: create, list, read (full, home, summary by site), update, duplicate (spec 000 §7 Projects).
import type { projects, responses } from '@fieldwork/proto';
import { problems, transaction, type FieldErrors } from '@fieldwork/service-kit';
import { isValidGeotag, MESSAGES, normalizeColor, normalizeIcon } from '../domain/project.js';
import { realName, visibleProjectUser } from '../domain/people.js';
import { ProjectStore, type ProjectPatch, type ProjectRow } from '../store/project.store.js';
import { ProjectUserStore } from '../store/project-user.store.js';
import { StructureStore } from '../store/structure.store.js';
import { CollectionStore } from '../store/collection.store.js';
import { AccessResolver, collectSites, type ProjectAccess } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';
import { toGroup, toProject, toProjectUser, toSite, toSurvey, toTeam } from './mappers.js';

const LOGO_URL_TTL_S = 3600;
/** How many of a project's users GET project/{id}/ embeds (projectuser_set); projectuser_count says how many there are. */
export const PROJECT_USERS_EMBEDDED = 100;

export class ProjectService {
  private readonly store: ProjectStore;
  private readonly users: ProjectUserStore;
  private readonly structure: StructureStore;
  private readonly collection: CollectionStore;

  constructor(
    private readonly deps: ProjectsDeps,
    private readonly access: AccessResolver,
  ) {
    this.store = new ProjectStore(deps.sql);
    this.users = new ProjectUserStore(deps.sql);
    this.structure = new StructureStore(deps.sql);
    this.collection = new CollectionStore(deps.sql);
  }

  async create(req: projects.CreateProjectRequest, ctx: Ctx): Promise<projects.Project> {
    const ws = await this.access.workspace(req.caller, req.organization_pk, ctx);
    if (!ws.can('projects')) throw problems.forbidden();
    const fields: FieldErrors = {};
    const name = req.name.trim();
    if (name === '') fields.name = [MESSAGES.blank];
    if (name.length > 255) fields.name = [MESSAGES.tooLong(255)];
    const color = normalizeColor(req.frontend_color);
    if (color === undefined) fields.frontend_color = [MESSAGES.color];
    const icon = normalizeIcon(req.frontend_icon);
    if (icon === undefined) fields.frontend_icon = [MESSAGES.icon];
    if (req.folder_id > 0 && !(await this.store.folder(ws.organizationId, req.folder_id)))
      fields.folder_id = ['No folder of this workspace has this id.'];
    const logo = req.logo.trim();
    if (logo !== '' && !(await this.isLogoOf(ws.organizationId, logo)))
      fields.logo = ['Upload the logo first and send the file id it returned.'];
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    if (!isValidGeotag(req.geotag)) throw problems.geotagRequired();

    const row = await transaction(this.deps.sql, async (tx) => {
      const project = await new ProjectStore(tx).create({
        organization_id: ws.organizationId,
        name,
        description: req.description.trim(),
        frontend_color: color!,
        frontend_icon: icon!,
        geotag: [req.geotag!.longitude, req.geotag!.latitude],
        folder_id: req.folder_id > 0 ? req.folder_id : null,
        logo,
        created_by: ws.caller.user_id,
      });
      const defaults = await createDefaultStructure(new StructureStore(tx), project.id);
      // The creator owns the project, in its default site, group and team.
      await new ProjectUserStore(tx).upsert(project.id, ws.caller.user_id, { project_owner: true, ...defaults });
      return project;
    });
    try {
      const schema = await this.deps.forms.createSchema(
        { project_id: row.id, name, level: 0, project_type: row.project_type },
        ctx,
      );
      await this.store.update(row.id, { project_hierarchy: [{ level: 0, name, schema_id: schema.id }] });
    } catch (err) {
      await this.store.delete(row.id);
      throw err;
    }
    this.deps.log.info({ projectId: row.id, organizationId: row.organization_id }, 'project created');
    return this.get({ caller: ws.caller, project_id: row.id }, ctx);
  }

  /** The workspace's projects the caller may see: all for managers, else those they belong to. */
  async list(req: projects.ListProjectsRequest, ctx: Ctx): Promise<projects.ProjectList> {
    const ws = await this.access.workspace(req.caller, req.organization_id, ctx);
    const ids = ws.can('projects') ? undefined : await this.users.projectIdsOf(ws.caller.user_id, ws.organizationId);
    const rows = await this.store.ofOrganization(ws.organizationId, ids);
    const counts = await this.countsOf(
      rows.map((r) => r.id),
      ctx,
    );
    return {
      results: await Promise.all(
        rows.map(async (r) => {
          const c = counts.get(r.id);
          const total = c?.total ?? 0;
          const complete = c?.complete ?? 0;
          return {
            ...toProject(r, await this.logoUrl(r)),
            total_responses: total,
            complete_responses: complete,
            incomplete_responses: total - complete,
            last_response: c?.last_response ?? '',
          };
        }),
      ),
    };
  }

  /**
   * The response counts of many projects (the projects page's cards): one query of the results store; per project
   * from PostgreSQL through the responses service when the results service does not answer. The projects table
   * holds no count (its old total_responses column was never kept up to date, so every card said 0).
   */
  private async countsOf(projectIds: number[], ctx: Ctx): Promise<Map<number, responses.Count>> {
    if (projectIds.length === 0) return new Map();
    try {
      const { by_project } = await this.deps.results.countProjects({ project_ids: projectIds }, ctx);
      return new Map(
        Object.entries(by_project).map(([id, c]) => [
          Number(id),
          { total: Number(c.total), complete: Number(c.complete), last_response: c.last_response },
        ]),
      );
    } catch (err) {
      this.deps.log.warn({ err }, 'results service unavailable for project counts; counting in PostgreSQL');
      const all = await Promise.all(
        projectIds.map(
          async (id) => [id, (await this.deps.responses.countResponses({ project_id: id }, ctx)).all] as const,
        ),
      );
      return new Map(all.filter((e): e is readonly [number, responses.Count] => e[1] !== undefined));
    }
  }

  async get(req: projects.ProjectRef, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    return this.full(a, ctx);
  }

  async full(a: ProjectAccess, ctx: Ctx): Promise<projects.Project> {
    const p = a.project;
    const [sites, groups, teams, members, firstUsers, schemas, counts, survey] = await Promise.all([
      this.structure.sites(p.id),
      this.structure.groups(p.id),
      this.structure.teams(p.id),
      this.users.ofProject(p.id),
      this.users.firstOf(p.id, PROJECT_USERS_EMBEDDED),
      this.deps.forms.listSchemas({ project_id: p.id }, ctx),
      this.counts(p.id, ctx),
      this.collection.currentSurvey(p.id),
    ]);
    // Only the first users are embedded, with their names (issue 19: a project of 10,000 users answered all of them,
    // named one by one); the users screen pages through GET project/{id}/users/. Team member ids stay whole.
    const briefs = await this.deps.auth.getUsers(
      { user_ids: firstUsers.rows.map((m) => m.user_id), organization_id: p.organization_id },
      ctx,
    );
    const byId = new Map(briefs.results.map((u) => [u.id, u]));
    const embedded = firstUsers.rows.filter((m) => byId.get(m.user_id)?.member);
    const levelOf = new Map(p.project_hierarchy.map((l) => [l.schema_id, l.level]));
    const all = counts.all;
    return {
      ...toProject(p, await this.logoUrl(p)),
      sites: sites.map((s) => ({
        ...toSite(s, groups),
        total_responses: counts.by_site[s.id]?.total ?? 0,
        last_response: counts.by_site[s.id]?.last_response ?? '',
      })),
      groups: groups.map((g) => toGroup(g, teams)),
      teams: teams.map((t) => toTeam(t, members)),
      // Others' emails, permissions and read_sites only to those who may list the users (domain/people.ts).
      projectuser_set: embedded.map((m) =>
        visibleProjectUser(
          toProjectUser(m, byId.get(m.user_id), p.organization_id),
          { userId: a.caller.user_id, screens: a.screens },
          realName(byId.get(m.user_id)),
        ),
      ),
      projectuser_count: firstUsers.count,
      sampler_schemas: schemas.results.map((s) => ({
        id: s.id,
        name: s.name,
        version: s.version,
        level: levelOf.get(s.id) ?? s.level,
      })),
      // The link's token lets anyone collect: only those who set the project up see it (ListSurveys likewise).
      current_survey: survey && a.screens.has('parameters') ? toSurvey(survey, p.project_state) : undefined,
      total_responses: all?.total ?? 0,
      complete_responses: all?.complete ?? 0,
      incomplete_responses: (all?.total ?? 0) - (all?.complete ?? 0),
      last_response: all?.last_response ?? '',
      permissions: [...a.screens],
      collect_sites: collectSites(
        a,
        sites.map((s) => s.id),
      ),
      full: true,
    };
  }

  async update(req: projects.UpdateProjectRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    const fields: FieldErrors = {};
    const patch: ProjectPatch = {};
    if (req.name !== undefined) {
      const name = req.name.trim();
      if (name === '') fields.name = [MESSAGES.blank];
      else if (name.length > 255) fields.name = [MESSAGES.tooLong(255)];
      else patch.name = name;
    }
    if (req.description !== undefined) patch.description = req.description.trim();
    if (req.frontend_color !== undefined) {
      const c = normalizeColor(req.frontend_color);
      if (c === undefined) fields.frontend_color = [MESSAGES.color];
      else patch.frontend_color = c;
    }
    if (req.frontend_icon !== undefined) {
      const i = normalizeIcon(req.frontend_icon);
      if (i === undefined) fields.frontend_icon = [MESSAGES.icon];
      else patch.frontend_icon = i;
    }
    if (req.folder_id !== undefined) {
      if (req.folder_id > 0 && !(await this.store.folder(a.organizationId, req.folder_id)))
        fields.folder_id = ['No folder of this workspace has this id.'];
      else patch.folder_id = req.folder_id > 0 ? req.folder_id : null;
    }
    if (req.logo !== undefined) {
      const logo = req.logo.trim();
      if (logo !== '' && logo !== a.project.logo && !(await this.isLogoOf(a.organizationId, logo)))
        fields.logo = ['Upload the logo first and send the file id it returned.'];
      else patch.logo = logo;
    }
    if (req.date_end !== undefined)
      patch.date_end = req.date_end.trim() === '' ? null : req.date_end.trim().slice(0, 10);
    if (req.goal_count !== undefined) {
      if (req.goal_count < 0) fields.goal_count = ['Ensure this value is greater than or equal to 0.'];
      else patch.goal_count = req.goal_count;
    }
    if (req.current_collection_round_start !== undefined) {
      const t = req.current_collection_round_start.trim();
      const d = t === '' ? null : new Date(t);
      if (d !== null && Number.isNaN(d.getTime()))
        fields.current_collection_round_start = ['Enter a valid date and time.'];
      else patch.current_collection_round_start = d;
    }
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    // Create or update requires a valid geotag (spec 000 §5): a geotag sent must be valid.
    if (req.geotag_given || req.geotag !== undefined) {
      if (!isValidGeotag(req.geotag)) throw problems.geotagRequired();
      patch.geotag = [req.geotag.longitude, req.geotag.latitude];
    }
    await this.store.update(a.project.id, patch);
    return this.get({ caller: a.caller, project_id: a.project.id }, ctx);
  }

  async setEntity(req: projects.SetEntityRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    await this.store.update(a.project.id, { is_entity: req.is_entity });
    return this.get({ caller: a.caller, project_id: a.project.id }, ctx);
  }

  /** A copy of the project's settings, structure and forms (not its responses or users), in a folder or not. */
  async duplicate(req: projects.DuplicateProjectRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    if (!a.can('projects')) throw problems.forbidden();
    if (req.folder_id > 0 && !(await this.store.folder(a.organizationId, req.folder_id))) {
      throw problems.invalidFields({ folder_id: ['No folder of this workspace has this id.'] });
    }
    const src = a.project;
    const copy = await transaction(this.deps.sql, async (tx) => {
      const store = new ProjectStore(tx);
      const created = await store.create({
        organization_id: src.organization_id,
        name: `${src.name} (copy)`.slice(0, 255),
        description: src.description,
        frontend_color: src.frontend_color,
        frontend_icon: src.frontend_icon,
        geotag: (src.geotag ?? [0, 0]) as [number, number],
        folder_id: req.folder_id > 0 ? req.folder_id : src.folder_id,
        logo: src.logo,
        created_by: a.caller.user_id,
      });
      await store.update(created.id, {
        project_type: src.project_type,
        project_period: src.project_period,
        timing_column: src.timing_column,
        aggregator: src.aggregator,
        trend_series_options: src.trend_series_options,
        is_entity: src.is_entity,
        is_hierarchical: src.is_hierarchical,
        goal_count: src.goal_count,
      });
      const defaults = await copyStructure(new StructureStore(tx), src.id, created.id);
      // A source whose default group or team was deleted has none to copy: the owner is then placed without one.
      await new ProjectUserStore(tx).upsert(created.id, a.caller.user_id, {
        project_owner: true,
        site_id: defaults.site_id || null,
        group_id: defaults.group_id || null,
        team_id: defaults.team_id || null,
      });
      return created;
    });
    try {
      const schemas = await this.deps.forms.duplicateSchemas({ from_project_id: src.id, to_project_id: copy.id }, ctx);
      const newByLevel = new Map(schemas.results.map((s) => [s.level, s.id]));
      await this.store.update(copy.id, {
        project_hierarchy: src.project_hierarchy.map((l) => ({ ...l, schema_id: newByLevel.get(l.level) ?? 0 })),
      });
    } catch (err) {
      await this.store.delete(copy.id);
      throw err;
    }
    this.deps.log.info({ projectId: copy.id, from: src.id }, 'project duplicated');
    return this.get({ caller: a.caller, project_id: copy.id }, ctx);
  }

  /**
   * Response counts from the results store (ClickHouse: fast at millions of responses, about a second behind the
   * uploads); from PostgreSQL through the responses service when the results service does not answer.
   */
  private async counts(projectId: number, ctx: Ctx): Promise<responses.ResponseCounts> {
    try {
      return await this.deps.results.countResponses({ project_id: projectId }, ctx);
    } catch (err) {
      this.deps.log.warn({ err, projectId }, 'results service unavailable for counts; counting in PostgreSQL');
      return this.deps.responses.countResponses({ project_id: projectId }, ctx);
    }
  }

  async home(req: projects.ProjectRef, ctx: Ctx): Promise<projects.ProjectHomeReply> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'home');
    const p = a.project;
    const [sites, groups, teams, members, counts, questions] = await Promise.all([
      this.structure.sites(p.id),
      this.structure.groups(p.id),
      this.structure.teams(p.id),
      this.users.ofProject(p.id),
      this.counts(p.id, ctx),
      this.deps.forms.countQuestions({ project_id: p.id }, ctx),
    ]);
    const total = counts.all?.total ?? 0;
    const complete = counts.all?.complete ?? 0;
    return {
      id: p.id,
      name: p.name,
      project_state: p.project_state,
      project_type: p.project_type,
      total_responses: total,
      complete_responses: complete,
      incomplete_responses: total - complete,
      last_response: counts.all?.last_response ?? '',
      sites: sites.length,
      active_sites: sites.filter((s) => s.active_flag).length,
      groups: groups.length,
      teams: teams.length,
      users: members.length,
      collectors: members.filter((m) => m.collector).length,
      schemas: p.project_hierarchy.length,
      questions: questions.questions,
      goal_count: p.goal_count,
      date_end: p.date_end ?? '',
    };
  }

  async summaryBySite(req: projects.ProjectRef, ctx: Ctx): Promise<projects.SiteSummaryList> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'home');
    const [sites, counts, members] = await Promise.all([
      this.structure.sites(a.project.id),
      this.counts(a.project.id, ctx),
      this.users.ofProject(a.project.id),
    ]);
    return {
      results: sites.map((s) => ({
        site_id: s.id,
        name: s.name,
        active_flag: s.active_flag,
        total_responses: counts.by_site[s.id]?.total ?? 0,
        complete_responses: counts.by_site[s.id]?.complete ?? 0,
        last_response: counts.by_site[s.id]?.last_response ?? '',
        collectors: members.filter((m) => m.collector && m.site_id === s.id).length,
      })),
    };
  }

  /** The workspace's projects with their response counts (the advanced projects view): the list carries them. */
  async listAdvanced(req: projects.OrganizationRef, ctx: Ctx): Promise<projects.ProjectList> {
    return this.list({ caller: req.caller, organization_id: req.organization_id }, ctx);
  }

  /** Projects other projects may reference: the workspace's entity and longitudinal projects the caller sees. */
  async listReferenceProjects(req: projects.OrganizationRef, ctx: Ctx): Promise<projects.ProjectList> {
    const { results } = await this.list({ caller: req.caller, organization_id: req.organization_id }, ctx);
    return { results: results.filter((p) => p.is_entity || p.project_type === 'L') };
  }

  async getAccess(req: projects.ProjectRef, ctx: Ctx): Promise<projects.ProjectAccess> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    return {
      project_id: a.project.id,
      organization_id: a.organizationId,
      actions: [...a.actions],
      screens: [...a.screens],
      read_sites: a.projectUser?.read_sites ?? [],
      roles: a.projectUser
        ? {
            project_owner: a.projectUser.project_owner,
            project_admin: a.projectUser.project_admin,
            researcher: a.projectUser.researcher,
            collector: a.projectUser.collector,
            data_manager: a.projectUser.data_manager,
            staff_admin: a.projectUser.staff_admin,
          }
        : undefined,
      project_state: a.project.project_state,
      project_type: a.project.project_type,
      site: a.link ? (a.link.site_id ?? 0) : (a.projectUser?.site_id ?? 0),
      group: a.projectUser?.group_id ?? 0,
      team: a.projectUser?.team_id ?? 0,
      is_hierarchical: a.project.is_hierarchical,
      project_hierarchy: a.project.project_hierarchy,
      reference_ids: a.project.reference_ids,
      collect_sites: a.link
        ? a.link.site_id
          ? [a.link.site_id]
          : []
        : a.projectUser || a.manager
          ? collectSites(
              a,
              (await this.structure.sites(a.project.id)).map((s) => s.id),
            )
          : [],
      link_created: a.link ? a.link.time_created.toISOString() : '',
      feature_off_screens: a.featureOff?.screens ?? [],
      feature_off: a.featureOff?.feature ?? '',
    };
  }

  private async isLogoOf(organizationId: number, key: string): Promise<boolean> {
    const file = await this.collection.fileByKey(key);
    return file?.purpose === 'logo' && file.organization_id === organizationId;
  }

  async logoUrl(row: Pick<ProjectRow, 'logo'>): Promise<string> {
    return row.logo === '' ? '' : this.deps.files.presignGet(row.logo, { expiresInSeconds: LOGO_URL_TTL_S });
  }
}

/** Every project starts with a site, group and team whose names carry Default Site, Default Group, Default Team. */
export async function createDefaultStructure(structure: StructureStore, projectId: number) {
  const site = await structure.createSite(projectId, {
    name: 'Default Site',
    geotag: null,
    frontend_icon: 'place',
    frontend_color: '5da83d',
    date_start: null,
    date_end: null,
    active_flag: true,
    is_default: true,
  });
  const group = await structure.createGroup(projectId, site.id, 'Default Group', true);
  const team = await structure.createTeam(projectId, group.id, 'Default Team', true);
  return { site_id: site.id, group_id: group.id, team_id: team.id };
}

/** Copies sites, groups and teams; answers the copy's default site, group and team. */
async function copyStructure(structure: StructureStore, fromId: number, toId: number) {
  const [sites, groups, teams] = await Promise.all([
    structure.sites(fromId),
    structure.groups(fromId),
    structure.teams(fromId),
  ]);
  const siteMap = new Map<number, number>();
  const groupMap = new Map<number, number>();
  let defaults = { site_id: 0, group_id: 0, team_id: 0 };
  for (const s of sites) {
    const copy = await structure.createSite(toId, { ...s });
    siteMap.set(s.id, copy.id);
    if (s.is_default) defaults.site_id = copy.id;
  }
  for (const g of groups) {
    const copy = await structure.createGroup(toId, siteMap.get(g.site_id)!, g.name, g.is_default);
    groupMap.set(g.id, copy.id);
    if (g.is_default) defaults.group_id = copy.id;
  }
  for (const t of teams) {
    const copy = await structure.createTeam(toId, groupMap.get(t.group_id)!, t.name, t.is_default);
    if (t.is_default) defaults.team_id = copy.id;
  }
  if (defaults.site_id === 0) defaults = await createDefaultStructure(structure, toId);
  return defaults;
}
