// Create a form from an uploaded file: a question list (CSV or XLSX) or an XLSForm; shows every loss of the
// conversion with its sheet, row and column.
import { useState } from 'react';
import { Link, useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { failure } from '../errors/failures';
import { useUploadProjectFileMutation } from '../projects/projectsApi';
import type { Project } from '../projects/types';
import { useConvertUploadMutation } from './builderApi';

export function CreateFromUploadPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const [upload, uploaded] = useUploadProjectFileMutation();
  const [convert, converted] = useConvertUploadMutation();
  const [fileName, setFileName] = useState('');
  const error = uploaded.error ?? converted.error;
  return (
    <section className="card" data-testid="form-from-upload">
      <h2>{t('builder.fromFile')}</h2>
      <p className="muted">{t('builder.fromFileHelp')}</p>
      <input
        type="file"
        accept=".csv,.xlsx"
        data-testid="form-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          setFileName(file.name);
          void upload({ projectId: project.id, file })
            .unwrap()
            .then((f) => convert({ projectId: project.id, fileId: f.file_id }).unwrap(), () => undefined)
            .catch(() => undefined);
        }}
      />
      {error && <p className="banner error" role="alert">{failure(error, 'Project could not be saved!')}</p>}
      {converted.data && (
        <div data-testid="conversion-report">
          <p>
            {t('builder.converted', { file: fileName, format: converted.data.format, count: converted.data.questions })}{' '}
            <span data-testid="conversion-losses">
              {converted.data.notes.length === 0 ? t('builder.noLosses') : t('builder.losses', { count: converted.data.notes.length })}
            </span>
          </p>
          {converted.data.notes.length > 0 && (
            <ul>
              {converted.data.notes.map((n, i) => (
                <li key={i} className="field-error">
                  {n.sheet} {t('project.row', { row: n.row })}
                  {n.column ? `, ${n.column}` : ''}: {n.message}
                </li>
              ))}
            </ul>
          )}
          <Link to={`/project/${project.id}/builder`} data-testid="open-builder">
            {t('builder.openBuilder')}
          </Link>
        </div>
      )}
    </section>
  );
}
