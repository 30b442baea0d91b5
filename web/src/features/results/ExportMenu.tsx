// Export from the results screen (spec 001 §7 Exports, §4): a CSV kind starts an export job; its progress shows as a
// bar; when it is done the browser goes to the file's url and the export-success notice says so. Failures show the
// server's detail or "There was a problem updating the export files. Please try again."
import { useEffect, useState } from 'react';
import { api } from '../../app/api';
import { errorMessage } from '../errors/messages';

interface Job {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  rows_done: number;
  rows_total: number;
  percent: number;
  url: string | null;
  error: string;
}

const exportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    startExport: build.mutation<{ job: Job; url: string | null }, { projectId: number; schemaId: number; kind: string }>({
      query: ({ projectId, schemaId, kind }) => `project/${projectId}/${kind}/?schema=${schemaId}&wait=0`,
    }),
    exportJob: build.query<Job, string>({ query: (id) => `exports/jobs/${id}/`, keepUnusedDataFor: 0 }),
    cancelExport: build.mutation<Job, string>({ query: (id) => ({ url: `exports/jobs/${id}/cancel/`, method: 'POST', body: {} }) }),
  }),
});

const KINDS: [string, string][] = [
  ['named_csv', 'CSV (names)'],
  ['coded_csv', 'CSV (codes)'],
  ['dictionary_csv', 'Data dictionary'],
  ['xlsx_excel', 'Excel (XLSX)'],
];
const FAILED = 'There was a problem updating the export files. Please try again.';

export function ExportMenu({ projectId, schemaId }: { projectId: number; schemaId: number }) {
  const [start, { error: startError, reset }] = exportsApi.useStartExportMutation();
  const [cancel] = exportsApi.useCancelExportMutation();
  const [jobId, setJobId] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { data: job } = exportsApi.useExportJobQuery(jobId ?? '', { skip: jobId === null, pollingInterval: 1000 });
  useEffect(() => {
    if (job?.status === 'done' && job.url && !done) {
      setDone(true);
      window.location.assign(job.url);
    }
  }, [job, done]);
  const running = job && jobId && (job.status === 'queued' || job.status === 'running');
  return (
    <div className="export-menu" data-testid="export-menu">
      <label>
        Export{' '}
        <select
          data-testid="export-kind"
          value=""
          disabled={Boolean(running)}
          onChange={(e) => {
            const kind = e.target.value;
            if (!kind) return;
            reset();
            setDone(false);
            void start({ projectId, schemaId, kind })
              .unwrap()
              .then((r) => setJobId(r.job.id))
              .catch(() => setJobId(null));
          }}
        >
          <option value="">Choose…</option>
          {KINDS.map(([k, l]) => (
            <option key={k} value={k}>
              {l}
            </option>
          ))}
        </select>
      </label>
      {running && (
        <span className="export-progress">
          <progress data-testid="export-progress" max={100} value={job.percent} /> {job.rows_done} / {job.rows_total || '…'}
          <button type="button" className="link" onClick={() => void cancel(job.id)}>
            Cancel
          </button>
        </span>
      )}
      {done && (
        <p className="banner ok" role="status" data-testid="export-success">
          Your export is ready; the download has started.
        </p>
      )}
      {(startError || job?.status === 'failed') && <p className="banner error">{startError ? errorMessage(startError) || FAILED : job?.error || FAILED}</p>}
    </div>
  );
}
