// Sites, groups and teams (spec 000 §3, §7): a site has groups, a group has teams, a team has users.
import type { common, projects } from '@fieldwork/proto';
import { problems, transaction, type FieldErrors } from '@fieldwork/service-kit';
import { isValidGeotag, MESSAGES, normalizeColor, normalizeIcon, parseDate } from '../domain/project.js';
import { ProjectUserStore } from '../store/project-user.store.js';
import { StructureStore, type SitePatch } from '../store/structure.store.js';
import { AccessResolver } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';
import { toGroup, toSite, toTeam } from './mappers.js';

export const NEED_VALID_GEOTAG = 'Need Valid Geotag';
/**
 * Spec 000 §5: "A site counts as valid only if it is not named Default and has a geotag"; the word marks the default
 * site each project starts with (Default Site). So no other site may take it, and a site needs a valid geotag.
 */
export const DEFAULT_NAME_RESERVED = 'Default is the name of the project’s default site: choose another name.';
export const isDefaultName = (name: string) => /^default$|\bdefault site\b/i.test(name.trim().replace(/\s+/g, ' '));
export const INVALID = {
  site: 'Invalid Project or Site Id!',
  group: 'Invalid Project or Group Id!',
  team: 'Invalid Project or Team Id!',
} as const;

const nameOf = (raw: string | undefined, fields: FieldErrors): string | undefined => {
  if (raw === undefined) return undefined;
  const name = raw.trim();
  if (name === '') fields.name = [MESSAGES.blank];
  else if (name.length > 255) fields.name = [MESSAGES.tooLong(255)];
  return name;
};

export class StructureService {
  private readonly store: StructureStore;

  constructor(
    private readonly deps: ProjectsDeps,
    private readonly access: AccessResolver,
  ) {
    this.store = new StructureStore(deps.sql);
  }
  /**
   * Whether a response's group and team fit its site in this project (the responses service asks, for every upload
   * path that names them): a group of another project or site, or a team of another group, is not the response's.
   */
  async checkPlacement(req: projects.PlacementRequest): Promise<projects.PlacementReply> {
    const [group, team] = await Promise.all([
      req.group > 0 ? this.store.group(req.project_id, req.group) : undefined,
      req.team > 0 ? this.store.team(req.project_id, req.team) : undefined,
    ]);
    return {
      group_valid: req.group <= 0 || (group !== undefined && group.site_id === req.site),
      team_valid: req.team <= 0 || (team !== undefined && team.group_id === req.group),
    };
  }

  async createSite(req: projects.SiteRequest, ctx: Ctx): Promise<projects.Site> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const patch = this.sitePatch(req, true, { date_start: null, date_end: null, is_default: false });
    const site = await this.store.createSite(a.project.id, {
      name: patch.name!,
      geotag: patch.geotag!,
      frontend_icon: patch.frontend_icon ?? 'place',
      frontend_color: patch.frontend_color ?? '5da83d',
      date_start: patch.date_start ?? null,
      date_end: patch.date_end ?? null,
      active_flag: true,
      goal_count: patch.goal_count ?? 0,
    });
    return toSite(site);
  }

  async updateSite(req: projects.SiteRequest, ctx: Ctx): Promise<projects.Site> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const site = await this.site(a.project.id, req.site_id);
    const patch = this.sitePatch(req, false, site);
    const updated = await this.store.updateSite(a.project.id, site.id, patch);
    return toSite(updated, await this.store.groups(a.project.id));
  }

  async setSiteActive(req: projects.SetSiteActiveRequest, ctx: Ctx): Promise<projects.Site> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const site = await this.site(a.project.id, req.site_id);
    return toSite(
      await this.store.updateSite(a.project.id, site.id, { active_flag: req.active_flag }),
      await this.store.groups(a.project.id),
    );
  }

  /** Deleting a site deletes its groups and teams and clears site, group and team from its project users. */
  async deleteSite(req: projects.SiteRef, ctx: Ctx): Promise<common.Empty> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const site = await this.site(a.project.id, req.site_id);
    await transaction(this.deps.sql, async (tx) => {
      await new StructureStore(tx).deleteSite(a.project.id, site.id);
      await new ProjectUserStore(tx).forgetSite(a.project.id, site.id);
    });
    this.deps.log.info({ projectId: a.project.id, siteId: site.id }, 'site deleted');
    return {};
  }

  async createGroup(req: projects.GroupRequest, ctx: Ctx): Promise<projects.Group> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const fields: FieldErrors = {};
    const name = nameOf(req.name ?? '', fields);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const site = await this.site(a.project.id, req.site ?? 0, true);
    return toGroup(await this.store.createGroup(a.project.id, site.id, name!));
  }

  async updateGroup(req: projects.GroupRequest, ctx: Ctx): Promise<projects.Group> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const group = await this.group(a.project.id, req.group_id);
    const fields: FieldErrors = {};
    const name = nameOf(req.name, fields);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const site = req.site !== undefined ? await this.site(a.project.id, req.site, true) : undefined;
    const updated = await transaction(this.deps.sql, async (tx) => {
      const store = new StructureStore(tx);
      const g = await store.updateGroup(a.project.id, group.id, {
        ...(name ? { name } : {}),
        ...(site ? { site_id: site.id } : {}),
      });
      if (site && site.id !== group.site_id) await store.syncMembersOfGroup(a.project.id, group.id, site.id);
      return g;
    });
    return toGroup(updated, await this.store.teams(a.project.id));
  }

  async deleteGroup(req: projects.GroupRef, ctx: Ctx): Promise<common.Empty> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const group = await this.group(a.project.id, req.group_id);
    await this.store.deleteGroup(a.project.id, group.id);
    return {};
  }

  async createTeam(req: projects.TeamRequest, ctx: Ctx): Promise<projects.Team> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const fields: FieldErrors = {};
    const name = nameOf(req.name ?? '', fields);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const group = await this.group(a.project.id, req.group ?? 0, true);
    return toTeam(await this.store.createTeam(a.project.id, group.id, name!));
  }

  async updateTeam(req: projects.TeamRequest, ctx: Ctx): Promise<projects.Team> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const team = await this.team(a.project.id, req.team_id);
    const fields: FieldErrors = {};
    const name = nameOf(req.name, fields);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    const group = req.group !== undefined ? await this.group(a.project.id, req.group, true) : undefined;
    const updated = await transaction(this.deps.sql, async (tx) => {
      const store = new StructureStore(tx);
      const t = await store.updateTeam(a.project.id, team.id, {
        ...(name ? { name } : {}),
        ...(group ? { group_id: group.id } : {}),
      });
      if (group && group.id !== team.group_id)
        await store.syncMembersOfTeam(a.project.id, team.id, group.id, group.site_id);
      return t;
    });
    return toTeam(updated, await new ProjectUserStore(this.deps.sql).ofProject(a.project.id));
  }

  async deleteTeam(req: projects.TeamRef, ctx: Ctx): Promise<common.Empty> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'sites');
    const team = await this.team(a.project.id, req.team_id);
    await this.store.deleteTeam(a.project.id, team.id);
    return {};
  }

  /** The site of the project: a path id that is not answers 404, a body reference 400, both "Invalid Project or Site Id!". */
  private async site(projectId: number, id: number, inBody = false) {
    const site = id > 0 ? await this.store.site(projectId, id) : undefined;
    if (!site) throw inBody ? problems.invalidFields({ site: [INVALID.site] }) : problems.invalidSiteId();
    return site;
  }

  /** The group of the project: a path id that is not answers 404, a body reference 400, both "Invalid Project or Group Id!". */
  private async group(projectId: number, id: number, inBody = false) {
    const group = id > 0 ? await this.store.group(projectId, id) : undefined;
    if (!group) throw inBody ? problems.invalidFields({ group: [INVALID.group] }) : problems.invalidGroupId();
    return group;
  }

  /** The team of the project: a path id that is not answers 404, a body reference 400, both "Invalid Project or Team Id!". */
  private async team(projectId: number, id: number, inBody = false) {
    const team = id > 0 ? await this.store.team(projectId, id) : undefined;
    if (!team) throw inBody ? problems.invalidFields({ team: [INVALID.team] }) : problems.invalidTeamId();
    return team;
  }

  /** Validated site fields; a site needs a valid geotag ("Need Valid Geotag"). */
  private sitePatch(
    req: projects.SiteRequest,
    creating: boolean,
    current: { date_start: string | null; date_end: string | null; is_default: boolean },
  ): SitePatch {
    const fields: FieldErrors = {};
    const patch: SitePatch = {};
    const name = nameOf(creating || req.name !== '' ? req.name : undefined, fields);
    if (name !== undefined && !fields.name && !current.is_default && isDefaultName(name))
      fields.name = [DEFAULT_NAME_RESERVED];
    if (name !== undefined) patch.name = name;
    if (creating || req.geotag_given || req.geotag !== undefined) {
      if (!isValidGeotag(req.geotag)) fields.geotag = [NEED_VALID_GEOTAG];
      else patch.geotag = [req.geotag.longitude, req.geotag.latitude];
    }
    if (req.frontend_color !== '') {
      const c = normalizeColor(req.frontend_color);
      if (c === undefined) fields.frontend_color = [MESSAGES.color];
      else patch.frontend_color = c;
    }
    if (req.frontend_icon !== '') {
      const i = normalizeIcon(req.frontend_icon);
      if (i === undefined) fields.frontend_icon = [MESSAGES.icon];
      else patch.frontend_icon = i;
    }
    for (const f of ['date_start', 'date_end'] as const) {
      const v = req[f];
      if (v === undefined) continue;
      if (v.trim() === '') patch[f] = null;
      else {
        const d = parseDate(v);
        if (d === undefined) fields[f] = [MESSAGES.date];
        else patch[f] = d;
      }
    }
    if (req.goal_count !== undefined) {
      if (req.goal_count < 0 || !Number.isSafeInteger(req.goal_count))
        fields.goal_count = ['Ensure this value is greater than or equal to 0.'];
      else patch.goal_count = req.goal_count;
    }
    const start = patch.date_start !== undefined ? patch.date_start : current.date_start;
    const end = patch.date_end !== undefined ? patch.date_end : current.date_end;
    if (start && end && end < start && !fields.date_end)
      fields.date_end = ['The end date must not be before the start date.'];
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    return patch;
  }
}
