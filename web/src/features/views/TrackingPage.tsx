// The tracking view (spec 001 §2): responses against the targets (the project's goal, each site's), per site, group
// and team, over a permanent date range (the project's whole time unless narrowed).
import { useMemo, useState } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../i18n/format';
import { errorMessage } from '../errors/messages';
import type { Project } from '../projects/types';
import { Chart } from '../results/Chart';
import type { Figure } from '../results/figure';
import {
  countColumns,
  filtersBody,
  percent,
  RowsTable,
  ViewFilters,
  type Column,
  type ViewFilterState,
} from './ViewParts';
import { useTrackingQuery, type Tracking, type ViewRow } from './viewsApi';

const PAGE = 50;

/** A bar of progress (capped at the bar's end; the figure says how far past it). */
function Progress({ row }: { row: ViewRow }) {
  const { t } = useTranslation();
  if (row.percent === null) return <span className="muted">{t('views.tracking.noTarget')}</span>;
  return (
    <span className="progress">
      <meter min={0} max={100} value={Math.min(100, row.percent)} aria-label={t('views.tracking.progress')} />{' '}
      {percent(row.percent)}
    </span>
  );
}

function progressFigure(data: Tracking, label: string): Figure {
  const sites = data.by_site.results.filter((r) => r.target > 0);
  return {
    data: [
      {
        type: 'bar',
        orientation: 'h',
        name: label,
        y: sites.map((s) => s.name),
        x: sites.map((s) => s.percent ?? 0),
        marker: { color: sites.map((s) => ((s.percent ?? 0) >= 100 ? '#5da83d' : '#2f6f9f')) },
      },
    ],
    layout: {
      margin: { l: 100, r: 10, t: 10, b: 40 },
      xaxis: { ticksuffix: ' %', rangemode: 'tozero' },
      shapes: [{ type: 'line', x0: 100, x1: 100, yref: 'paper', y0: 0, y1: 1, line: { dash: 'dot', color: '#888' } }],
      height: Math.max(200, 40 * sites.length + 60),
    },
    width: null,
    series: 1,
  };
}

export function TrackingPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const [filters, setFilters] = useState<ViewFilterState>({});
  const [range, setRange] = useState({ start: '', end: '' });
  const [page, setPage] = useState(1);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const inverted = range.start !== '' && range.end !== '' && range.end < range.start;
  const { data, error, isFetching } = useTrackingQuery(
    {
      projectId: project.id,
      filters: filtersBody(filters),
      start_date: range.start,
      end_date: range.end,
      page,
      page_size: PAGE,
      time_zone: timeZone,
    },
    { skip: inverted },
  );
  const figure = useMemo(() => data && progressFigure(data, t('views.tracking.progress')), [data, t]);
  const columns: Column[] = [
    ...countColumns(t),
    {
      key: 'target',
      label: t('views.tracking.target'),
      cell: (r) => (r.target > 0 ? formatInteger(r.target) : '—'),
      numeric: true,
    },
    { key: 'progress', label: t('views.tracking.progress'), cell: (r) => <Progress row={r} /> },
    {
      key: 'expected',
      label: t('views.tracking.expected'),
      cell: (r) => (r.expected === null ? '—' : formatInteger(r.expected)),
      numeric: true,
    },
  ];
  const plain = countColumns(t);
  return (
    <section className="view-page" data-testid="tracking-view" aria-busy={isFetching}>
      <h2>{t('project.sections.tracking')}</h2>
      <ViewFilters
        project={project}
        keys={['site', 'group', 'team']}
        value={filters}
        onChange={(f) => {
          setFilters(f);
          setPage(1);
        }}
      >
        {/* The permanent date filter: always shown, never removed; empty bounds are the project's whole time. */}
        <label>
          {t('views.filters.from')}
          <input
            type="date"
            data-testid="tracking-start"
            value={range.start}
            onChange={(e) => setRange({ ...range, start: e.target.value })}
          />
        </label>
        <label>
          {t('views.filters.to')}
          <input
            type="date"
            data-testid="tracking-end"
            value={range.end}
            onChange={(e) => setRange({ ...range, end: e.target.value })}
          />
        </label>
        {(range.start || range.end) && (
          <button type="button" className="link" onClick={() => setRange({ start: '', end: '' })}>
            {t('views.filters.wholeProject')}
          </button>
        )}
      </ViewFilters>
      {inverted && <p className="banner error">{t('views.tracking.inverted')}</p>}
      {error && <p className="banner error">{errorMessage(error)}</p>}
      {data && !inverted && (
        <>
          <section className="card" data-testid="tracking-project">
            <h2>{t('views.tracking.project')}</h2>
            <dl className="figures">
              <div>
                <dt>{t('views.responses')}</dt>
                <dd>{formatInteger(data.project.responses)}</dd>
              </div>
              <div>
                <dt>{t('views.tracking.target')}</dt>
                <dd>{data.project.target > 0 ? formatInteger(data.project.target) : '—'}</dd>
              </div>
              <div>
                <dt>{t('views.tracking.progress')}</dt>
                <dd>
                  <Progress row={data.project} />
                </dd>
              </div>
            </dl>
            <p className="muted">{t('views.tracking.hint')}</p>
          </section>
          {figure && data.by_site.results.some((r) => r.target > 0) && (
            <section className="card">
              <Chart figure={figure} testId="tracking-chart" />
            </section>
          )}
          <RowsTable
            title={t('views.tracking.bySite')}
            testId="tracking-by-site"
            table={data.by_site}
            page={page}
            pageSize={PAGE}
            onPage={setPage}
            columns={columns}
          />
          <RowsTable
            title={t('views.tracking.byGroup')}
            testId="tracking-by-group"
            table={data.by_group}
            page={page}
            pageSize={PAGE}
            onPage={setPage}
            columns={plain}
          />
          <RowsTable
            title={t('views.tracking.byTeam')}
            testId="tracking-by-team"
            table={data.by_team}
            page={page}
            pageSize={PAGE}
            onPage={setPage}
            columns={plain}
          />
        </>
      )}
    </section>
  );
}
