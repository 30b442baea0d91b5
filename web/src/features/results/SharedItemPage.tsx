// The public pages of a shared item (spec 001 §2 item-chart, item-table, item-results): no login, only that item.
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadPlotly } from './Chart';
import { ItemCard } from './ItemCard';
import { LevelSummary } from './LevelSummary';
import { useSharedItemQuery } from './resultsApi';

export function SharedItemPage({ kind }: { kind: 'chart' | 'table' | 'results' }) {
  const { t } = useTranslation();
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
      {(error || (data && !item)) && <p className="banner error">{t('known.noResults')}</p>}
      {item && (
        <>
          {level && <LevelSummary level={level} />}
          <ItemCard item={item} projectType="single" mode={kind === 'results' ? 'both' : kind} />
        </>
      )}
    </main>
  );
}
