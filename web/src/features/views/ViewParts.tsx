// What the three views share: the filter set (spec 001 §2: site, group, team, collector, created by; tracking: site,
// group, team), the tables of rows per site, collector, group or team (paged on the server), and small formatters.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatDateTime, formatInteger, formatNumber } from '../../i18n/format';
import type { Project } from '../projects/types';
import { PeoplePicker } from '../results/PeoplePicker';
import type { ViewRow, ViewTable } from './viewsApi';

export type FilterKey = 'site' | 'group' | 'team' | 'collector' | 'createdBy';
export type ViewFilterState = Partial<Record<FilterKey, number>>;

/** The filter set as the API takes it: a list per filter chosen. */
export const filtersBody = (f: ViewFilterState) =>
  Object.fromEntries(Object.entries(f).flatMap(([k, v]) => (v ? [[k, [v]]] : [])));

export function ViewFilters({
  project,
  keys,
  value,
  onChange,
  children,
}: {
  project: Project;
  keys: readonly FilterKey[];
  value: ViewFilterState;
  onChange: (f: ViewFilterState) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  // Groups and teams narrow to the site and group chosen; people are searched on the server (PeoplePicker).
  const lists: Record<'site' | 'group' | 'team', { id: number; name: string }[]> = {
    site: project.sites ?? [],
    group: (project.groups ?? []).filter((g) => !value.site || g.site === value.site),
    team: (project.teams ?? []).filter((tm) => !value.group || tm.group === value.group),
  };
  return (
    <fieldset className="view-filters" data-testid="view-filters">
      <legend>{t('views.filters.label')}</legend>
      {keys.map((k) =>
        k === 'collector' || k === 'createdBy' ? (
          <PeoplePicker
            key={k}
            projectId={project.id}
            label={t(`views.filters.${k}`)}
            testId={`view-filter-${k}`}
            emptyLabel={t('views.filters.all')}
            value={value[k] ? String(value[k]) : ''}
            onChange={(v) => onChange({ ...value, [k]: v === '' ? undefined : Number(v) })}
          />
        ) : (
          <label key={k}>
            {t(`views.filters.${k}`)}
            <select
              data-testid={`view-filter-${k}`}
              value={value[k] ?? ''}
              onChange={(e) => {
                const next = { ...value, [k]: e.target.value === '' ? undefined : Number(e.target.value) };
                // A group or team outside the new site or group is dropped.
                if (k === 'site') delete next.group;
                if (k === 'site' || k === 'group') delete next.team;
                onChange(next);
              }}
            >
              <option value="">{t('views.filters.all')}</option>
              {lists[k].map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          </label>
        ),
      )}
      {children}
    </fieldset>
  );
}

export const when = (v: string | null | undefined) => (v ? formatDateTime(v) : '—');
export const minutes = (t: TFunction, s: number | null | undefined) =>
  s === null || s === undefined
    ? '—'
    : t('views.minutes', { value: formatNumber(s / 60, { maximumFractionDigits: 1 }) });
export const percent = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${formatNumber(v, { maximumFractionDigits: 1 })} %`;

export interface Column {
  key: string;
  label: string;
  cell: (r: ViewRow) => ReactNode;
  numeric?: boolean;
}

/** A table of rows, scrolling sideways on a phone, with the server's pages below it. */
export function RowsTable({
  title,
  table,
  columns,
  page,
  pageSize,
  onPage,
  testId,
}: {
  title: string;
  table: ViewTable;
  columns: Column[];
  page: number;
  pageSize: number;
  onPage: (p: number) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(table.count / pageSize));
  return (
    <section className="card view-table" data-testid={testId}>
      <h2>{title}</h2>
      <div className="table-scroll">
        <table className="result-table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} className={c.numeric ? 'num' : undefined}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.results.map((r) => (
              <tr key={r.id}>
                {columns.map((c) => (
                  <td key={c.key} className={c.numeric ? 'num' : undefined}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <div className="row pager">
          <button type="button" className="link" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t('views.previous')}
          </button>
          <span>{t('views.page', { page: formatInteger(page), pages: formatInteger(pages) })}</span>
          <button type="button" className="link" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {t('views.next')}
          </button>
        </div>
      )}
    </section>
  );
}

/**
 * The first columns of every table: the name (or #id when the project does not name it) and the counts. Row 0 is
 * what no site holds, or for collectors the responses of collection links (user 0): `zero` names it.
 */
export function countColumns(t: TFunction, zero?: string): Column[] {
  return [
    { key: 'name', label: t('views.name'), cell: (r) => r.name || (r.id === 0 && zero ? zero : `#${r.id}`) },
    { key: 'responses', label: t('views.responses'), cell: (r) => formatInteger(r.responses), numeric: true },
    { key: 'completed', label: t('views.completed'), cell: (r) => formatInteger(r.completed), numeric: true },
  ];
}
