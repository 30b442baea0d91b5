// One item's results: its title (cut to 100), its chart or table, and sharing (spec 001 §9). Used by the results
// screen and by the public item pages.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from './Chart';
import { figureOf, localized, type KeyNames } from './figure';
import {
  chartKind,
  cut,
  forcedMode,
  formatCurrency,
  formatNumber,
  formatPercent,
  formatResultDate,
  LABEL_LIMITS,
} from './format';
import type { ItemResult, NumberStats, SharedView } from './resultsApi';
import { errorMessage } from '../errors/messages';
import { useShareItemMutation } from './resultsApi';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { resultsActions } from './resultsSlice';

export const NO_RESULTS = 'Sorry. We could not find results for this item.';

export interface ItemCardProps {
  item: ItemResult;
  projectId?: number;
  projectType: string;
  mode: 'chart' | 'table' | 'both';
  view?: 'results' | 'profile';
  names?: KeyNames;
  period?: string;
  shareable?: boolean;
  /** What a share link of the item answers (the link answers this view and no other). */
  shared?: SharedView;
}

export function ItemCard({
  item,
  projectId,
  projectType,
  mode,
  view = 'results',
  names = String,
  period,
  shareable,
  shared,
}: ItemCardProps) {
  const { i18n } = useTranslation();
  const lang = i18n.language.slice(0, 2);
  const title = cut(localized(item.name, lang, item.code_name), LABEL_LIMITS.itemTitle);
  const kind = chartKind(item, projectType, view);
  const figure = useMemo(
    () => figureOf(item, kind, lang, names, title, period),
    [item, kind, lang, names, title, period],
  );
  const forced = forcedMode(item.type, view);
  const showChart = figure !== null && forced === null && mode !== 'table';
  const showTable = mode !== 'chart' || forced !== null || figure === null;
  return (
    <article className="result-card" data-testid={`result-${item.item_id}`} data-kind={kind}>
      <header>
        <h3 title={localized(item.name, lang, item.code_name)}>{title}</h3>
        <span className="muted">
          {item.stats.count} {item.stats.count === 1 ? 'answer' : 'answers'}
        </span>
        {shareable && <ExportToggle item={item} />}
        {shareable && projectId !== undefined && (
          <ShareButton key={JSON.stringify(shared ?? {})} projectId={projectId} item={item} shared={shared} />
        )}
      </header>
      {showChart && figure && <Chart figure={figure} testId={`chart-${item.item_id}`} />}
      {showTable && <ResultTable item={item} lang={lang} names={names} />}
    </article>
  );
}

/** Adds the item to the results export list (spec 001 §4: matched by question and schema), or takes it out. */
function ExportToggle({ item }: { item: ItemResult }) {
  const dispatch = useAppDispatch();
  const key = { questionId: item.item_id, schemaId: item.schema_id };
  const listed = useAppSelector((s) =>
    s.results.exportList.some((e) => e.questionId === key.questionId && e.schemaId === key.schemaId),
  );
  return (
    <label className="export-toggle">
      <input
        type="checkbox"
        checked={listed}
        onChange={() =>
          dispatch(listed ? resultsActions.removeFromExportList(key) : resultsActions.addToExportList(key))
        }
      />{' '}
      Export
    </label>
  );
}

/** A share link of the item as it is shown now (its filters, comparison and time zone); a new view, a new link. */
function ShareButton({ projectId, item, shared }: { projectId: number; item: ItemResult; shared?: SharedView }) {
  const [share, { data, error, isLoading }] = useShareItemMutation();
  const [open, setOpen] = useState(false);
  const base = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <span className="share">
      <button
        type="button"
        className="link"
        disabled={isLoading}
        onClick={() => {
          setOpen(true);
          if (!data) void share({ projectId, schemaId: item.schema_id, itemId: item.item_id, view: shared });
        }}
      >
        Share
      </button>
      {open && (
        <span className="share-links" data-testid={`share-${item.item_id}`}>
          {error && (
            <span className="error">
              {'status' in error && error.status === 400 ? errorMessage(error) : NO_RESULTS}
            </span>
          )}
          {data &&
            (['item-chart', 'item-table', 'item-results'] as const).map((page) => (
              <a key={page} href={`${base}/${page}/${data.token}`} target="_blank" rel="noreferrer">
                {page}
              </a>
            ))}
        </span>
      )}
    </span>
  );
}

const money = (item: ItemResult) => (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : item.type === 'currency' ? formatCurrency(n, item.currency) : formatNumber(n);

const STAT_ROWS: [keyof NumberStats, string][] = [
  ['count', 'Count'],
  ['sum', 'Sum'],
  ['avg', 'Average'],
  ['min', 'Minimum'],
  ['max', 'Maximum'],
  ['stddev', 'Standard deviation'],
  ['var', 'Variance'],
];

function statCells(item: ItemResult, s: Partial<NumberStats> | undefined): string[] {
  const f = money(item);
  const pair = (p: [number, number] | null | undefined) => (p ? `${f(p[0])} – ${f(p[1])}` : '—');
  return [
    ...STAT_ROWS.map(([k]) =>
      k === 'count' ? String(s?.count ?? 0) : k === 'var' ? formatNumber(s?.var) : f(s?.[k] as number | null),
    ),
    s?.quartiles ? s.quartiles.map((q) => f(q)).join(' / ') : '—',
    pair(s?.ci95),
    pair(s?.ci99),
  ];
}

export function ResultTable({ item, lang, names }: { item: ItemResult; lang: string; names: KeyNames }) {
  const groups = item.comparison?.groups ?? [];
  const head = (s: string) => <th title={s}>{cut(s, LABEL_LIMITS.columnHeader)}</th>;
  if (item.stats.count === 0 && groups.length === 0) return <p className="muted">{NO_RESULTS}</p>;
  if (item.answers) {
    const total = Math.max(1, item.stats.count);
    return (
      <table className="result-table">
        <thead>
          <tr>
            {head('Choice')}
            {groups.length === 0 ? (
              <>
                {head('Responses')}
                {head('Percent')}
              </>
            ) : (
              groups.map((g) => <th key={g.key}>{cut(names(g.key), LABEL_LIMITS.columnHeader)}</th>)
            )}
          </tr>
        </thead>
        <tbody>
          {item.answers.map((a) => (
            <tr key={a.choice_id}>
              <td>{localized(a.name, lang, a.code_name)}</td>
              {groups.length === 0 ? (
                <>
                  <td>{a.count}</td>
                  <td>{formatPercent((a.count / total) * 100)}</td>
                </>
              ) : (
                groups.map((g) => (
                  <td key={g.key}>{g.answers?.find((b) => b.choice_id === a.choice_id)?.count ?? 0}</td>
                ))
              )}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (['number', 'currency', 'calculated'].includes(item.type)) {
    const labels = [...STAT_ROWS.map(([, l]) => l), 'Quartiles', '95% interval', '99% interval'];
    const columns = groups.length > 0 ? groups.map((g) => statCells(item, g.stats)) : [statCells(item, item.stats)];
    return (
      <table className="result-table">
        {groups.length > 0 && (
          <thead>
            <tr>
              {head('')}
              {groups.map((g) => (
                <th key={g.key}>{cut(names(g.key), LABEL_LIMITS.columnHeader)}</th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {labels.map((l, i) => (
            <tr key={l}>
              <th scope="row">{l}</th>
              {columns.map((c, j) => (
                <td key={j}>{c[i]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  const rows: [string, string][] =
    groups.length > 0
      ? groups.map((g) => [names(g.key), String(g.stats?.count ?? 0)])
      : [
          ['Count', String(item.stats.count)],
          ...(item.type === 'date'
            ? ([
                ['First', formatResultDate(item.stats.min as string | null)],
                ['Last', formatResultDate(item.stats.max as string | null)],
              ] as [string, string][])
            : []),
        ];
  return (
    <table className="result-table">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
