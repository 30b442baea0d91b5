// Store rows to the messages of proto/projects.proto.
import type { auth, projects } from '@fieldwork/proto';
import { projectScreens } from '@fieldwork/access';
import { durationDays } from '../domain/project.js';
import { linkExpired } from '../domain/link.js';
import type { ProjectRow } from '../store/project.store.js';
import type { GroupRow, SiteRow, TeamRow } from '../store/structure.store.js';
import type { ProjectUserRow } from '../store/project-user.store.js';
import type { SurveyRow } from '../store/collection.store.js';

const iso = (d: Date | null | undefined) => d?.toISOString() ?? '';
const point = (g: number[] | null) => (g && g.length === 2 ? { longitude: g[0]!, latitude: g[1]! } : undefined);

export function toProject(row: ProjectRow, logoUrl = ''): projects.Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    project_state: row.project_state,
    project_type: row.project_type,
    geotag: point(row.geotag),
    folder_id: row.folder_id ?? 0,
    primary_organization: row.organization_id,
    frontend_color: row.frontend_color,
    frontend_icon: row.frontend_icon,
    logo: logoUrl,
    is_hierarchical: row.is_hierarchical,
    is_entity: row.is_entity,
    project_hierarchy: row.project_hierarchy,
    project_period: row.project_period,
    timing_column: row.timing_column,
    aggregator: row.aggregator,
    trend_series_options: row.trend_series_options ?? undefined,
    sites: [],
    groups: [],
    teams: [],
    projectuser_set: [],
    sampler_schemas: [],
    references: row.reference_ids,
    current_survey: undefined,
    current_collection_round_start: iso(row.current_collection_round_start),
    date_end: row.date_end ?? '',
    goal_count: row.goal_count,
    // Counted where they are (the results store) by list and full: the projects table's old columns were never kept.
    total_responses: 0,
    complete_responses: 0,
    incomplete_responses: 0,
    last_response: '',
    time_created: iso(row.time_created),
    time_updated: iso(row.time_updated),
    permissions: [],
    collect_sites: [],
    full: false,
    projectuser_count: 0,
  };
}

export function toSite(row: SiteRow, groups: GroupRow[] = []): projects.Site {
  return {
    id: row.id,
    name: row.name,
    geotag: point(row.geotag),
    frontend_icon: row.frontend_icon,
    frontend_color: row.frontend_color,
    date_start: row.date_start ?? '',
    date_end: row.date_end ?? '',
    active_flag: row.active_flag,
    total_responses: 0,
    last_response: '',
    groups: groups.filter((g) => g.site_id === row.id).map((g) => g.id),
    project: row.project_id,
    duration_days: durationDays(row.date_start, row.date_end),
    goal_count: Number(row.goal_count ?? 0),
  };
}

export function toGroup(row: GroupRow, teams: TeamRow[] = []): projects.Group {
  return {
    id: row.id,
    name: row.name,
    site: row.site_id,
    teams: teams.filter((t) => t.group_id === row.id).map((t) => t.id),
  };
}

export function toTeam(row: TeamRow, members: ProjectUserRow[] = []): projects.Team {
  return {
    id: row.id,
    name: row.name,
    group: row.group_id,
    users: members.filter((m) => m.team_id === row.id).map((m) => m.user_id),
  };
}

export function toProjectUser(
  row: ProjectUserRow,
  user: auth.UserBrief | undefined,
  organizationId: number,
): projects.ProjectUser {
  return {
    id: row.id,
    user: row.user_id,
    user_id: row.user_id,
    display_name: user?.name ?? '',
    email: user?.email ?? '',
    username: user?.username ?? '',
    org_id: organizationId,
    site: row.site_id ?? 0,
    group: row.group_id ?? 0,
    team: row.team_id ?? 0,
    read_sites: row.read_sites,
    permissions: [...projectScreens(row)],
    project_owner: row.project_owner,
    project_admin: row.project_admin,
    researcher: row.researcher,
    collector: row.collector,
    data_manager: row.data_manager,
    staff_admin: row.staff_admin,
  };
}

export function toSurvey(row: SurveyRow, projectState: string): projects.Survey {
  return {
    id: row.id,
    project: row.project_id,
    token: row.token,
    expiry_date: iso(row.expiry_date),
    time_created: iso(row.time_created),
    revoked_at: row.revoked_at ? iso(row.revoked_at) : '',
    expired: linkExpired(row, projectState),
    site: row.site_id ?? 0,
    kind: row.kind,
    name: row.name,
    proceed_unauthenticated: row.proceed_unauthenticated,
  };
}
