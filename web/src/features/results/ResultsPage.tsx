// The results screen (spec 001 §2 project/{id}/results/..., §4 Results, §9): the levels of the form, the filter bar,
// chart or table mode, a comparison, the map of responses and sites, and the items, loaded through a queue a few at
// a time so that the first charts show while the rest load.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import { isQuestion, itemsInOrder, type Item, type SchemaBody } from '@fieldwork/sampler';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { LazyMap } from '../../components/LazyMap';
import type { MapPoint } from '../../components/MapView';
import { useSchemaQuery } from '../builder/builderApi';
import type { Project } from '../projects/types';
import { ExportMenu } from './ExportMenu';
import { FilterBar } from './FilterBar';
import { localized, type KeyNames } from './figure';
import { formatResultDate } from './format';
import { loadPlotly } from './Chart';
import { ItemCard, NO_RESULTS } from './ItemCard';
import { useItemResultsQuery, useLookupsQuery, type ItemsArgs, type Level } from './resultsApi';
import { filterModelOf, resultsActions, type Comparison } from './resultsSlice';

/** Items per results request of the queue. */
export const QUEUE_CHUNK = 6;
const LOAD_FAILED = 'Sorry. We could not load the results for this item.';
const COMPARISON_FAILED = 'Sorry. We could not load the requested comparison.';
const PERIODS = ['day', 'week', 'month', 'quarter', 'year'];

export function ResultsPage() {
  const project = useOutletContext<Project>();
  const params = useParams();
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.results);
  const schemas = project.sampler_schemas ?? [];
  const schemaId = Number(params.schema ?? schemas[0]?.id ?? 0);
  const profile =
    params.lookupSchema && params.profileId
      ? { schemaId: Number(params.lookupSchema), responseId: params.profileId }
      : undefined;
  const view = profile ? 'profile' : 'results';
  const blockId = params.block ? Number(params.block) : 0;
  const { data: doc, error: schemaError } = useSchemaQuery(schemaId, { skip: schemaId <= 0 });
  const body: SchemaBody | undefined = doc;
  const items = useMemo(() => (body ? resultItems(body, blockId) : []), [body, blockId]);
  const filters = useMemo(() => filterModelOf(state.filters), [state.filters]);
  const comparison =
    state.comparison ??
    (project.project_type === 'trend'
      ? { by: 'period' as const, period: project.trend_series_options?.time_particle || 'month' }
      : null);
  const names = useKeyNames(project, body);
  const [levels, setLevels] = useState<Level | null>(null);
  useEffect(() => () => void dispatch(resultsActions.reset()), [dispatch, project.id]);
  // plotly is the largest download of this screen: fetch it alongside the first results requests, not after them.
  useEffect(() => {
    if (state.mode === 'chart') void loadPlotly().catch(() => undefined);
  }, [state.mode]);

  if (schemas.length === 0) return <p className="muted">{NO_RESULTS}</p>;
  if (schemaError) return <p className="banner error">{NO_RESULTS}</p>;
  const base = {
    projectId: project.id,
    schemaId,
    filters,
    comparison,
    timeZone: state.timeZone,
    ...(profile ? { profile } : {}),
  };
  const prefix = `/project/${project.id}/results${profile ? `/${profile.schemaId}/profile/${encodeURIComponent(profile.responseId)}` : ''}`;
  const chunks: number[][] = [];
  for (let i = 0; i < items.length; i += QUEUE_CHUNK) chunks.push(items.slice(i, i + QUEUE_CHUNK).map((x) => x.id));
  const geotags = items.filter((x) => x.type === 'geotag').map((x) => x.id);
  return (
    <section className="results" data-testid="results-page">
      <nav className="level-tabs">
        {schemas.map((s) => (
          <Link key={s.id} to={`${prefix}/schema/${s.id}`} className={s.id === schemaId ? 'active' : ''}>
            {s.name}
          </Link>
        ))}
      </nav>
      <div className="results-toolbar">
        <ProfilePicker projectId={project.id} profile={profile} schemaId={schemaId} />
        <ExportMenu projectId={project.id} schemaId={schemaId} profile={profile?.responseId} />
        <div className="mode" role="group" aria-label="Chart or table">
          {(['chart', 'table'] as const).map((m) => (
            <button
              key={m}
              type="button"
              className={state.mode === m ? 'active' : ''}
              aria-pressed={state.mode === m}
              onClick={() => dispatch(resultsActions.setMode(m))}
              data-testid={`mode-${m}`}
            >
              {m === 'chart' ? 'Chart' : 'Table'}
            </button>
          ))}
        </div>
        <label>
          Compare by{' '}
          <select
            data-testid="compare"
            value={comparisonValue(comparison)}
            onChange={(e) => dispatch(resultsActions.setComparison(parseComparison(e.target.value)))}
          >
            <option value="">Nothing</option>
            <option value="site">Site</option>
            <option value="group">Group</option>
            <option value="team">Team</option>
            <option value="collector">Collector</option>
            {PERIODS.map((p) => (
              <option key={p} value={`period:${p}`}>
                {p[0]!.toUpperCase() + p.slice(1)}
              </option>
            ))}
            {items
              .filter((x) => x.type === 'choice' || x.type === 'binary')
              .map((x) => (
                <option key={x.id} value={`question:${x.id}`}>
                  {localized(x.name, 'en', x.codeName).slice(0, 45)}
                </option>
              ))}
          </select>
        </label>
        <label>
          Time zone{' '}
          <select value={state.timeZone} onChange={(e) => dispatch(resultsActions.setTimeZone(e.target.value))}>
            {timeZones().map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
        </label>
      </div>
      {state.exportList.length > 0 && (
        <p className="muted" data-testid="export-list">
          {state.exportList.length} {state.exportList.length === 1 ? 'question' : 'questions'} in the export list{' '}
          <button type="button" className="link" onClick={() => dispatch(resultsActions.setExportList([]))}>
            Clear
          </button>
        </p>
      )}
      <FilterBar
        project={project}
        items={items}
        choiceName={(id) => localized(body?.entities.choices[id]?.name, 'en', String(id))}
      />
      {levels && (
        <p className="level-summary" data-testid="level-summary">
          <b>{levels.total_filtered_responses}</b> responses
          {levels.first_response && <> · first {formatResultDate(levels.first_response)}</>}
          {levels.last_response && <> · last {formatResultDate(levels.last_response)}</>}
        </p>
      )}
      <ResultsMap project={project} args={{ ...base, itemIds: geotags, comparison: null }} mode={state.mode} />
      <ItemQueue
        chunks={chunks}
        base={base}
        project={project}
        names={names}
        mode={state.mode}
        view={view}
        period={comparison?.by === 'period' ? comparison.period : undefined}
        onLevel={setLevels}
      />
    </section>
  );
}

/** The questions of a schema (or of one block) shown in results, in form order. */
export function resultItems(body: SchemaBody, blockId: number): Item[] {
  return itemsInOrder(body)
    .filter(
      ({ item, blockId: b, topBlockId }) =>
        isQuestion(item) &&
        item.options.showInResults !== false &&
        (blockId === 0 || b === blockId || topBlockId === blockId),
    )
    .map(({ item }) => item);
}

const comparisonValue = (c: Comparison | null) =>
  !c ? '' : c.by === 'period' ? `period:${c.period}` : c.by === 'question' ? `question:${c.item_id}` : c.by;

function parseComparison(v: string): Comparison | null {
  if (v === '') return null;
  const [by, arg] = v.split(':');
  if (by === 'period') return { by, period: arg ?? 'month' };
  if (by === 'question') return { by, item_id: Number(arg) };
  return { by: by as 'site' };
}

function timeZones(): string[] {
  const all = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
}

/** Names of comparison keys: sites, groups, teams, collectors, a compared question's choices. */
function useKeyNames(project: Project, body: SchemaBody | undefined): KeyNames {
  return useCallback(
    (key: string) => {
      const id = Number(key);
      const found =
        project.sites?.find((s) => s.id === id)?.name ??
        project.groups?.find((g) => g.id === id)?.name ??
        project.teams?.find((t) => t.id === id)?.name ??
        project.projectuser_set?.find((u) => u.user_id === id)?.display_name ??
        (body ? localized(body.entities.choices[key]?.name, 'en') : '');
      return found || key;
    },
    [project, body],
  );
}

/** Loads chunk after chunk: the next request starts when the one before has answered. */
function ItemQueue(props: {
  chunks: number[][];
  base: Omit<ItemsArgs, 'itemIds'>;
  project: Project;
  names: KeyNames;
  mode: 'chart' | 'table';
  view: 'results' | 'profile';
  period?: string;
  onLevel: (l: Level | null) => void;
}) {
  const [done, setDone] = useState(0);
  const key = JSON.stringify([props.chunks, props.base]);
  useEffect(() => setDone(0), [key]);
  const settled = useCallback((i: number) => setDone((d) => Math.max(d, i + 1)), []);
  return (
    <div className="result-items" data-testid="result-items">
      {props.chunks.slice(0, done + 1).map((ids, i) => (
        <Chunk
          key={`${i}:${ids.join(',')}`}
          index={i}
          args={{ ...props.base, itemIds: ids }}
          {...props}
          onSettled={settled}
        />
      ))}
    </div>
  );
}

function Chunk({
  index,
  args,
  project,
  names,
  mode,
  view,
  period,
  onSettled,
  onLevel,
}: {
  index: number;
  args: ItemsArgs;
  project: Project;
  names: KeyNames;
  mode: 'chart' | 'table';
  view: 'results' | 'profile';
  period?: string;
  onSettled: (i: number) => void;
  onLevel: (l: Level | null) => void;
}) {
  const dispatch = useAppDispatch();
  // currentData: nothing of the previous filters or profile shows while the new answer loads.
  const { currentData: data, error, isFetching } = useItemResultsQuery(args);
  useEffect(() => {
    if (!isFetching && (data || error)) onSettled(index);
  }, [isFetching, data, error, index, onSettled]);
  useEffect(() => {
    if (index === 0 && data) onLevel(data.levels.find((l) => l.schema_id === args.schemaId) ?? data.levels[0] ?? null);
  }, [index, data, onLevel]);
  useEffect(() => {
    // A failed comparison is cleared (spec 001 §4).
    if (error && args.comparison) dispatch(resultsActions.setComparison(null));
  }, [error, args.comparison, dispatch]);
  if (error) {
    const detail =
      'data' in error && typeof (error.data as { detail?: unknown })?.detail === 'string'
        ? (error.data as { detail: string }).detail
        : null;
    return (
      <p className="banner error" data-testid="results-error">
        {detail && 'status' in error && error.status !== 500
          ? `${detail}. Please click the browser's back button.`
          : args.comparison
            ? COMPARISON_FAILED
            : LOAD_FAILED}
      </p>
    );
  }
  if (!data) return <div className="loading result-card" aria-busy="true" />;
  return (
    <>
      {args.itemIds.map((id) => {
        const item = data.items.find((x) => x.item_id === id && x.schema_id === args.schemaId);
        if (!item)
          return (
            <p key={id} className="muted">
              {NO_RESULTS}
            </p>
          );
        return (
          <ItemCard
            key={id}
            item={item}
            projectId={project.id}
            projectType={project.project_type}
            mode={mode}
            view={view}
            names={names}
            period={period}
            shareable={view === 'results'}
            shared={{ filters: args.filters, comparison: args.comparison, timeZone: args.timeZone }}
          />
        );
      })}
    </>
  );
}

/**
 * The map waits for the charts: deck.gl is nearly as big as plotly, and on a slow network fetching both at once
 * delays the first chart by seconds. In table mode it comes at once.
 */
function useMapAfterCharts(mode: 'chart' | 'table'): boolean {
  const [ready, setReady] = useState(mode === 'table');
  useEffect(() => {
    if (mode === 'table') return setReady(true);
    let live = true;
    const show = () => live && setReady(true);
    void loadPlotly().then(
      () =>
        'requestIdleCallback' in window ? window.requestIdleCallback(show, { timeout: 2000 }) : setTimeout(show, 0),
      show,
    );
    return () => {
      live = false;
    };
  }, [mode]);
  return ready;
}

/** Responses (the points of the form's geotag questions) and the project's sites on one map. */
function ResultsMap({ project, args, mode }: { project: Project; args: ItemsArgs; mode: 'chart' | 'table' }) {
  const mapReady = useMapAfterCharts(mode);
  const { currentData: data } = useItemResultsQuery(args, { skip: args.itemIds.length === 0 });
  const points = useMemo(() => {
    const out: MapPoint[] = [];
    for (const s of project.sites ?? []) {
      if (s.geotag)
        out.push({
          id: s.id,
          name: s.name,
          longitude: s.geotag.coordinates[0],
          latitude: s.geotag.coordinates[1],
          color: s.frontend_color || '5da83d',
        });
    }
    let n = 0;
    for (const item of data?.items ?? [])
      for (const [lng, lat] of item.points ?? [])
        out.push({ id: -++n, name: 'Response', longitude: lng, latitude: lat, color: '2f6690' });
    return out;
  }, [project.sites, data]);
  if (points.length === 0) return null;
  return (
    <div className="results-map" data-testid="results-map">
      {mapReady ? <LazyMap points={points} height={300} /> : <div className="map loading" style={{ height: 300 }} />}
    </div>
  );
}

/** Choosing a profile (a response of a schema with lookup questions) switches to the profile view. */
function ProfilePicker({
  projectId,
  profile,
  schemaId,
}: {
  projectId: number;
  profile?: { schemaId: number; responseId: string };
  schemaId: number;
}) {
  const { data } = useLookupsQuery(projectId);
  const navigate = useNavigate();
  const options = (data?.results ?? []).flatMap((l) =>
    l.responses.map((r) => ({ value: `${l.schema_id}/${r.response_id}`, label: r.display_name || r.response_id })),
  );
  if (options.length === 0) return null;
  return (
    <label>
      Profile{' '}
      <select
        data-testid="profile"
        value={profile ? `${profile.schemaId}/${profile.responseId}` : ''}
        onChange={(e) => {
          const v = e.target.value;
          if (v === '') return void navigate(`/project/${projectId}/results/schema/${schemaId}`);
          const [lookup, ...rest] = v.split('/');
          void navigate(
            `/project/${projectId}/results/${lookup}/profile/${encodeURIComponent(rest.join('/'))}/schema/${schemaId}`,
          );
        }}
      >
        <option value="">All responses</option>
        {options.slice(0, 2000).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label.slice(0, 45)}
          </option>
        ))}
      </select>
    </label>
  );
}
