// A running job's progress bar with rows done and a cancel button (exports and imports).
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../i18n/format';
import { isRunning, useCancelJobMutation, type Job } from './exportsApi';

export function JobProgress({ job }: { job: Job | undefined }) {
  const { t } = useTranslation();
  const [cancel] = useCancelJobMutation();
  if (!job || !isRunning(job)) return null;
  return (
    <span className="job-progress" data-testid="job-progress">
      <progress data-testid="export-progress" max={100} value={job.percent} aria-label={t('data.progress')} />{' '}
      {formatInteger(job.rows_done)} / {job.rows_total ? formatInteger(job.rows_total) : '…'}
      <button type="button" className="link" onClick={() => void cancel(job.id)} data-testid="job-cancel">
        {t('data.cancel')}
      </button>
    </span>
  );
}
