// The responses of a results level: their count (whole, grouped per language) and the first and last response dates.
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../i18n/format';
import { formatResultDate } from './format';
import type { Level } from './resultsApi';

/** The level's response count (whole, grouped per language) with its first and last response dates. */
export function LevelSummary({ level }: { level: Level }) {
  const { t } = useTranslation();
  const count = level.total_filtered_responses;
  return (
    <p className="level-summary" data-testid="level-summary">
      <b>{t('results.summary', { count, formatted: formatInteger(count) })}</b>
      {level.first_response && <> · {t('results.first', { date: formatResultDate(level.first_response) })}</>}
      {level.last_response && <> · {t('results.last', { date: formatResultDate(level.last_response) })}</>}
    </p>
  );
}
