// Export (spec 001 §7 Exports, §4): a kind starts an export job of the schema (or of one profile); its progress shows
// as a bar; when it is done the browser goes to the file's url and the export-success notice says so. Failures show
// the server's detail or "There was a problem updating the export files. Please try again."
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { translateKnown } from '../../i18n/known';
import { errorMessage } from '../errors/messages';
import { JobProgress } from '../exports/JobProgress';
import { isRunning, useJobProgress, useStartExportMutation } from '../exports/exportsApi';

export const EXPORT_KINDS = ['named_csv', 'coded_csv', 'dictionary_csv', 'xlsx_excel'] as const;
export const EXPORT_FAILED = 'There was a problem updating the export files. Please try again.';

/** Runs one export job at a time and follows it to its file. */
export function useExport(projectId: number) {
  const [start, { error: startError, reset }] = useStartExportMutation();
  const [jobId, setJobId] = useState<string | null>(null);
  // The job whose file was opened (once), and whether the success dialog is showing.
  const [opened, setOpened] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { data: job } = useJobProgress(jobId);
  useEffect(() => {
    if (job?.status === 'done' && job.url && opened !== job.id) {
      setOpened(job.id);
      setDone(true);
      window.location.assign(job.url);
    }
  }, [job, opened]);
  const run = (schemaId: number, kind: string, profile?: string) => {
    reset();
    setDone(false);
    void start({ projectId, schemaId, kind, profile })
      .unwrap()
      .then((r) => setJobId(r.job.id))
      .catch(() => setJobId(null));
  };
  const error = translateKnown(
    startError ? errorMessage(startError) || EXPORT_FAILED : job?.status === 'failed' ? job.error || EXPORT_FAILED : '',
  );
  return { run, job: jobId ? job : undefined, done, error, dismiss: () => setDone(false) };
}

/** The export-success dialog: the download has started; a link to start it again. */
export function ExportSuccess({ url, onClose }: { url: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('data.exportDone')} onClose={onClose} testId="export-success">
      <p role="status">{t('data.exportReady')}</p>
      {url && (
        <p>
          <a href={url}>{t('data.downloadAgain')}</a>
        </p>
      )}
      <button type="button" onClick={onClose}>
        {t('data.close')}
      </button>
    </Dialog>
  );
}

export function ExportMenu({
  projectId,
  schemaId,
  profile,
}: {
  projectId: number;
  schemaId: number;
  profile?: string;
}) {
  const { t } = useTranslation();
  const exp = useExport(projectId);
  return (
    <div className="export-menu" data-testid="export-menu">
      <label>
        {t('data.export')}{' '}
        <select
          data-testid="export-kind"
          value=""
          disabled={isRunning(exp.job)}
          onChange={(e) => e.target.value && exp.run(schemaId, e.target.value, profile)}
        >
          <option value="">{t('data.choose')}</option>
          {EXPORT_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`data.kinds.${k}`)}
            </option>
          ))}
        </select>
      </label>
      <JobProgress job={exp.job} />
      {exp.done && <ExportSuccess url={exp.job?.url ?? null} onClose={exp.dismiss} />}
      {exp.error && <p className="banner error">{exp.error}</p>}
    </div>
  );
}
