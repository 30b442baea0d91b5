// The performance view (spec 001 §2): per collector and per site the responses, completed ones, the average and
// median time from start to completion, the first and last; and the responses over time by day, week or month.
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
  minutes,
  percent,
  RowsTable,
  ViewFilters,
  when,
  type Column,
  type ViewFilterState,
} from './ViewParts';
import { usePerformanceQuery, type Performance } from './viewsApi';

const PAGE = 50;
const PERIODS = ['day', 'week', 'month'] as const;

function seriesFigure(data: Performance, names: { responses: string; completed: string }): Figure {
  const x = data.series.map((s) => s.period);
  return {
    data: [
      { type: 'bar', name: names.responses, x, y: data.series.map((s) => s.responses), marker: { color: '#5da83d' } },
      { type: 'bar', name: names.completed, x, y: data.series.map((s) => s.completed), marker: { color: '#2f6f9f' } },
    ],
    layout: {
      barmode: 'group',
      margin: { l: 40, r: 10, t: 10, b: 60 },
      legend: { orientation: 'h' },
      xaxis: { type: 'date' },
      yaxis: { rangemode: 'tozero' },
    },
    width: null,
    series: 2,
  };
}

export function PerformancePage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const [filters, setFilters] = useState<ViewFilterState>({});
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>('day');
  const [page, setPage] = useState(1);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const { data, error, isFetching } = usePerformanceQuery({
    projectId: project.id,
    filters: filtersBody(filters),
    period,
    page,
    page_size: PAGE,
    time_zone: timeZone,
  });
  const figure = useMemo(
    () => data && seriesFigure(data, { responses: t('views.responses'), completed: t('views.completed') }),
    [data, t],
  );
  const columns = (zero: string): Column[] => [
    ...countColumns(t, zero),
    {
      key: 'rate',
      label: t('views.performance.completedRate'),
      cell: (r) => percent(r.responses > 0 ? (100 * r.completed) / r.responses : null),
      numeric: true,
    },
    { key: 'avg', label: t('views.performance.avgDuration'), cell: (r) => minutes(t, r.avg_duration_s), numeric: true },
    {
      key: 'median',
      label: t('views.performance.medianDuration'),
      cell: (r) => minutes(t, r.median_duration_s),
      numeric: true,
    },
    { key: 'first', label: t('views.first'), cell: (r) => when(r.first_response) },
    { key: 'last', label: t('views.last'), cell: (r) => when(r.last_response) },
  ];
  return (
    <section className="view-page" data-testid="performance-view" aria-busy={isFetching}>
      <h2>{t('project.sections.performance')}</h2>
      <ViewFilters
        project={project}
        keys={['site', 'group', 'team', 'collector', 'createdBy']}
        value={filters}
        onChange={(f) => {
          setFilters(f);
          setPage(1);
        }}
      />
      {error && <p className="banner error">{errorMessage(error)}</p>}
      {data && (
        <>
          <dl className="figures">
            <div>
              <dt>{t('views.responses')}</dt>
              <dd>{formatInteger(data.totals.responses)}</dd>
            </div>
            <div>
              <dt>{t('views.completed')}</dt>
              <dd>{formatInteger(data.totals.completed)}</dd>
            </div>
            <div>
              <dt>{t('views.collectors')}</dt>
              <dd>{formatInteger(data.totals.collectors)}</dd>
            </div>
          </dl>
          <section className="card" data-testid="performance-over-time">
            <div className="row">
              <h2>{t('views.performance.overTime')}</h2>
              <label>
                {t('views.performance.period')}{' '}
                <select
                  data-testid="performance-period"
                  value={period}
                  onChange={(e) => setPeriod(e.target.value as (typeof PERIODS)[number])}
                >
                  {PERIODS.map((p) => (
                    <option key={p} value={p}>
                      {t(`views.performance.periods.${p}`)}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            {data.series_truncated && <p className="muted">{t('views.performance.truncated')}</p>}
            {data.series.length > 0 ? (
              figure && <Chart figure={figure} testId="performance-chart" />
            ) : (
              <p className="muted">{t('views.empty')}</p>
            )}
          </section>
          <RowsTable
            title={t('views.performance.byCollector')}
            testId="performance-by-collector"
            table={data.by_collector}
            page={page}
            pageSize={PAGE}
            onPage={setPage}
            columns={columns(t('results.anonymous'))}
          />
          <RowsTable
            title={t('views.performance.bySite')}
            testId="performance-by-site"
            table={data.by_site}
            page={page}
            pageSize={PAGE}
            onPage={setPage}
            columns={columns(t('results.noSite'))}
          />
        </>
      )}
    </section>
  );
}
