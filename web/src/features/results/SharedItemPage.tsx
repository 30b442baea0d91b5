// The public pages of a shared item (spec 001 §2 item-chart, item-table, item-results): no login, only that item.
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { loadPlotly } from './Chart';
import { formatResultDate } from './format';
import { ItemCard, NO_RESULTS } from './ItemCard';
import { useSharedItemQuery } from './resultsApi';

export function SharedItemPage({ kind }: { kind: 'chart' | 'table' | 'results' }) {
  const { itemToken = '' } = useParams();
  const { data, error, isLoading } = useSharedItemQuery({ token: itemToken }, { skip: itemToken === '' });
  // plotly is the largest download here: fetch it alongside the item's results, not after them.
  useEffect(() => {
    if (kind !== 'table') void loadPlotly().catch(() => undefined);
  }, [kind]);
  const item = data?.items[0];
  const level = data?.levels.find((l) => l.schema_id === item?.schema_id);
  return (
    <main className="shared-item" data-testid="shared-item">
      {isLoading && <div className="loading" aria-busy="true" />}
      {(error || (data && !item)) && <p className="banner error">{NO_RESULTS}</p>}
      {item && (
        <>
          {level && (
            <p className="level-summary">
              <b>{level.total_filtered_responses}</b> responses
              {level.first_response && <> · first {formatResultDate(level.first_response)}</>}
              {level.last_response && <> · last {formatResultDate(level.last_response)}</>}
            </p>
          )}
          <ItemCard item={item} projectType="single" mode={kind === 'results' ? 'both' : kind} />
        </>
      )}
    </main>
  );
}
