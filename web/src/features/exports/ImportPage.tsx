// The import screen (spec 001 §7 Import): upload a CSV or XLSX, map each column to a question or a response field
// (our own exports map themselves), check the first rows in a preview, run the import as a job with its progress, and
// download the report of refused rows. SQL access for BI tools sits below (credentials shown once).
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FEATURE_INGESTION } from '@fieldwork/access';
import { errorMessage } from '../errors/messages';
import { AccessHint } from '../project/AccessHint';
import { useWorkspace } from '../session/useWorkspace';
import { useUploadProjectFileMutation } from '../projects/projectsApi';
import type { Project } from '../projects/types';
import { JobProgress } from './JobProgress';
import {
  isRunning,
  RESPONSE_FIELDS,
  useDisableSqlMutation,
  useEnableSqlMutation,
  useJobProgress,
  usePreviewImportMutation,
  useStartImportMutation,
  type ImportBody,
  type ImportColumn,
  type ImportPreview,
} from './exportsApi';

/** A column's mapping as the value of its select: a question id (with _lat/_lng for geotag parts), a field, or ''. */
const valueOf = (c: ImportColumn) => (c.target_kind === 'item' ? (c.target ? `${c.item_id}_${c.target}` : String(c.item_id)) : c.target_kind === 'field' ? c.target : '');

/** Imports need the projectLevelIngestion screen, which the workspace's ingestion feature switches on. */
export function ImportPage() {
  const project = useOutletContext<Project>();
  const ws = useWorkspace();
  if (project.permissions.includes('projectLevelIngestion')) return <ImportScreen />;
  if (!ws.loaded) return null;
  return ws.hasFeature(FEATURE_INGESTION) ? <AccessHint screens={['projectLevelIngestion']} /> : <AccessHint feature={FEATURE_INGESTION} workspaceId={project.primary_organization} />;
}

function ImportScreen() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const schemas = project.sampler_schemas ?? [];
  const [schema, setSchema] = useState(schemas[0]?.id ?? 0);
  const [upload, uploaded] = useUploadProjectFileMutation();
  const [preview, previewed] = usePreviewImportMutation();
  const [start, started] = useStartImportMutation();
  const [fileId, setFileId] = useState('');
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [delimiter, setDelimiter] = useState(' | ');
  const [current, setCurrent] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const { data: job } = useJobProgress(jobId);
  const data: ImportPreview | undefined = previewed.data;

  const body = (over: Partial<ImportBody> = {}): ImportBody => ({ file_identifier: fileId, schema, mapped_columns: mapping, value_delimiter: delimiter, import_current: current, ...over });
  const refresh = (over: Partial<ImportBody>) => {
    void preview({ projectId: project.id, body: body(over) })
      .unwrap()
      .then((p) => setMapping(Object.fromEntries(p.columns.map((c) => [c.header, valueOf(c)]))))
      .catch(() => undefined);
  };
  const error = uploaded.error ?? previewed.error ?? started.error;
  const mappingErrors = data ? Object.values(data.errors).flat() : [];

  return (
    <>
      <section className="card import-page" data-testid="import-page">
        <h2>{t('data.importTitle')}</h2>
        <p className="muted">{t('data.importHelp')}</p>
        {schemas.length > 1 && (
          <label>
            {t('data.form')}
            <select
              value={schema}
              onChange={(e) => {
                setSchema(Number(e.target.value));
                if (fileId) refresh({ schema: Number(e.target.value), mapped_columns: {} });
              }}
              data-testid="import-schema"
            >
              {schemas.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t('data.file')}
          <input
            type="file"
            accept=".csv,.xlsx"
            data-testid="import-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (!file) return;
              setJobId(null);
              setMapping({});
              void upload({ projectId: project.id, file })
                .unwrap()
                .then((f) => {
                  setFileId(f.file_id);
                  refresh({ file_identifier: f.file_id, mapped_columns: {} });
                })
                .catch(() => undefined);
            }}
          />
        </label>
        {error && (
          <p className="banner error" role="alert">
            {errorMessage(error)}
          </p>
        )}
        {data && (
          <>
            <div className="import-options">
              <label>
                {t('data.delimiter')}
                <input value={delimiter} maxLength={5} onChange={(e) => setDelimiter(e.target.value)} onBlur={() => refresh({})} data-testid="import-delimiter" />
              </label>
              <label className="check">
                <input type="checkbox" checked={current} onChange={(e) => setCurrent(e.target.checked)} data-testid="import-current" /> {t('data.importCurrent')}
              </label>
            </div>
            {mappingErrors.length > 0 && (
              <ul className="banner error" data-testid="mapping-errors">
                {mappingErrors.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            )}
            <div className="preview-scroll">
              <table className="mapping-table" data-testid="import-preview">
                <thead>
                  <tr>
                    {data.columns.map((c) => (
                      <th key={c.header} scope="col">
                        {c.header}
                      </th>
                    ))}
                  </tr>
                  <tr>
                    {data.columns.map((c) => (
                      <td key={c.header}>
                        <select
                          aria-label={t('data.mapColumn', { column: c.header })}
                          data-testid={`map-${c.header}`}
                          value={mapping[c.header] ?? ''}
                          onChange={(e) => {
                            const next = { ...mapping, [c.header]: e.target.value };
                            setMapping(next);
                            refresh({ mapped_columns: next });
                          }}
                        >
                          <option value="">{t('data.notImported')}</option>
                          <optgroup label={t('data.questions')}>
                            {data.questions.map((q) => (
                              <option key={`${q.id}${q.part ?? ''}`} value={q.part ? `${q.id}_${q.part}` : String(q.id)}>
                                {q.label}
                              </option>
                            ))}
                          </optgroup>
                          <optgroup label={t('data.fields')}>
                            {RESPONSE_FIELDS.map((f) => (
                              <option key={f} value={f}>
                                {f}
                              </option>
                            ))}
                          </optgroup>
                        </select>
                      </td>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((row, r) => (
                    <tr key={r}>
                      {data.columns.map((c, i) => {
                        const problem = data.row_problems[r]?.[c.header];
                        return (
                          <td key={c.header} className={problem ? 'bad' : undefined} title={problem}>
                            {String(row[i] ?? '')}
                            {problem && <div className="field-error">{problem}</div>}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              <button
                type="button"
                className="primary"
                data-testid="import-start"
                disabled={isRunning(job) || mappingErrors.length > 0}
                onClick={() =>
                  void start({ projectId: project.id, body: body() })
                    .unwrap()
                    .then((r) => setJobId(r.job.id))
                    .catch(() => undefined)
                }
              >
                {t('data.importStart')}
              </button>
            </p>
          </>
        )}
        <JobProgress job={job} />
        {job?.status === 'done' && (
          <div className="banner ok" role="status" data-testid="import-done">
            {t('data.importDone', { stored: job.result.stored ?? 0, unmodified: job.result.unmodified ?? 0, failed: job.rows_failed })}
            {job.report_url && (
              <>
                {' '}
                <a href={job.report_url} data-testid="import-report">
                  {t('data.report')}
                </a>
              </>
            )}
          </div>
        )}
        {job?.status === 'failed' && (
          <p className="banner error" role="alert">
            {job.error}
          </p>
        )}
      </section>
      <SqlAccessCard projectId={project.id} />
    </>
  );
}

function SqlAccessCard({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const [enable, enabled] = useEnableSqlMutation();
  const [disable, disabled] = useDisableSqlMutation();
  const creds = enabled.data && !disabled.isSuccess ? enabled.data : undefined;
  const error = enabled.error ?? disabled.error;
  return (
    <section className="card" data-testid="sql-access">
      <h2>{t('data.sqlTitle')}</h2>
      <p className="muted">{t('data.sqlHelp')}</p>
      <button type="button" onClick={() => void enable(projectId).then(() => disabled.reset())} data-testid="sql-enable">
        {creds ? t('data.sqlRotate') : t('data.sqlEnable')}
      </button>{' '}
      <button type="button" onClick={() => void disable(projectId)} data-testid="sql-disable">
        {t('data.sqlDisable')}
      </button>
      {error && (
        <p className="banner error" role="alert">
          {errorMessage(error)}
        </p>
      )}
      {disabled.isSuccess && <p className="banner ok">{t('data.sqlDisabled')}</p>}
      {creds && (
        <>
          <p className="banner ok">{t('data.sqlOnce')}</p>
          <pre className="credentials" data-testid="sql-credentials">
            {`host=${creds.host} port=${creds.port} dbname=${creds.database}\nuser=${creds.username}\npassword=${creds.password}\nselect * from ${creds.view};`}
          </pre>
        </>
      )}
    </section>
  );
}
