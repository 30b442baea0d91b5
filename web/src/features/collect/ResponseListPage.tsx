// The responses of a form (spec 001 §2 {schemaId}/list): what waits on this device first, then the server's, a page
// at a time through response-chunk/filter with the spec's filters (site, collector, date range, status) and sorts.
// The filters live in the address, so a reload or a shared link keeps them.
import { mayDo } from '@fieldwork/access';
import { useEffect, useMemo } from 'react';
import { Link, useOutletContext, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { formatDate, formatInteger } from '../../i18n/format';
import { errorMessage } from '../errors/messages';
import type { Project } from '../projects/types';
import { collectApi, PAGE_SIZES, SORTS, useResponsePageQuery, type ListQuery, type Sort } from './collectApi';
import { OfflineReady, useFormsOnDevice } from './FormEditor';
import { onLocalChange } from './localStore';
import { QueuePanel } from './QueuePanel';
import { answersSummary } from './summary';
import { startSync } from './sync';
import { useLocalResponses } from './useLocalResponses';

const int = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);
/** A yyyy-mm-dd date of the person's day as unix seconds: its start, or its end. */
const day = (v: string | null, end: boolean) => {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const d = new Date(`${v}T00:00:00`);
  return Number.isNaN(d.getTime()) ? undefined : Math.floor(d.getTime() / 1000) + (end ? 86_399 : 0);
};

function useListQuery(
  projectId: number,
  schemaId: number,
): [ListQuery, (patch: Record<string, string | undefined>) => void, URLSearchParams] {
  const [params, setParams] = useSearchParams();
  const query: ListQuery = {
    projectId,
    schemaId,
    page: Math.max(1, int(params.get('page')) ?? 1),
    pageSize: PAGE_SIZES.find((s) => s === int(params.get('size'))) ?? 50,
    site: int(params.get('site')),
    collector: int(params.get('collector')),
    status:
      params.get('status') === 'completed' || params.get('status') === 'open'
        ? (params.get('status') as 'completed' | 'open')
        : 'any',
    sort: (SORTS as readonly string[]).includes(params.get('sort') ?? '')
      ? (params.get('sort') as Sort)
      : 'time_updated',
    from: day(params.get('from'), false),
    to: day(params.get('to'), true),
  };
  const set = (patch: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    // Another filter starts again from the first page.
    if (!('page' in patch)) next.delete('page');
    setParams(next, { replace: true });
  };
  return [query, set, params];
}

export function ResponseListPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const schemaId = Number(useParams().schemaId);
  const dispatch = useAppDispatch();
  const [query, set, params] = useListQuery(project.id, schemaId);
  const { data, error, isFetching, refetch } = useResponsePageQuery(query);
  const local = useLocalResponses(project.id);
  const unsent = local.unsent.filter((r) => r.sampler_schema === schemaId);
  // A record below one of these needs a level below this form's (the deepest level's have none).
  const level = (project.sampler_schemas ?? []).find((s) => s.id === schemaId)?.level ?? 0;
  const hasLevelBelow = (project.sampler_schemas ?? []).some((s) => s.level === level + 1);
  useEffect(() => startSync(), []);
  const forms = useFormsOnDevice((project.sampler_schemas ?? []).map((s) => s.id));
  // When something of this device reaches the server, the page is read again (at most once a second).
  useEffect(() => {
    let timer: number | undefined;
    const stop = onLocalChange(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void refetch(), 1000);
    });
    return () => {
      stop();
      window.clearTimeout(timer);
    };
  }, [refetch]);
  const sites = project.sites ?? [];
  const siteName = useMemo(() => new Map(sites.map((s) => [s.id, s.name])), [sites]);
  const seesEveryone = mayDo(project.permissions, 'readAllResponses');
  const collectors = (project.projectuser_set ?? []).filter((u) => u.collector || u.data_manager || u.project_owner);
  const pages = data ? Math.max(1, Math.ceil(data.count / query.pageSize)) : 1;

  return (
    <section className="response-list" data-testid="response-list">
      <header className="list-head">
        <h2>{t('collect.responses')}</h2>
        <Link to={`/project/${project.id}/collect/newrecord`} className="button primary" data-testid="new-record">
          {t('collect.newRecord')}
        </Link>
      </header>
      <QueuePanel projectId={project.id} unsent={unsent} />
      <OfflineReady ready={forms.ready} />
      <details className="filters card" open={params.size > 0 && !(params.size === 1 && params.has('page'))}>
        <summary>{t('collect.list.filters')}</summary>
        <div className="filter-grid">
          <label>
            {t('collect.list.site')}
            <select value={query.site ?? ''} onChange={(e) => set({ site: e.target.value })} data-testid="filter-site">
              <option value="">{t('collect.list.all')}</option>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          {seesEveryone && collectors.length > 0 && (
            <label>
              {t('collect.list.collector')}
              <select
                value={query.collector ?? ''}
                onChange={(e) => set({ collector: e.target.value })}
                data-testid="filter-collector"
              >
                <option value="">{t('collect.list.all')}</option>
                {collectors.map((u) => (
                  <option key={u.user_id} value={u.user_id}>
                    {/* Only those who manage users see others' emails; a person without a name is numbered. */}
                    {u.display_name || u.email || `${t('collect.list.collector')} ${u.user_id}`}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            {t('collect.list.status')}
            <select
              value={query.status}
              onChange={(e) => set({ status: e.target.value === 'any' ? undefined : e.target.value })}
              data-testid="filter-status"
            >
              <option value="any">{t('collect.list.all')}</option>
              <option value="completed">{t('collect.completed')}</option>
              <option value="open">{t('collect.open')}</option>
            </select>
          </label>
          <label>
            {t('collect.list.from')}
            <input
              type="date"
              value={params.get('from') ?? ''}
              onChange={(e) => set({ from: e.target.value })}
              data-testid="filter-from"
            />
          </label>
          <label>
            {t('collect.list.to')}
            <input
              type="date"
              value={params.get('to') ?? ''}
              onChange={(e) => set({ to: e.target.value })}
              data-testid="filter-to"
            />
          </label>
          <label>
            {t('collect.list.sort')}
            <select
              value={query.sort}
              onChange={(e) => set({ sort: e.target.value === 'time_updated' ? undefined : e.target.value })}
              data-testid="sort"
            >
              {SORTS.map((s) => (
                <option key={s} value={s}>
                  {t(`collect.list.sorts.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('collect.list.pageSize')}
            <select
              value={query.pageSize}
              onChange={(e) => set({ size: e.target.value === '50' ? undefined : e.target.value })}
              data-testid="page-size"
            >
              {PAGE_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        </div>
      </details>
      {error && (
        <p className="banner error" data-testid="list-error">
          {errorMessage(error)}
        </p>
      )}
      {data && (
        <>
          <p className="muted" data-testid="list-count">
            {t('collect.list.count', { count: data.count, formatted: formatInteger(data.count) })}
            {isFetching ? ` · ${t('app.loading')}` : ''}
          </p>
          <ul className="cards">
            {data.results.map((r) => (
              <li
                key={r.response_id}
                className="response-card"
                data-testid="response-row"
                data-response-id={r.response_id}
              >
                <div className="card-main">
                  <strong>{answersSummary(r.data)}</strong>
                  <div className="muted">
                    {formatDate(r[query.sort] ?? r.time_updated)}
                    {r.site_id !== null && siteName.has(r.site_id) ? ` · ${siteName.get(r.site_id)}` : ''}
                  </div>
                  <div>{r.completed ? t('collect.completed') : t('collect.open')}</div>
                </div>
                <div className="card-actions">
                  <Link
                    className="button"
                    to={`/project/${project.id}/collect/${encodeURIComponent(r.response_id)}/view`}
                  >
                    {t('collect.view')}
                  </Link>
                  <Link
                    className="button"
                    to={`/project/${project.id}/collect/${encodeURIComponent(r.response_id)}/edit`}
                  >
                    {t('collect.edit')}
                  </Link>
                  {hasLevelBelow && (
                    <Link
                      className="button"
                      to={`/project/${project.id}/collect/${encodeURIComponent(r.response_id)}/newrecord`}
                    >
                      {t('collect.addChild')}
                    </Link>
                  )}
                </div>
              </li>
            ))}
          </ul>
          {data.count === 0 && <p className="muted">{t('collect.none')}</p>}
          {pages > 1 && (
            <nav className="pager" aria-label={t('collect.list.pages')}>
              <button
                type="button"
                disabled={query.page <= 1}
                onClick={() => set({ page: String(query.page - 1) })}
                data-testid="page-prev"
              >
                {t('collect.list.previous')}
              </button>
              <span data-testid="page-of">
                {t('collect.list.pageOf', { page: formatInteger(query.page), pages: formatInteger(pages) })}
              </span>
              <button
                type="button"
                disabled={query.page >= pages}
                onClick={() => set({ page: String(query.page + 1) })}
                data-testid="page-next"
              >
                {t('collect.list.next')}
              </button>
            </nav>
          )}
        </>
      )}
      {!data && !error && <div className="loading">{t('app.loading')}</div>}
      <button
        type="button"
        className="link"
        onClick={() => dispatch(collectApi.util.invalidateTags([{ type: 'Response', id: `project-${project.id}` }]))}
      >
        {t('collect.list.refresh')}
      </button>
    </section>
  );
}
