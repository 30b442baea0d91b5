// One item's results: its title (cut to 100), its chart or table, and sharing (spec 001 §9). Used by the results
// screen and by the public item pages.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../i18n/format';
import { Chart } from './Chart';
import { boxFigure, figureOf, groupsOf, localized } from './figure';
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
import { groupName, type GroupNames } from './labels';
import type { ComparisonGroup, GroupStats, ItemResult, NumberStats, SharedView } from './resultsApi';
import { errorMessage } from '../errors/messages';
import { useShareItemMutation } from './resultsApi';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { resultsActions } from './resultsSlice';

/** The spec's text when an item has no results (shown in the user's language: known.noResults). */
export const NO_RESULTS = 'Sorry. We could not find results for this item.';

export interface ItemCardProps {
  item: ItemResult;
  projectId?: number;
  projectType: string;
  mode: 'chart' | 'table' | 'both';
  view?: 'results' | 'profile';
  /** Names of comparison groups; without them (a public item page) ids are named by kind, choices from the item. */
  names?: GroupNames;
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
  names: given,
  shareable,
  shared,
}: ItemCardProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.slice(0, 2);
  const names = useMemo<GroupNames>(() => given ?? ownNames(item, lang), [given, item, lang]);
  const title = cut(localized(item.name, lang, item.code_name), LABEL_LIMITS.itemTitle);
  const kind = chartKind(item, projectType, view);
  const figure = useMemo(() => figureOf(item, kind, lang, names, title), [item, kind, lang, names, title]);
  const box = useMemo(() => (kind === 'histogram' ? boxFigure(item, title) : null), [item, kind, title]);
  const forced = forcedMode(item.type, view);
  const showChart = figure !== null && forced === null && mode !== 'table';
  // A text question shows its words and latest answers; compared, its answers per group too.
  const compared = groupsOf(item).length > 0;
  const showTable = (kind !== 'text' || compared) && (mode !== 'chart' || forced !== null || figure === null);
  const capped = item.comparison?.capped;
  return (
    <article className="result-card" data-testid={`result-${item.item_id}`} data-kind={kind}>
      <header>
        <h3 title={localized(item.name, lang, item.code_name)}>{title}</h3>
        <span className="muted">
          {t('results.answers', { count: item.stats.count, formatted: formatInteger(item.stats.count) })}
        </span>
        {shareable && <ExportToggle item={item} />}
        {shareable && projectId !== undefined && (
          <ShareButton key={JSON.stringify(shared ?? {})} projectId={projectId} item={item} shared={shared} />
        )}
      </header>
      <StatTiles item={item} />
      {capped && (
        <p className="muted" data-testid={`capped-${item.item_id}`}>
          {t(item.comparison?.by.by === 'period' ? 'results.cappedPeriods' : 'results.capped', {
            shown: formatInteger(capped.limit),
            total: formatInteger(capped.groups),
          })}
        </p>
      )}
      {showChart && figure && <Chart figure={figure} testId={`chart-${item.item_id}`} />}
      {showChart && box && <Chart figure={box} testId={`box-${item.item_id}`} />}
      {kind === 'text' && <TextResults item={item} />}
      {showTable && <ResultTable item={item} lang={lang} names={names} />}
    </article>
  );
}

/**
 * The headline figures of an item: its answers (a whole number, grouped per language), and for numbers the value of
 * the aggregator asked for, the median and the range; for dates the first and last.
 */
export function StatTiles({ item }: { item: ItemResult }) {
  const { t } = useTranslation();
  const s = item.stats;
  const f = money(item);
  const tiles: [string, string][] = [[t('results.stats.count'), formatInteger(s.count)]];
  if (['number', 'currency', 'calculated'].includes(item.type) && s.count > 0) {
    const agg = item.aggregator && item.aggregator !== 'count' ? item.aggregator : 'avg';
    const v = agg === item.aggregator ? item.value : s.avg;
    tiles.push([t(`results.stats.${agg}`), agg === 'var' ? formatNumber(v as number) : f(v as number | null)]);
    if (s.quartiles) tiles.push([t('results.stats.median'), f(s.quartiles[1])]);
    tiles.push(
      [t('results.stats.min'), f(s.min as number | null)],
      [t('results.stats.max'), f(s.max as number | null)],
    );
  }
  if (item.type === 'date' && s.count > 0)
    tiles.push(
      [t('results.stats.first'), formatResultDate(s.min as string | null)],
      [t('results.stats.last'), formatResultDate(s.max as string | null)],
    );
  return (
    <dl className="stat-tiles" data-testid={`tiles-${item.item_id}`}>
      {tiles.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A text question: the words found in most of its answers and its latest answers. */
function TextResults({ item }: { item: ItemResult }) {
  const { t } = useTranslation();
  const words = item.words ?? [];
  const samples = item.samples ?? [];
  if (words.length === 0 && samples.length === 0) return <p className="muted">{t('known.noResults')}</p>;
  return (
    <div className="text-results" data-testid={`text-${item.item_id}`}>
      {item.words_every && <p className="muted">{t('results.wordsSampled', { every: item.words_every })}</p>}
      {words.length > 0 && (
        <table className="result-table">
          <thead>
            <tr>
              <th>{t('results.word')}</th>
              <th>{t('results.answersWithWord')}</th>
            </tr>
          </thead>
          <tbody>
            {words.map((w) => (
              <tr key={w.word}>
                <td>{w.word}</td>
                <td>{formatInteger(w.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {samples.length > 0 && (
        <>
          <h4>{t('results.latestAnswers')}</h4>
          <ul className="samples">
            {samples.map((x, i) => (
              <li key={i}>
                {cut(x.text, 200)} <span className="muted">{formatResultDate(x.time)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Adds the item to the results export list (spec 001 §4: matched by question and schema), or takes it out. */
function ExportToggle({ item }: { item: ItemResult }) {
  const { t } = useTranslation();
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
      {t('results.export')}
    </label>
  );
}

/** A share link of the item as it is shown now (its filters, comparison and time zone); a new view, a new link. */
function ShareButton({ projectId, item, shared }: { projectId: number; item: ItemResult; shared?: SharedView }) {
  const { t } = useTranslation();
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
        {t('results.share')}
      </button>
      {open && (
        <span className="share-links" data-testid={`share-${item.item_id}`}>
          {error && (
            <span className="error">
              {'status' in error && error.status === 400 ? errorMessage(error) : t('known.noResults')}
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

const STAT_ROWS = ['count', 'sum', 'avg', 'min', 'max', 'stddev', 'var'] as const satisfies (keyof NumberStats)[];

function statCells(item: ItemResult, s: GroupStats | undefined): string[] {
  const f = money(item);
  const pair = (p: [number, number] | null | undefined) => (p ? `${f(p[0])} – ${f(p[1])}` : '—');
  return [
    ...STAT_ROWS.map((k) =>
      k === 'count' ? formatInteger(s?.count ?? 0) : k === 'var' ? formatNumber(s?.var) : f(s?.[k] as number | null),
    ),
    s?.quartiles ? s.quartiles.map((q) => f(q)).join(' / ') : '—',
    pair(s?.ci95),
    pair(s?.ci99),
  ];
}

export function ResultTable({ item, lang, names }: { item: ItemResult; lang: string; names: GroupNames }) {
  const { t } = useTranslation();
  const groups = groupsOf(item);
  const by = item.comparison?.by;
  const label = (g: ComparisonGroup) => (by ? names(by, g.key) : g.key);
  const head = (s: string, key?: string) => (
    <th key={key} title={s}>
      {cut(s, LABEL_LIMITS.columnHeader)}
    </th>
  );
  if (item.stats.count === 0 && groups.length === 0) return <p className="muted">{t('known.noResults')}</p>;
  if (item.answers) {
    const total = Math.max(1, item.stats.count);
    return (
      <table className="result-table">
        <thead>
          <tr>
            {head(t('results.choice'))}
            {groups.length === 0 ? (
              <>
                {head(t('results.responses'))}
                {head(t('results.percent'))}
              </>
            ) : (
              groups.map((g) => head(label(g), g.key))
            )}
          </tr>
        </thead>
        <tbody>
          {item.answers.map((a) => (
            <tr key={a.choice_id}>
              <td>{localized(a.name, lang, a.code_name)}</td>
              {groups.length === 0 ? (
                <>
                  <td>{formatInteger(a.count)}</td>
                  <td>{formatPercent((a.count / total) * 100)}</td>
                </>
              ) : (
                groups.map((g) => (
                  <td key={g.key}>{formatInteger(g.answers?.find((b) => b.choice_id === a.choice_id)?.count ?? 0)}</td>
                ))
              )}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (['number', 'currency', 'calculated'].includes(item.type)) {
    const labels = [...STAT_ROWS, 'quartiles', 'ci95', 'ci99'].map((k) => t(`results.stats.${k}`));
    const columns = groups.length > 0 ? groups.map((g) => statCells(item, g.stats)) : [statCells(item, item.stats)];
    return (
      <table className="result-table">
        {groups.length > 0 && (
          <thead>
            <tr>
              {head('')}
              {groups.map((g) => head(label(g), g.key))}
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
  if (groups.length > 0) {
    // Answers per group; a date question's first and last date per group when the results carry them.
    const dates = item.type === 'date' && groups.some((g) => g.stats?.min || g.stats?.max);
    return (
      <table className="result-table">
        <thead>
          <tr>
            {head('')}
            {head(t('results.stats.count'))}
            {dates && head(t('results.stats.first'))}
            {dates && head(t('results.stats.last'))}
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.key}>
              <th scope="row">{label(g)}</th>
              <td>{formatInteger(g.stats?.count ?? 0)}</td>
              {dates && <td>{formatResultDate(typeof g.stats?.min === 'string' ? g.stats.min : null)}</td>}
              {dates && <td>{formatResultDate(typeof g.stats?.max === 'string' ? g.stats.max : null)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  const rows: [string, string][] = [
    [t('results.stats.count'), formatInteger(item.stats.count)],
    ...(item.type === 'date'
      ? ([
          [t('results.stats.first'), formatResultDate(item.stats.min as string | null)],
          [t('results.stats.last'), formatResultDate(item.stats.max as string | null)],
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

/**
 * Group names where the screen gives none (a public item page cannot read the project or the form): ids named by
 * their kind, periods formatted, and the choices of the item itself when it is compared by its own question.
 */
function ownNames(item: ItemResult, lang: string): GroupNames {
  return (by, key) =>
    groupName(by, key, {
      choice: (id) => {
        if (by.by !== 'question' || by.item_id !== item.item_id) return undefined;
        const a = item.answers?.find((x) => x.choice_id === id);
        return a ? localized(a.name, lang, a.code_name) : undefined;
      },
    });
}
