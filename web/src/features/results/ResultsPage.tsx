// The results screen (spec 001 §2 project/{id}/results/..., §4 Results, §9): the levels of the form, the filter bar,
// chart or table mode, a comparison, the map of responses and sites, and the items, loaded through a queue a few at
// a time so that the first charts show while the rest load.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isQuestion, itemsInOrder, type Item, type SchemaBody } from '@fieldwork/sampler';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Combobox } from '../../components/Combobox';
import { LazyMap } from '../../components/LazyMap';
import { useDebounced } from '../../components/useDebounced';
import type { MapPoint } from '../../components/MapView';
import { useSchemaQuery } from '../builder/builderApi';
import type { Project } from '../projects/types';
import { AdvancedResults } from './AdvancedResults';
import { ExportMenu } from './ExportMenu';
import { FilterBar } from './FilterBar';
import { localized } from './figure';
import { groupName, type GroupNames } from './labels';
import { loadPlotly } from './Chart';
import { ItemCard } from './ItemCard';
import { LevelSummary } from './LevelSummary';
import { PROJECT_TYPE } from './format';
import {
  AGGREGATORS,
  useCollectorsQuery,
  useItemResultsQuery,
  useLookupsQuery,
  type ItemsArgs,
  type Level,
} from './resultsApi';
import { filterModelOf, resultsActions, type Comparison } from './resultsSlice';

/** Items per results request of the queue. */
export const QUEUE_CHUNK = 6;
const PERIODS = ['day', 'week', 'month', 'quarter', 'year'] as const;
const COMPARE_BY = ['site', 'group', 'team', 'collector'] as const;

export function ResultsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.slice(0, 2);
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
    (project.project_type === PROJECT_TYPE.trend
      ? { by: 'period' as const, period: project.trend_series_options?.time_particle || 'month' }
      : null);
  // The value per item and group: the trend series' own aggregator (spec 000 trend_series_options), else the mean.
  const [aggregator, setAggregator] = useState<string>(() => {
    const own = project.trend_series_options?.aggregator ?? '';
    return project.project_type === PROJECT_TYPE.trend && (AGGREGATORS as readonly string[]).includes(own)
      ? own
      : 'avg';
  });
  const names = useGroupNames(project, body, lang, comparison?.by === 'collector');
  const [levels, setLevels] = useState<Level | null>(null);
  useEffect(() => () => void dispatch(resultsActions.reset()), [dispatch, project.id]);
  // plotly is the largest download of this screen: fetch it alongside the first results requests, not after them.
  useEffect(() => {
    if (state.mode === 'chart') void loadPlotly().catch(() => undefined);
  }, [state.mode]);

  if (schemas.length === 0) return <p className="muted">{t('known.noResults')}</p>;
  if (schemaError) return <p className="banner error">{t('known.noResults')}</p>;
  const base = {
    projectId: project.id,
    schemaId,
    filters,
    comparison,
    timeZone: state.timeZone,
    aggregator,
    ...(profile ? { profile } : {}),
  };
  const prefix = `/project/${project.id}/results${profile ? `/${profile.schemaId}/profile/${encodeURIComponent(profile.responseId)}` : ''}`;
  const chunks: number[][] = [];
  for (let i = 0; i < items.length; i += QUEUE_CHUNK) chunks.push(items.slice(i, i + QUEUE_CHUNK).map((x) => x.id));
  const geotags = items.filter((x) => x.type === 'geotag').map((x) => x.id);
  return (
    <section className="results" data-testid="results-page">
      <nav className="level-tabs" aria-label={t('results.levels')}>
        {schemas.map((s) => (
          <Link key={s.id} to={`${prefix}/schema/${s.id}`} className={s.id === schemaId ? 'active' : ''}>
            {s.name}
          </Link>
        ))}
      </nav>
      <div className="results-toolbar">
        <ProfilePicker projectId={project.id} profile={profile} schemaId={schemaId} />
        <ExportMenu projectId={project.id} schemaId={schemaId} profile={profile?.responseId} />
        <div className="mode" role="group" aria-label={t('results.chartOrTable')}>
          {(['chart', 'table'] as const).map((m) => (
            <button
              key={m}
              type="button"
              className={state.mode === m ? 'active' : ''}
              aria-pressed={state.mode === m}
              onClick={() => dispatch(resultsActions.setMode(m))}
              data-testid={`mode-${m}`}
            >
              {t(`results.${m}`)}
            </button>
          ))}
        </div>
        <label>
          {t('results.compareBy')}{' '}
          <select
            data-testid="compare"
            value={comparisonValue(comparison)}
            onChange={(e) => dispatch(resultsActions.setComparison(parseComparison(e.target.value)))}
          >
            <option value="">{t('results.nothing')}</option>
            {COMPARE_BY.map((by) => (
              <option key={by} value={by}>
                {t(`results.by.${by}`)}
              </option>
            ))}
            {PERIODS.map((p) => (
              <option key={p} value={`period:${p}`}>
                {t(`results.periods.${p}`)}
              </option>
            ))}
            {items
              .filter((x) => x.type === 'choice' || x.type === 'binary')
              .map((x) => (
                <option key={x.id} value={`question:${x.id}`}>
                  {localized(x.name, lang, x.codeName).slice(0, 45)}
                </option>
              ))}
          </select>
        </label>
        <label>
          {t('results.aggregator')}{' '}
          <select data-testid="aggregator" value={aggregator} onChange={(e) => setAggregator(e.target.value)}>
            {AGGREGATORS.map((a) => (
              <option key={a} value={a}>
                {t(`results.stats.${a}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('results.timeZone')}{' '}
          <select value={state.timeZone} onChange={(e) => dispatch(resultsActions.setTimeZone(e.target.value))}>
            {timeZones().map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
        </label>
      </div>
      {state.exportList.length > 0 && (
        <p className="muted" data-testid="export-list">
          {t('results.exportList', { count: state.exportList.length })}{' '}
          <button type="button" className="link" onClick={() => dispatch(resultsActions.setExportList([]))}>
            {t('results.clear')}
          </button>
        </p>
      )}
      <FilterBar
        project={project}
        items={items}
        choiceName={(id) => localized(body?.entities.choices[id]?.name, lang, String(id))}
      />
      {levels && <LevelSummary level={levels} />}
      {/* Advanced results read the top level's answers: shown with its results, through the same filters. */}
      {view === 'results' && schemaId === schemas[0]?.id && (
        <AdvancedResults project={project} filters={filters} schemaId={schemaId} readOnly />
      )}
      <ResultsMap project={project} args={{ ...base, itemIds: geotags, comparison: null }} mode={state.mode} />
      <ItemQueue
        chunks={chunks}
        base={base}
        project={project}
        names={names}
        mode={state.mode}
        view={view}
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

/** People named for a comparison by collector beyond the project's embedded users (the most the API gives a page). */
const PEOPLE_NAMED = 100;

/**
 * Names of comparison groups, each from its comparison's kind (labels.ts): sites, groups and teams of the project,
 * collectors (its users, then the people with responses, asked for only while comparing by collector), the choices of
 * the compared question, periods.
 */
function useGroupNames(project: Project, body: SchemaBody | undefined, lang: string, collectors: boolean): GroupNames {
  const { t } = useTranslation();
  const { data: people } = useCollectorsQuery(
    { projectId: project.id, q: '', limit: PEOPLE_NAMED },
    { skip: !collectors },
  );
  return useMemo(() => {
    const sources = {
      sites: project.sites,
      groups: project.groups,
      teams: project.teams,
      users: project.projectuser_set,
      people: new Map((people?.results ?? []).filter((p) => p.name).map((p) => [p.id, p.name])),
      choice: (id: number) => {
        const c = body?.entities.choices[id];
        return c ? localized(c.name, lang, c.codeName) : undefined;
      },
    };
    return (by, key) => groupName(by, key, sources, t);
  }, [project, body, lang, people, t]);
}

/** Loads chunk after chunk: the next request starts when the one before has answered. */
function ItemQueue(props: {
  chunks: number[][];
  base: Omit<ItemsArgs, 'itemIds'>;
  project: Project;
  names: GroupNames;
  mode: 'chart' | 'table';
  view: 'results' | 'profile';
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
  onSettled,
  onLevel,
}: {
  index: number;
  args: ItemsArgs;
  project: Project;
  names: GroupNames;
  mode: 'chart' | 'table';
  view: 'results' | 'profile';
  onSettled: (i: number) => void;
  onLevel: (l: Level | null) => void;
}) {
  const { t } = useTranslation();
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
          ? t('results.backButton', { detail })
          : args.comparison
            ? t('known.comparisonFailed')
            : t('known.loadFailed')}
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
              {t('known.noResults')}
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
            shareable={view === 'results'}
            shared={{
              filters: args.filters,
              comparison: args.comparison,
              timeZone: args.timeZone,
              aggregator: args.aggregator,
            }}
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
  const { t } = useTranslation();
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
        out.push({ id: -++n, name: t('results.response'), longitude: lng, latitude: lat, color: '2f6690' });
    return out;
  }, [project.sites, data, t]);
  if (points.length === 0) return null;
  return (
    <div className="results-map" data-testid="results-map">
      {mapReady ? <LazyMap points={points} height={300} /> : <div className="map loading" style={{ height: 300 }} />}
    </div>
  );
}

/** Labels of profiles chosen in this tab, by value: the view that opens may not have the chosen one in its page. */
const chosenLabels = new Map<string, string>();

/**
 * Choosing a profile (a response of a schema with lookup questions) switches to the profile view. The server searches
 * the profiles as the user types (debounced) and answers a page of them.
 */
function ProfilePicker({
  projectId,
  profile,
  schemaId,
}: {
  projectId: number;
  profile?: { schemaId: number; responseId: string };
  schemaId: number;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), 250);
  // The server searches and pages; the previous page stays up while the next one loads.
  const { data } = useLookupsQuery({ projectId, q });
  const navigate = useNavigate();
  const options = (data?.results ?? []).flatMap((l) =>
    l.responses.map((r) => ({ value: `${l.schema_id}/${r.response_id}`, label: r.display_name || r.response_id })),
  );
  const total = (data?.results ?? []).reduce((n, l) => n + (l.count ?? l.responses.length), 0);
  // No form of the project has a lookup question: nothing to pick.
  if (!data || data.results.length === 0 || (q === '' && total === 0)) return null;
  return (
    <Combobox
      testId="profile"
      label={t('results.profile')}
      options={options}
      onQueryChange={setQuery}
      total={total}
      limit={options.length}
      {...(profile
        ? { chosenLabel: chosenLabels.get(`${profile.schemaId}/${profile.responseId}`) ?? profile.responseId }
        : {})}
      emptyLabel={t('results.allResponses')}
      value={profile ? `${profile.schemaId}/${profile.responseId}` : ''}
      onChange={(v) => {
        const label = options.find((o) => o.value === v)?.label;
        if (label !== undefined) chosenLabels.set(v, label);
        if (v === '') return void navigate(`/project/${projectId}/results/schema/${schemaId}`);
        const [lookup, ...rest] = v.split('/');
        void navigate(
          `/project/${projectId}/results/${lookup}/profile/${encodeURIComponent(rest.join('/'))}/schema/${schemaId}`,
        );
      }}
    />
  );
}
