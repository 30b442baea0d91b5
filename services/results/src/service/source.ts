// The common face of the two ways a results request is answered (docs/results.md "Which path serves a request").
import type { ResultsStore, Where } from '../store/results.store.js';
import type { ViewsStore } from '../store/views.store.js';

/**
 * What answers the statistics of a results request: the scans of the answers' tables (ResultsStore) or the
 * aggregates (AggregatesStore), with the where each builds. The same rows either way.
 */
export type Source = {
  /** Reads at once what the statistics of `items` need, when the source can (the aggregates). */
  prepare?(where: Where, items: number[]): Promise<void>;
} & Pick<
  ResultsStore,
  | 'level'
  | 'numberStats'
  | 'histogramBins'
  | 'choiceCounts'
  | 'dateSeries'
  | 'answerCounts'
  | 'geotagCount'
  | 'comparison'
  | 'capped'
  | 'comparisonGroups'
  | 'comparisonTop'
  | 'comparedNumbers'
  | 'comparedChoices'
  | 'comparedCounts'
  | 'comparedDates'
>;

/**
 * What answers the figures of a view (summary, performance, tracking, the collector pickers): the scans of the
 * responses table (ViewsStore) or the aggregates (ViewAggregatesStore), with the where each builds. The same rows
 * either way.
 */
export type ViewSource = Pick<ViewsStore, 'where' | 'totals' | 'grouped' | 'series' | 'collectors'>;
