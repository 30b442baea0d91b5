// Results of a project (spec 001 §3 Results payload, §9 aggregators): per schema, the filtered response count with
// the first and last response on the timing column, and per question its statistics from ClickHouse.
import { resultsScope } from '@fieldwork/access';
import type { common, forms, projects, results } from '@fieldwork/proto';
import {
  filterModel,
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
import { evaluateAdvanced } from './advanced.js';
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

type ProjectsClient = PromiseClient<typeof projects.ProjectsServiceService, projects.ProjectsServiceClient>;
type FormsClient = PromiseClient<typeof forms.FormsServiceService, forms.FormsServiceClient>;

const NUMERIC = new Set(['number', 'currency', 'calculated']);

const comparisonsModel = z
  .array(
    z
      .object({
        by: z.enum(COMPARE_BY),
        item_id: z.coerce.number().int().positive().optional(),
        period: z.enum(PERIODS).optional(),
      })
      .refine((c) => c.by !== 'question' || c.item_id !== undefined, {
        message: 'A comparison by question names its item_id.',
        path: ['item_id'],
      }),
  )
  .max(REQUEST_LIMITS.comparisonsPerQuery, LIMIT_MESSAGES.list(REQUEST_LIMITS.comparisonsPerQuery));

interface Shape {
  where: Where;
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

export class ResultsService {
  constructor(
    private readonly store: ResultsStore,
    private readonly projects: ProjectsClient,
    private readonly forms: FormsClient,
    /** CONTEXT_SIGNING_SECRET: a gateway's grant is used when it carries one (empty: never). */
    private readonly secret = '',
  ) {}

  private async scope(caller: common.Caller | undefined, projectId: number, ctx: CallContext): Promise<Scope> {
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
    const defs = (await this.projects.listAdvancedResults({ caller: req.caller, project_id: req.project_id }, ctx))
      .results;
    const body = JSON.parse(
      (await this.forms.getSchemaInternal({ schema_id: schema.id }, ctx)).body_json,
    ) as SchemaBody;
    const where = this.store.where(req.project_id, schema.id, filters, scope);
    const evaluated = await evaluateAdvanced(defs, body, async (itemIds) => {
      const out = new Map<number, number[]>();
      if (itemIds.length === 0) return out;
      // Numbers as they are; any other answer counts as 1.
      const rows = await this.store.answerValues(where, itemIds);
      for (const r of rows) out.set(Number(r.item_id), r.values.map(Number));
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
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results.filter(
      (s) => req.schema_id === 0 || s.id === req.schema_id,
    );
    if (schemas.length === 0) throw problems.invalidSchemaId();
    const profileIds = req.profile_response_id ? await this.profile(req, scope) : null;
    const levels = [];
    const items = [];
    for (const s of schemas) {
      const doc = await this.forms.getSchemaInternal({ schema_id: s.id }, ctx);
      const body = JSON.parse(doc.body_json) as SchemaBody;
      const where = this.store.restrict(this.store.where(req.project_id, s.id, filters, scope), profileIds);
      levels.push({ schema_id: s.id, name: s.name, level: s.level, ...(await this.level(where, timing)) });
      const wanted = itemsInOrder(body).filter(
        ({ item, blockId, topBlockId }) =>
          isQuestion(item) &&
          (req.block_id === 0 || blockId === req.block_id || topBlockId === req.block_id) &&
          (req.item_ids.length === 0 || req.item_ids.includes(item.id)),
      );
      const shape: Shape = {
        where: { sql: where.sql, params: { ...where.params, tz } },
        buckets: req.buckets || 10,
        tz,
        ...(comparisons[0] ? { comparison: this.store.comparison(comparisons[0], timing) } : {}),
      };
      // One query per kind of question for all the wanted items of that kind, then comparisons item by item.
      const bases = await this.items(
        wanted.map((w) => w.item),
        body,
        shape,
      );
      for (const { item } of wanted) {
        const base = bases.get(item.id) ?? (await this.geotag(item, shape));
        const comparison = shape.comparison
          ? { by: comparisons[0], groups: await this.compared(item, body, shape) }
          : null;
        items.push({ schema_id: s.id, item_id: item.id, type: item.type, ...labelsOf(item), ...base, comparison });
      }
    }
    const profile = req.profile_response_id
      ? { schema_id: req.profile_schema_id, response_id: req.profile_response_id, responses: profileIds?.length ?? 0 }
      : null;
    return {
      payload_json: JSON.stringify({
        items,
        levels,
        meta: { timing_column: timing, time_zone: tz, aggregator: 'count', processor: 'clickhouse' },
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

  /** The profiles to choose from: responses of the schemas with lookup or primary key questions, with those answers. */
  async lookups(req: results.ResultsRequest, ctx: CallContext): Promise<results.ResultsReply> {
    const scope = await this.scope(req.caller, req.project_id, ctx);
    const schemas = (await this.forms.listSchemas({ project_id: req.project_id }, ctx)).results.filter(
      (s) => req.schema_id === 0 || s.id === req.schema_id,
    );
    if (schemas.length === 0) throw problems.invalidSchemaId();
    const lookups = [];
    for (const s of schemas) {
      const body = JSON.parse((await this.forms.getSchemaInternal({ schema_id: s.id }, ctx)).body_json) as SchemaBody;
      const keys = itemsInOrder(body)
        .map(({ item }) => item)
        .filter((i) => i.options.isLookupQuestion || i.options.isPrimaryKey);
      if (keys.length === 0) continue;
      const where = this.store.where(req.project_id, s.id, filterModel.parse({}), scope);
      const rows = await this.store.lookupAnswers(
        where,
        keys.map((k) => k.id),
      );
      const byResponse = new Map<string, Record<string, string>>();
      for (const r of rows)
        byResponse.set(r.response_id, { ...byResponse.get(r.response_id), [String(r.item_id)]: r.value });
      const primary = keys.find((k) => k.options.isPrimaryKey);
      lookups.push({
        schema_id: s.id,
        name: s.name,
        items: keys.map((k) => ({
          item_id: k.id,
          name: k.name,
          code_name: k.codeName,
          primary_key: k.options.isPrimaryKey === true,
        })),
        responses: [...byResponse].map(([response_id, answers]) => ({
          response_id,
          key: primary ? (answers[String(primary.id)] ?? null) : null,
          display_name: keys
            .map((k) => answers[String(k.id)])
            .filter(Boolean)
            .join(' · '),
          answers,
        })),
      });
    }
    return { payload_json: JSON.stringify({ results: lookups }) };
  }

  private async level(where: Where, timing: TimingColumn) {
    const r = await this.store.level(where, timing);
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
    if (numeric.length > 0) {
      const rows = await this.store.numberStats(shape.where, numeric);
      const stats = new Map(rows.map((r) => [Number(r.item_id), numberStats(r)]));
      const histograms = await this.histograms(stats, shape.where, shape.buckets);
      for (const id of numeric) {
        const st =
          stats.get(id) ??
          numberStats({ count: 0, sum: 0, avg: null, min: null, max: null, stddev: null, var: null, q: [] });
        out.set(id, { stats: st, histogram: histograms.get(id) ?? [] });
      }
    }
    if (choice.length > 0) {
      // Per item: the answered count and a map of choice -> count in one pass.
      const rows = await this.store.choiceCounts(shape.where, choice);
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
      const series = await this.store.dateSeries(shape.where, dates);
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
      const rows = await this.store.answerCounts(shape.where, rest);
      const byItem = new Map(rows.map((r) => [Number(r.item_id), Number(r.count)]));
      for (const id of rest) out.set(id, { stats: { count: byItem.get(id) ?? 0 } });
    }
    return out;
  }

  /**
   * Histograms of equal-width bins between each item's minimum and maximum, for all the items in one grouped query
   * (store's histogramBins).
   */
  private async histograms(stats: Map<number, NumberStats>, where: Where, buckets: number) {
    const out = new Map<number, { lower: number; upper: number; count: number }[]>();
    const ranged = [...stats].filter(([, s]) => s.count > 0 && s.min !== null && s.max !== null);
    if (ranged.length === 0) return out;
    const lo = ranged.map(([, s]) => s.min!);
    const width = ranged.map(([, s]) => (s.max! > s.min! ? (s.max! - s.min!) / buckets : 1));
    const rows = await this.store.histogramBins(
      where,
      ranged.map(([id]) => id),
      lo,
      width,
      buckets,
    );
    ranged.forEach(([id, s], k) => {
      const single = s.max === s.min;
      const n = single ? 1 : buckets;
      const counts = new Array<number>(n).fill(0);
      for (const r of rows) if (Number(r.item_id) === id) counts[Math.min(n - 1, Number(r.bin))]! += Number(r.count);
      out.set(
        id,
        counts.map((count, b) => ({
          lower: lo[k]! + b * width[k]!,
          upper: single ? s.max! : b === n - 1 ? s.max! : lo[k]! + (b + 1) * width[k]!,
          count,
        })),
      );
    });
    return out;
  }

  /** A geotag question: its count and the points for the map of responses (all up to MAP_POINTS, an even sample beyond). */
  private async geotag(item: Item, shape: Shape) {
    const count = await this.store.geotagCount(shape.where, item.id);
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
      const rows = await this.store.comparedNumbers(shape.where, c, item.id);
      return rows.map((r) => ({ key: r.key, stats: numberStats(r) }));
    }
    if (CHOICES.has(item.type)) {
      const rows = await this.store.comparedChoices(shape.where, c, item.id);
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
    const rows = await this.store.comparedCounts(shape.where, c, item.id);
    return rows.map((r) => ({ key: r.key, stats: { count: Number(r.count) } }));
  }
}
