// What the caller may do with a project's responses, from the projects service (packages/access decides there).
// Answers are cached briefly per caller and project: a permission change reaches uploads within ACCESS_TTL_MS.
import { responsesScope } from '@fieldwork/access';
import type { common, projects } from '@fieldwork/proto';
import { grantOf, metrics, problems } from '@fieldwork/service-kit';
import type { Scope } from '../store/response.store.js';
import type { Ctx, ProjectsClient } from './deps.js';

const ACCESS_TTL_MS = 15_000;

export interface ResponseAccess {
  projectId: number;
  organizationId: number;
  userId: number;
  anonymous: boolean;
  surveyId: number;
  email: string;
  can: (action: 'collect' | 'edit' | 'delete' | 'editCompleted' | 'changeStatus') => boolean;
  /** The project screens the caller may open (packages/access): projectLevelIngestion for imports and SQL access. */
  screens: ReadonlySet<string>;
  /** What the caller may read: everything (packages/access readAllResponses) or their own and their read_sites. */
  scope: Scope;
  placement: { site: number; group: number; team: number };
  /** The sites the caller may file responses under, their own first (every site for those who manage the data). */
  collectSites: number[];
  projectType: string;
  projectState: string;
  hierarchy: projects.HierarchyLevel[];
  referenceIds: number[];
  /** A collection link's respondent: when the link was made ('' for people). */
  linkCreated: string;
}

export class AccessCache {
  private readonly cache = new Map<string, { at: number; value: ResponseAccess }>();

  constructor(
    private readonly projects: ProjectsClient,
    /** CONTEXT_SIGNING_SECRET: a gateway's grant is used when it carries one (empty: never). */
    private readonly secret = '',
  ) {}

  async get(caller: common.Caller | undefined, projectId: number, ctx: Ctx, fresh = false): Promise<ResponseAccess> {
    if (!caller || (caller.user_id <= 0 && caller.collect_project_id <= 0)) throw problems.notAuthenticated();
    const key = `${caller.user_id}:${caller.collect_project_id}:${caller.collect_survey_id}:${caller.organization_id}:${projectId}`;
    // A collection link's respondent is asked about every time: a revoked or expired link, or a project finalized or
    // deleted, ends its uploads at once (the projects service checks the link on each call).
    const anonymous = caller.user_id <= 0;
    // The gateway's decision for this request, when it made one: fresher than this cache, and no call. `fresh` asks
    // the projects service itself (SQL access credentials, a reference added a moment ago).
    const granted = fresh ? undefined : grantOf(this.secret, ctx.metadata, caller, projectId);
    if (granted) {
      metrics.projectAccess.inc({ source: 'grant' });
      return this.view(caller, projectId, granted);
    }
    const hit = anonymous ? undefined : this.cache.get(key);
    if (hit && !fresh && Date.now() - hit.at < ACCESS_TTL_MS) return hit.value;
    metrics.projectAccess.inc({ source: 'asked' });
    const value = this.view(caller, projectId, await this.projects.getAccess({ caller, project_id: projectId }, ctx));
    if (anonymous) return value;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }

  private view(caller: common.Caller, projectId: number, a: projects.ProjectAccess): ResponseAccess {
    const actions = new Set(a.actions);
    const screens = new Set(a.screens);
    return {
      projectId,
      organizationId: a.organization_id,
      userId: caller.user_id,
      anonymous: caller.user_id <= 0,
      surveyId: caller.collect_survey_id,
      email: caller.collect_email,
      can: (action) => actions.has(action),
      screens,
      scope: responsesScope(a, caller.user_id),
      placement: { site: a.site, group: a.group, team: a.team },
      collectSites: a.collect_sites,
      projectType: a.project_type,
      projectState: a.project_state,
      hierarchy: a.project_hierarchy,
      referenceIds: a.reference_ids,
      linkCreated: a.link_created,
    };
  }
}
