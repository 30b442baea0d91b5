// Results of a project (spec 001 §3 Results payload, §9 aggregators): per schema, the filtered response count with
// the first and last response on the timing column, and per question its statistics from ClickHouse.
import { resultsScope } from '@fieldwork/access';
import type { common, forms, projects, results } from '@fieldwork/proto';
import {
  filterModel,
  idList,
  isQuestion,
  LIMIT_MESSAGES,
  REQUEST_LIMITS,
  itemsInOrder,
  type Choice,
  type FilterModel,
  type Item,
  type SchemaBody,
} from '@fieldwork/sampler';
import { parseJsonInput, problems, projectAccess, type PromiseClient } from '@fieldwork/service-kit';
import type { CallContext } from '@fieldwork/service-kit';
import { z } from 'zod';
import { evaluateAdvanced, type Aggregate } from './advanced.js';
import { filterProblems, namesQuestions, namesSites } from '../domain/filter-check.js';
import { aggregated, aggregatorFor, COMPARISON_GROUPS, niceBins } from '../domain/charts.js';
import { aggregatorOf, checkComparisons, comparedAll, planComparisons, textResults } from './charts.js';
import {
  COMPARE_BY,
  numberStats,
  type NumberStats,
  PERIODS,
  TIME_ZONE,
  TIMING_COLUMNS,
  type Comparison,
  type Scope,
  type TimingColumn,
} from '../domain/query.js';
import type { ComparisonSql, ResultsStore, Where } from '../store/results.store.js';
import type { AggregatesStore } from '../store/aggregates.store.js';
import { planResults, type Plan } from '../domain/planner.js';
import type { Source } from './source.js';

type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
type FormsClient = PromiseClient<typeof forms.FormsServiceService, forms.FormsServiceClient>;

const NUMERIC = new Set(['number', 'currency', 'calculated']);

/** Profiles a lookups page holds: 50 unless asked, at most 100 (spec-less; a picker shows a page as one types). */
export const LOOKUP_PAGE = { default: 50, max: 100, maxOffset: 1_000_000, maxQuery: 200 } as const;

/** The page and search of a lookups call, refused by field when out of bounds (never a scan without a limit). */
function lookupPaging(req: results.ResultsRequest): { q: string; limit: number; offset: number } {
  const fields: Record<string, string[]> = {};
  if (req.limit < 0 || req.limit > LOOKUP_PAGE.max)
    fields.limit = [`Ensure this value is between 1 and ${LOOKUP_PAGE.max}.`];
  if (req.offset < 0 || req.offset > LOOKUP_PAGE.maxOffset)
    fields.offset = [`Ensure this value is between 0 and ${LOOKUP_PAGE.maxOffset}.`];
  const q = req.lookup_query.trim();
  if (q.length > LOOKUP_PAGE.maxQuery)
    fields.q = [`Ensure this field has no more than ${LOOKUP_PAGE.maxQuery} characters.`];
  if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
  return { q, limit: req.limit || LOOKUP_PAGE.default, offset: req.offset };
}

const comparisonsModel = z
  .array(
    z
      .object({
        by: z.enum(COMPARE_BY),
        item_id: z.coerce.number().int().positive().optional(),
        period: z.enum(PERIODS).optional(),
        /** At most this many groups per item (the largest; the latest periods), the rest as one other group. */
        limit: z.number().int().min(1).max(COMPARISON_GROUPS.max).optional(),
      })
      .refine((c) => c.by !== 'question' || c.item_id !== undefined, {
        message: 'A comparison by question names its item_id.',
        path: ['item_id'],
      }),
  )
  .max(REQUEST_LIMITS.comparisonsPerQuery, LIMIT_MESSAGES.list(REQUEST_LIMITS.comparisonsPerQuery));

interface Shape {
  /** The scans' where (text samples, map points, and everything when the plan scans). */
  where: Where;
  /** What answers the statistics, and its where. */
  src: Source;
  srcWhere: Where;
  plan: Plan;
  comparison?: ComparisonSql;
  buckets: number;
  tz: string;
}
const CHOICES = new Set(['choice', 'binary']);

/** Most points of a geotag question sent for the map. */
const MAP_POINTS = 5000;

/** What a results screen (or a public item page, which cannot read the form) needs to label an item. */
function labelsOf(item: Item) {
  return {
    name: item.name,
    code_name: item.codeName,
    ...(item.options.multiselect ? { multiselect: true } : {}),
    ...(item.type === 'currency' && item.options.currency ? { currency: item.options.currency } : {}),
  };
}

function liveChoices(item: Item, body: SchemaBody) {
  return (item.options.choices ?? [])
    .map((id) => body.entities.choices[id])
    .filter((c): c is Choice => c !== undefined && !c.deleted);
}

/**
 * What served a results request, for its `meta`: `path` 'aggregates' (every statistic from the aggregates; text
 * samples and map points, which are answers themselves, are read from the latest answers) with `tables` the aggregate
 * tables read (values, sites, months, cube), or 'scan' with `scan` saying why.
 */
function pathMeta(plans: Plan[]): { path: 'aggregates' | 'scan'; scan?: string[]; tables?: string[] } {
  const reasons = [...new Set(plans.flatMap((p) => (p.path === 'scan' ? p.reasons : [])))];
  if (reasons.length > 0 || plans.length === 0) return { path: 'scan', scan: reasons };
  return { path: 'aggregates', tables: [...new Set(plans.flatMap((p) => (p.path === 'aggregates' ? [p.table] : [])))] };
}

export class ResultsService {
  constructor(
    private readonly store: ResultsStore,
    private readonly aggregates: AggregatesStore,
    private readonly projects: ProjectsClient,
    protected readonly forms: FormsClient,
    /** CONTEXT_SIGNING_SECRET: a gateway's grant is used when it carries one (empty: never). */
    private readonly secret = '',
  ) {}

  protected async scope(caller: common.Caller | undefined, projectId: number, ctx: CallContext): Promise<Scope> {
    if (!caller || caller.user_id <= 0) throw problems.notAuthenticated();
    const a = await projectAccess(this.secret, ctx.metadata, caller, projectId, () =>
      this.projects.getAccess({ caller, project_id: projectId }, ctx),
    );
    // Results need the results permission; a user with read_sites sees those sites' results (spec 001 §6).
    const scope = resultsScope(a, caller.user_id);
    if (!scope) throw problems.forbidden();
    return scope;
  }

  async responseIds(req: results.ResultsRequest, ctx: CallContext): Promise<results.ResponseIdsReply> {
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const filters = this.filters(req.filters_json);
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
    if (!schemas.some((s) => s.id === req.schema_id)) throw problems.invalidSchemaId();
    await this.checkFilters(filters, req.caller, req.project_id, ctx, async () => [
      await this.schemaBody(req.schema_id, ctx),
    ]);
    return {
      response_ids: await this.store.responseIds(this.store.where(req.project_id, req.schema_id, filters, scope)),
    };
  }

  async advancedResults(req: results.ResultsRequest, ctx: CallContext): Promise<results.ResultsReply> {
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const filters = this.filters(req.filters_json);
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results;
    const schema =
      req.schema_id === 0
        ? [...schemas].sort((a, b) => a.level - b.level)[0]
        : schemas.find((s) => s.id === req.schema_id);
    if (!schema) throw problems.invalidSchemaId();
    const body = await this.schemaBody(schema.id, ctx);
    await this.checkFilters(filters, req.caller, req.project_id, ctx, async () => [body]);
    const defs = (await this.projects.listAdvancedResults({ caller: req.caller, project_id: req.project_id }, ctx))
      .results;
    const where = this.store.where(req.project_id, schema.id, filters, scope);
    const evaluated = await evaluateAdvanced(defs, body, async (itemIds) => {
      const out = new Map<number, Aggregate>();
      if (itemIds.length === 0) return out;
      // Aggregated in ClickHouse (numbers as they are; any other answer counts as 1): no answer is loaded here.
      for (const r of await this.store.itemAggregates(where, itemIds))
        out.set(Number(r.item_id), { count: Number(r.count), sum: Number(r.sum), min: r.min, max: r.max });
      return out;
    });
    return {
      payload_json: JSON.stringify({
        schema_id: schema.id,
        results: evaluated.map(({ editor_state_json, ...r }) => ({
          ...r,
          editor_state: JSON.parse(editor_state_json || '{}') as unknown,
        })),
      }),
    };
  }

  /**
   * Refuses (400, by field) a filter naming a question of none of the schemas read, a choice its question does not
   * offer, a site of another project, or a date range ending before it starts. The forms (`bodies`) and the project
   * are read only when the filter names questions or sites.
   */
  private async checkFilters(
    f: FilterModel,
    caller: common.Caller | undefined,
    projectId: number,
    ctx: CallContext,
    bodies: () => Promise<SchemaBody[]>,
  ): Promise<void> {
    const forms = namesQuestions(f) ? await bodies() : [];
    const sites = namesSites(f) ? await this.projectSites(caller, projectId, idList(f.site), ctx) : null;
    const fields = filterProblems(f, forms, sites);
    if (Object.keys(fields).length > 0) throw problems.invalidFields(fields);
  }

  /** The project's site ids, kept a minute (read again at once when a filter names one not kept). */
  private readonly siteIds = new Map<number, { at: number; ids: Set<number> }>();
  private async projectSites(
    caller: common.Caller | undefined,
    projectId: number,
    wanted: number[],
    ctx: CallContext,
  ): Promise<Set<number>> {
    const kept = this.siteIds.get(projectId);
    if (kept && Date.now() - kept.at < 60_000 && wanted.every((s) => kept.ids.has(s))) return kept.ids;
    const ids = new Set(
      (await this.projects.getProject({ caller, project_id: projectId }, ctx)).sites.map((s) => s.id),
    );
    if (this.siteIds.size >= 1000) this.siteIds.clear();
    this.siteIds.set(projectId, { at: Date.now(), ids });
    return ids;
  }

  private async schemaBody(schemaId: number, ctx: CallContext): Promise<SchemaBody> {
    return JSON.parse((await this.forms.getSchemaInternal({ schema_id: schemaId }, ctx)).body_json) as SchemaBody;
  }

  private filters(json: string): FilterModel {
    return parseJsonInput(json, filterModel, 'filters', { empty: {}, notJson: 'Send the filters as a JSON object.' });
  }

  async results(req: results.ResultsRequest, ctx: CallContext): Promise<results.ResultsReply> {
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const filters = this.filters(req.filters_json);
    const timing = (req.timing_column || 'time_created') as TimingColumn;
    if (!TIMING_COLUMNS.includes(timing))
      throw problems.invalidFields({ timing_column: [`Choose one of ${TIMING_COLUMNS.join(', ')}.`] });

    const tz = req.time_zone || 'UTC';
    if (!TIME_ZONE.test(tz))
      throw problems.invalidFields({ time_zone: ['Enter a time zone such as UTC or Europe/Paris.'] });
    if (req.buckets < 0 || req.buckets > 100)
      throw problems.invalidFields({ buckets: ['Ensure this value is between 1 and 100.'] });
    const comparisons: Comparison[] = parseJsonInput(req.comparisons_json, comparisonsModel, 'comparisons', {
      empty: [],
      notJson: 'Send the comparisons as a JSON list.',
    });
    const aggregator = aggregatorOf(req.aggregator);
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results.filter(
      (s) => req.schema_id === 0 || s.id === req.schema_id,
    );
    if (schemas.length === 0) throw problems.invalidSchemaId();
    const bodies = new Map<number, SchemaBody>();
    for (const s of schemas) bodies.set(s.id, await this.schemaBody(s.id, ctx));
    await this.checkFilters(filters, req.caller, req.project_id, ctx, async () => [...bodies.values()]);
    checkComparisons(comparisons, [...bodies.values()]);
    const profileIds = req.profile_response_id ? await this.profile(req, scope) : null;
    const levels = [];
    const items = [];
    const counted = await this.aggregates.project(req.project_id);
    const plans: Plan[] = [];
    for (const s of schemas) {
      const body = bodies.get(s.id)!;
      const where = this.store.restrict(this.store.where(req.project_id, s.id, filters, scope), profileIds);
      // One planner decides, per schema, what answers the statistics (docs/results.md "Which path").
      const plan = planResults({
        filters,
        comparisons,
        tz,
        timing,
        profile: profileIds !== null,
        scoped: !scope.all,
        aggregates: counted,
      });
      plans.push(plan);
      const aggWhere =
        plan.path === 'aggregates' ? this.aggregates.where(req.project_id, s.id, filters, scope, plan) : undefined;
      const src: Source = aggWhere ? (this.aggregates as unknown as Source) : this.store;
      const srcWhere = aggWhere ?? where;
      const shape: Shape = {
        where: { sql: where.sql, params: { ...where.params, tz } },
        src,
        srcWhere: { ...srcWhere, params: { ...srcWhere.params, tz } },
        plan,
        buckets: req.buckets || 10,
        tz,
      };
      levels.push({
        schema_id: s.id,
        name: s.name,
        level: s.level,
        ...(await this.level(src, shape.srcWhere, timing)),
      });
      const wanted = itemsInOrder(body).filter(
        ({ item, blockId, topBlockId }) =>
          isQuestion(item) &&
          (req.block_id === 0 || blockId === req.block_id || topBlockId === req.block_id) &&
          (req.item_ids.length === 0 || req.item_ids.includes(item.id)),
      );
      // One query per kind of question for all the wanted items of that kind, then comparisons item by item.
      const bases = await this.items(
        wanted.map((w) => w.item),
        body,
        shape,
      );
      await textResults(
        this.store,
        wanted.map((w) => w.item),
        bases,
        shape.where,
        aggWhere && plan.path === 'aggregates'
          ? { store: this.aggregates, where: { ...aggWhere, ...shape.srcWhere }, words: plan.table !== 'cube' }
          : undefined,
      );
      const compares = await planComparisons(
        src,
        comparisons,
        wanted.map((w) => w.item.id),
        shape.srcWhere,
        timing,
        body,
      );
      for (const { item } of wanted) {
        const base = bases.get(item.id) ?? (await this.geotag(item, shape));
        const all = await comparedAll(src, item, shape.srcWhere, compares, aggregator, (comparison) =>
          this.compared(item, body, { ...shape, comparison }),
        );
        const used = aggregatorFor(item.type, aggregator);
        items.push({
          schema_id: s.id,
          item_id: item.id,
          type: item.type,
          ...labelsOf(item),
          ...base,
          aggregator: used,
          value: aggregated(base.stats as Record<string, unknown> | undefined, used),
          // The first comparison as before; every comparison of the request in order.
          comparison: all[0] ?? null,
          comparisons: all,
        });
      }
    }
    const profile = req.profile_response_id
      ? { schema_id: req.profile_schema_id, response_id: req.profile_response_id, responses: profileIds?.length ?? 0 }
      : null;
    return {
      payload_json: JSON.stringify({
        items,
        levels,
        meta: { timing_column: timing, time_zone: tz, aggregator, processor: 'clickhouse', ...pathMeta(plans) },
        profile,
      }),
    };
  }

  /**
   * A profile: the response of the lookup schema and every response below it (children by parent_id, level after
   * level). Not found unless the caller may see that response.
   */
  private async profile(req: results.ResultsRequest, scope: Scope): Promise<string[]> {
    const own = this.store.where(req.project_id, req.profile_schema_id, filterModel.parse({}), scope);
    if (!(await this.store.hasResponse(own, req.profile_response_id))) throw problems.notFound();
    const ids = [req.profile_response_id];
    let level = [req.profile_response_id];
    for (let depth = 0; depth < 10 && level.length > 0; depth++) {
      level = await this.store.childResponses(req.project_id, level);
      ids.push(...level);
    }
    return ids;
  }

  /**
   * The profiles to choose from: responses of the schemas with lookup or primary key questions, with those answers,
   * a page at a time (`limit` 1 to 100, default 50, after `offset`) and searched in ClickHouse (`lookup_query`, any
   * of those answers holding it, case-insensitive). Each schema says how many match (`count`).
   */
  async lookups(req: results.ResultsRequest, ctx: CallContext): Promise<results.ResultsReply> {
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const { q, limit, offset } = lookupPaging(req);
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results.filter(
      (s) => req.schema_id === 0 || s.id === req.schema_id,
    );
    if (schemas.length === 0) throw problems.invalidSchemaId();
    const lookups = [];
    for (const s of schemas) {
      const body = await this.schemaBody(s.id, ctx);
      const keys = itemsInOrder(body)
        .map(({ item }) => item)
        .filter((i) => i.options.isLookupQuestion || i.options.isPrimaryKey);
      if (keys.length === 0) continue;
      const where = this.store.where(req.project_id, s.id, filterModel.parse({}), scope);
      // The primary key, else the first lookup question, identifies and orders the profiles.
      const primary = keys.find((k) => k.options.isPrimaryKey);
      const page = await this.store.lookupPage(
        where,
        [...(primary ? [primary] : []), ...keys.filter((k) => k !== primary)].map((k) => k.id),
        q,
        limit,
        offset,
      );
      const answersOf = new Map<string, Record<string, string>>(page.ids.map((id) => [id, {}]));
      for (const r of page.rows) answersOf.get(r.response_id)![String(r.item_id)] = r.value;
      lookups.push({
        schema_id: s.id,
        name: s.name,
        items: keys.map((k) => ({
          item_id: k.id,
          name: k.name,
          code_name: k.codeName,
          primary_key: k.options.isPrimaryKey === true,
        })),
        count: page.count,
        responses: [...answersOf].map(([response_id, answers]) => {
          return {
            response_id,
            key: primary ? (answers[String(primary.id)] ?? null) : null,
            display_name: keys
              .map((k) => answers[String(k.id)])
              .filter(Boolean)
              .join(' · '),
            answers,
          };
        }),
      });
    }
    return { payload_json: JSON.stringify({ results: lookups, q, limit, offset }) };
  }

  private async level(src: Source, where: Where, timing: TimingColumn) {
    const r = await src.level(where, timing);
    const iso = (t: string | null | undefined) => (t ? `${t.replace(' ', 'T')}Z` : null);
    return { total_filtered_responses: Number(r?.n ?? 0), first_response: iso(r?.first), last_response: iso(r?.last) };
  }

  /**
   * The statistics of many items with one query per kind (numbers, choices, dates, counts), so that a whole form
   * costs a handful of scans rather than one or two per question. Geotags (points) are left to item().
   */
  private async items(list: Item[], body: SchemaBody, shape: Shape): Promise<Map<number, Record<string, unknown>>> {
    const out = new Map<number, Record<string, unknown>>();
    const ids = (pick: (i: Item) => boolean) => list.filter(pick).map((i) => i.id);
    const numeric = ids((i) => NUMERIC.has(i.type));
    const choice = ids((i) => CHOICES.has(i.type));
    const dates = ids((i) => i.type === 'date');
    const rest = ids((i) => !NUMERIC.has(i.type) && !CHOICES.has(i.type) && i.type !== 'date' && i.type !== 'geotag');
    // The aggregates read every kind's value counts in one query.
    await shape.src.prepare?.(shape.srcWhere, [
      ...numeric,
      ...choice,
      ...dates,
      ...rest,
      ...ids((i) => i.type === 'geotag'),
    ]);
    if (numeric.length > 0) {
      const rows = await shape.src.numberStats(shape.srcWhere, numeric);
      const stats = new Map(rows.map((r) => [Number(r.item_id), numberStats(r)]));
      const whole = new Set(list.filter((i) => NUMERIC.has(i.type) && !i.options.allowDecimal).map((i) => i.id));
      const histograms = await this.histograms(shape.src, stats, shape.srcWhere, shape.buckets, whole);
      for (const id of numeric) {
        const st =
          stats.get(id) ??
          numberStats({ count: 0, sum: 0, avg: null, min: null, max: null, stddev: null, var: null, q: [] });
        const h = histograms.get(id);
        out.set(id, { stats: st, histogram: h?.bins ?? [], ...(h?.integer ? { integer_bins: true } : {}) });
      }
    }
    if (choice.length > 0) {
      // Per item: the answered count and a map of choice -> count in one pass.
      const rows = await shape.src.choiceCounts(shape.srcWhere, choice);
      const byItem = new Map(rows.map((r) => [Number(r.item_id), r]));
      for (const id of choice) {
        const r = byItem.get(id);
        const counts = new Map((r?.m[0] ?? []).map((c, i) => [Number(c), Number(r?.m[1][i] ?? 0)]));
        const item = list.find((i) => i.id === id)!;
        const answers = liveChoices(item, body).map((c) => ({
          choice_id: c.id,
          name: c.name,
          code_name: c.codeName,
          count: counts.get(c.id) ?? 0,
        }));
        out.set(id, { stats: { count: Number(r?.answered ?? 0) }, answers });
      }
    }
    if (dates.length > 0) {
      const series = await shape.src.dateSeries(shape.srcWhere, dates);
      for (const id of dates) {
        const mine = series.filter((x) => Number(x.item_id) === id);
        const count = mine.reduce((n, x) => n + Number(x.count), 0);
        out.set(id, {
          stats: { count, min: mine[0]?.date ?? null, max: mine.at(-1)?.date ?? null },
          series: mine.slice(0, 5000).map((x) => ({ date: x.date, count: Number(x.count) })),
        });
      }
    }
    if (rest.length > 0) {
      const rows = await shape.src.answerCounts(shape.srcWhere, rest);
      const byItem = new Map(rows.map((r) => [Number(r.item_id), Number(r.count)]));
      for (const id of rest) out.set(id, { stats: { count: byItem.get(id) ?? 0 } });
    }
    return out;
  }

  /**
   * Histograms of round-width bins (domain/charts.ts niceBins: 1, 2 or 5 × 10^k, whole widths for whole numbers)
   * from each item's minimum to its maximum, for all the items in one grouped query (store's histogramBins). A bin is
   * [lower, upper), the last one holding the maximum; `integer`: the answers are whole numbers and so are the bins.
   */
  private async histograms(
    src: Source,
    stats: Map<number, NumberStats>,
    where: Where,
    buckets: number,
    whole: Set<number>,
  ) {
    const out = new Map<number, { integer: boolean; bins: { lower: number; upper: number; count: number }[] }>();
    const ranged = [...stats].filter(([, s]) => s.count > 0 && s.min !== null && s.max !== null);
    if (ranged.length === 0) return out;
    const plans = ranged.map(([id, s]) =>
      niceBins(s.min!, s.max!, buckets, whole.has(id) && Number.isInteger(s.min) && Number.isInteger(s.max)),
    );
    const rows = await src.histogramBins(
      where,
      ranged.map(([id]) => id),
      plans.map((b) => b.lo),
      plans.map((b) => b.width),
      Math.max(...plans.map((b) => b.n)),
    );
    ranged.forEach(([id], k) => {
      const { lo, width, n, integer } = plans[k]!;
      const counts = new Array<number>(n).fill(0);
      for (const r of rows) if (Number(r.item_id) === id) counts[Math.min(n - 1, Number(r.bin))]! += Number(r.count);
      const edge = (b: number) => Number((lo + b * width).toPrecision(12));
      out.set(id, { integer, bins: counts.map((count, b) => ({ lower: edge(b), upper: edge(b + 1), count })) });
    });
    return out;
  }

  /** A geotag question: its count and the points for the map of responses (all up to MAP_POINTS, an even sample beyond). */
  private async geotag(item: Item, shape: Shape) {
    const count = await shape.src.geotagCount(shape.srcWhere, item.id);
    const points = await this.store.geotagPoints(
      shape.where,
      item.id,
      Math.max(1, Math.ceil(count / MAP_POINTS)),
      MAP_POINTS,
    );
    return { stats: { count }, points: points.map((p) => [p.lng, p.lat]) };
  }

  /** The item's results per group of the comparison (site, group, team, collector, a choice question, a period). */
  private async compared(item: Item, body: SchemaBody, shape: Shape) {
    const c = shape.comparison!;
    if (NUMERIC.has(item.type)) {
      const rows = await shape.src.comparedNumbers(shape.srcWhere, c, item.id);
      return rows.map((r) => ({ key: r.key, stats: numberStats(r) }));
    }
    if (CHOICES.has(item.type)) {
      const rows = await shape.src.comparedChoices(shape.srcWhere, c, item.id);
      const keys = [...new Set(rows.map((r) => r.key))];
      const live = liveChoices(item, body);
      return keys.map((key) => ({
        key,
        answers: live.map(({ id }) => ({
          choice_id: id,
          count: Number(rows.find((r) => r.key === key && Number(r.choice) === id)?.count ?? 0),
        })),
      }));
    }
    const rows = await shape.src.comparedCounts(shape.srcWhere, c, item.id);
    return rows.map((r) => ({ key: r.key, stats: { count: Number(r.count) } }));
  }
}
