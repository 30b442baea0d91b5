// Project status, type, period, hierarchy, timing column and aggregator (spec 000 §7 Projects, §4 Project state).
import type { projects } from '@fieldwork/proto';
import { AGGREGATORS } from '@fieldwork/sampler';
import { problems } from '@fieldwork/service-kit';
import {
  hierarchyProblems,
  isState,
  MESSAGES,
  PROJECT_TYPES,
  statusProblem,
  TIMING_COLUMNS,
  trendProblems,
  type Level,
  type TrendOptions,
} from '../domain/project.js';
import { ProjectStore } from '../store/project.store.js';
import { PurgeStore } from '../store/purge.store.js';
import { AccessResolver } from './access.js';
import type { Ctx, ProjectsDeps } from './deps.js';
import type { ProjectService } from './project.service.js';

export const PURGING = 'This project is being purged: it cannot be restored.';
export const LEVEL_HAS_RESPONSES = "You can't delete levels that already have responses.";

export class SettingsService {
  private readonly store: ProjectStore;

  constructor(
    private readonly deps: ProjectsDeps,
    private readonly access: AccessResolver,
    private readonly projects: ProjectService,
  ) {
    this.store = new ProjectStore(deps.sql);
  }

  /** Going live needs a question; D removes the project from lists. The answer's status field says what happened. */
  async setStatus(req: projects.SetStatusRequest, ctx: Ctx): Promise<projects.SetStatusReply> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'canSetLive');
    const next = req.project_state.trim().toUpperCase();
    if (!isState(next)) throw problems.invalidFields({ project_state: [MESSAGES.state] });
    if (a.project.project_state === 'D' && next !== 'D' && (await new PurgeStore(this.deps.sql).get(a.project.id)))
      throw problems.invalidFields({ project_state: [PURGING] });
    const questions =
      next === 'O' ? (await this.deps.forms.countQuestions({ project_id: a.project.id }, ctx)).questions : 0;
    const refused = statusProblem(next, questions);
    if (refused) throw problems.invalidFields({ status: [refused] });
    await this.store.update(a.project.id, { project_state: next });
    this.deps.log.info({ projectId: a.project.id, from: a.project.project_state, to: next }, 'project state changed');
    if (next === 'D' && a.project.project_state !== 'D')
      await this.deps.auth
        .recordAudit(
          {
            organization_id: a.organizationId,
            actor_user_id: a.caller.user_id,
            event: 'project_deleted',
            target: `project ${a.project.id}`,
            ip: '',
            details_json: JSON.stringify({
              name: a.project.name,
              from: a.project.project_state,
              // Done with an API key: the audit names it beside its creator (the actor).
              ...(a.caller.api_key ? { api_key: a.caller.api_key } : {}),
            }),
            id: 0,
            time: '',
          },
          ctx,
        )
        .catch((err: unknown) => this.deps.log.error({ err }, 'audit event not recorded'));
    return { status: 'success', project_state: next };
  }

  async setType(req: projects.SetTypeRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    const type = req.project_type.trim().toUpperCase();
    if (!(PROJECT_TYPES as readonly string[]).includes(type))
      throw problems.invalidFields({ project_type: [MESSAGES.type] });
    let trend: TrendOptions | null = null;
    if (type === 'T') {
      const options = req.trend_series_options ?? a.project.trend_series_options ?? undefined;
      const errors = trendProblems(
        options,
        a.project.project_hierarchy.map((l) => l.schema_id),
      );
      if (Object.keys(errors).length > 0) throw problems.invalidFields(errors);
      trend = { ...options!, trend_question: options!.trend_question.trim() };
    }
    await this.store.update(a.project.id, { project_type: type, trend_series_options: trend });
    return this.projects.get({ caller: a.caller, project_id: a.project.id }, ctx);
  }

  async setPeriod(req: projects.SetPeriodRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    if (a.project.project_type !== 'T') throw problems.invalid('Only a trend series project has a period.');
    const options = req.trend_series_options;
    const errors = trendProblems(
      options,
      a.project.project_hierarchy.map((l) => l.schema_id),
    );
    if (Object.keys(errors).length > 0) throw problems.invalidFields(errors);
    await this.store.update(a.project.id, { trend_series_options: options!, project_period: options!.time_particle });
    return this.projects.get({ caller: a.caller, project_id: a.project.id }, ctx);
  }

  /**
   * Levels, each with a schema: a level with schema_id 0 gets a new schema; a level that disappears takes its
   * schema with it, unless that schema already has responses. A schema of the project's that no level has yet may
   * be given to a level of its own level number.
   */
  async setHierarchy(req: projects.SetHierarchyRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    const levels: Level[] = req.project_hierarchy.map((l) => ({
      level: l.level,
      name: l.name.trim(),
      schema_id: l.schema_id,
    }));
    const problem = hierarchyProblems(req.is_hierarchical, levels);
    if (problem) throw problems.invalidFields({ project_hierarchy: [problem] });
    const current = new Set(a.project.project_hierarchy.map((l) => l.schema_id));
    // A schema outside the hierarchy may join it at its own level when it is the project's (the forms service makes
    // the schemas of the levels an XLSForm's repeats add before it sets the hierarchy).
    const outside = levels.filter((l) => l.schema_id > 0 && !current.has(l.schema_id));
    if (outside.length > 0) {
      const own = new Map(
        (await this.deps.forms.listSchemas({ project_id: a.project.id }, ctx)).results.map((s) => [s.id, s.level]),
      );
      if (outside.some((l) => own.get(l.schema_id) !== l.level))
        throw problems.invalidFields({ project_hierarchy: ['No schema of this project has this id.'] });
    }
    const kept = new Set(levels.map((l) => l.schema_id));
    const removed = [...current].filter((id) => !kept.has(id));
    if (removed.length > 0) {
      const counts = await this.deps.responses.countResponses({ project_id: a.project.id }, ctx);
      if (removed.some((id) => (counts.by_schema[id]?.total ?? 0) > 0))
        throw problems.invalidFields({ project_hierarchy: [LEVEL_HAS_RESPONSES] });
    }
    const resolved: Level[] = [];
    for (const l of levels) {
      if (l.schema_id > 0) {
        resolved.push(l);
        continue;
      }
      const schema = await this.deps.forms.createSchema(
        {
          project_id: a.project.id,
          name: l.name || `Level ${l.level + 1}`,
          level: l.level,
          project_type: a.project.project_type,
        },
        ctx,
      );
      resolved.push({ ...l, schema_id: schema.id });
    }
    if (removed.length > 0) await this.deps.forms.deleteSchemas({ project_id: a.project.id, schema_ids: removed }, ctx);
    await this.store.update(a.project.id, { is_hierarchical: req.is_hierarchical, project_hierarchy: resolved });
    return this.projects.get({ caller: a.caller, project_id: a.project.id }, ctx);
  }

  async setTimingColumn(req: projects.SetTimingColumnRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    if (!(TIMING_COLUMNS as readonly string[]).includes(req.timing_column)) {
      throw problems.invalidFields({ timing_column: [`Choose one of ${TIMING_COLUMNS.join(', ')}.`] });
    }
    await this.store.update(a.project.id, { timing_column: req.timing_column });
    return this.projects.get({ caller: a.caller, project_id: a.project.id }, ctx);
  }

  async setAggregator(req: projects.SetAggregatorRequest, ctx: Ctx): Promise<projects.Project> {
    const a = await this.access.project(req.caller, req.project_id, ctx);
    AccessResolver.require(a, 'parameters');
    if (!(AGGREGATORS as readonly string[]).includes(req.project_aggregator)) {
      throw problems.invalidFields({ project_aggregator: [`Choose one of ${AGGREGATORS.join(', ')}.`] });
    }
    await this.store.update(a.project.id, { aggregator: req.project_aggregator });
    return this.projects.get({ caller: a.caller, project_id: a.project.id }, ctx);
  }
}
