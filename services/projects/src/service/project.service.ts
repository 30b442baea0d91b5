// Project use cases: create and list (the rest of spec 000 §7 Projects follows with its issue).
import { canInWorkspace } from '@fieldwork/access';
import { auth, projects, type common } from '@fieldwork/proto';
import { problems, type FieldErrors, type Logger, type PromiseClient, type Sql } from '@fieldwork/service-kit';
import { DEFAULT_ICON, isValidGeotag, normalizeColor, PLACE_ICONS } from '../domain/project.js';
import { ProjectStore, type ProjectRow } from '../store/project.store.js';

export type AuthClient = PromiseClient<typeof auth.AuthServiceService, auth.AuthServiceClient>;

export class ProjectService {
  private readonly store: ProjectStore;

  constructor(
    sql: Sql,
    private readonly authClient: AuthClient,
    private readonly log: Logger,
  ) {
    this.store = new ProjectStore(sql);
  }

  async create(req: projects.CreateProjectRequest, requestId: string): Promise<projects.Project> {
    const caller = this.caller(req.caller);
    const membership = await this.membership(caller, req.organization_pk, requestId);
    if (!canInWorkspace(caller, membership, 'projects', membership.flagged_features)) throw problems.forbidden();
    const fields: FieldErrors = {};
    const name = req.name.trim();
    if (name === '') fields.name = ['This field may not be blank.'];
    const color = normalizeColor(req.frontend_color);
    if (color === undefined) fields.frontend_color = ['Enter a colour as six hexadecimal digits.'];
    const icon = req.frontend_icon.trim() || DEFAULT_ICON;
    if (!(PLACE_ICONS as readonly string[]).includes(icon)) fields.frontend_icon = [`Choose one of ${PLACE_ICONS.join(', ')}.`];
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
    if (!isValidGeotag(req.geotag)) throw problems.geotagRequired();
    const row = await this.store.create({
      organization_id: req.organization_pk,
      name,
      description: req.description.trim(),
      frontend_color: color!,
      frontend_icon: icon,
      geotag: [req.geotag.longitude, req.geotag.latitude],
      folder_id: req.folder_id > 0 ? req.folder_id : null,
      created_by: caller.user_id,
    });
    this.log.info({ projectId: row.id, organizationId: row.organization_id }, 'project created');
    return toProject(row);
  }

  async list(req: projects.ListProjectsRequest, requestId: string): Promise<projects.ProjectList> {
    const caller = this.caller(req.caller);
    const membership = await this.membership(caller, req.organization_id, requestId);
    // Project users arrive with their issue; until then the workspace's project permission decides.
    if (!canInWorkspace(caller, membership, 'projects', membership.flagged_features)) return { results: [] };
    return { results: (await this.store.ofOrganization(req.organization_id)).map(toProject) };
  }

  private caller(c: common.Caller | undefined): common.Caller {
    if (!c || c.user_id <= 0) throw problems.notAuthenticated();
    return c;
  }

  private async membership(caller: common.Caller, organizationId: number, requestId: string): Promise<auth.Membership> {
    if (organizationId <= 0) throw problems.invalidOrganizationId();
    const m = await this.authClient.getMembership({ user_id: caller.user_id, organization_id: organizationId }, { requestId });
    if (!m.member && !caller.is_staff && !caller.is_superuser) throw problems.invalidOrganizationId();
    return m;
  }
}

export function toProject(row: ProjectRow): projects.Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    project_state: row.project_state,
    project_type: row.project_type,
    frontend_color: row.frontend_color,
    frontend_icon: row.frontend_icon,
    geotag: row.geotag && row.geotag.length === 2 ? { longitude: row.geotag[0]!, latitude: row.geotag[1]! } : undefined,
    folder_id: row.folder_id ?? 0,
    primary_organization: row.organization_id,
    total_responses: row.total_responses,
    last_response: row.last_response?.toISOString() ?? '',
    time_created: row.time_created.toISOString(),
    time_updated: row.time_updated.toISOString(),
  };
}
