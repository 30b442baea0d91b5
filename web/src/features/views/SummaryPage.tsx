// The summary view (spec 001 §2): responses in all, completed, in progress and deleted, the first and last, the
// responses per site, and the advanced results flagged for the project summary against their thresholds.
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatInteger, formatNumber } from '../../i18n/format';
import { errorMessage } from '../errors/messages';
import type { Project } from '../projects/types';
import { countColumns, filtersBody, RowsTable, ViewFilters, when, type ViewFilterState } from './ViewParts';
import { useSummaryQuery } from './viewsApi';

const PAGE = 50;

export function SummaryPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const [filters, setFilters] = useState<ViewFilterState>({});
  const [page, setPage] = useState(1);
  const { data, error, isFetching } = useSummaryQuery({
    projectId: project.id,
    filters: filtersBody(filters),
    page,
    page_size: PAGE,
  });
  const figures = data
    ? ([
        ['responses', formatInteger(data.totals.responses)],
        ['completed', formatInteger(data.totals.completed)],
        ['inProgress', formatInteger(data.totals.in_progress)],
        ['deleted', formatInteger(data.totals.deleted)],
        ['collectors', formatInteger(data.totals.collectors)],
        ['sites', formatInteger(data.totals.sites)],
      ] as const)
    : [];
  return (
    <section className="view-page" data-testid="summary-view" aria-busy={isFetching}>
      <h2>{t('project.sections.summary')}</h2>
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
          <dl className="figures" data-testid="summary-figures">
            {figures.map(([k, v]) => (
              <div key={k}>
                <dt>{t(`views.${k}`)}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          <p className="muted" data-testid="summary-span">
            {t('views.first')}: {when(data.totals.first_response)} · {t('views.last')}:{' '}
            {when(data.totals.last_response)}
          </p>
          {data.totals.responses === 0 && <p className="muted">{t('views.empty')}</p>}
          {data.advanced_results.length > 0 && (
            <section className="card" data-testid="summary-advanced">
              <h2>{t('views.summary.advanced')}</h2>
              <ul className="advanced-list">
                {data.advanced_results.map((a) => (
                  <li key={a.id} className={`threshold ${a.status}`} data-testid="summary-advanced-result">
                    <strong>{a.name}</strong>{' '}
                    <span className="value">{a.value === null ? (a.error ?? '—') : formatNumber(a.value)}</span>{' '}
                    <span className="status">{t(`views.summary.status.${a.status}`)}</span>
                    {(a.threshold_value_lower !== null || a.threshold_value_upper !== null) && (
                      <span className="muted">
                        {' '}
                        {t('views.summary.thresholds', {
                          lower: a.threshold_value_lower === null ? '—' : formatNumber(a.threshold_value_lower),
                          upper: a.threshold_value_upper === null ? '—' : formatNumber(a.threshold_value_upper),
                        })}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <RowsTable
            title={t('views.summary.bySite')}
            testId="summary-by-site"
            table={data.by_site}
            page={page}
            pageSize={PAGE}
            onPage={setPage}
            columns={[
              ...countColumns(t, t('results.noSite')),
              {
                key: 'collectors',
                label: t('views.collectors'),
                cell: (r) => formatInteger(r.collectors),
                numeric: true,
              },
              { key: 'activity', label: t('views.lastActivity'), cell: (r) => when(r.last_activity) },
            ]}
          />
        </>
      )}
    </section>
  );
}
