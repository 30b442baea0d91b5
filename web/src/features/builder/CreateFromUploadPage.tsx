// Create a form from an uploaded file: a question list (CSV or XLSX) or an XLSForm; shows every loss of the
// conversion with its sheet, row and column. Over a form that has responses, the API first answers with the questions
// the file would change (409.2); the user replaces the form knowing them, or leaves it. An XLSForm's repeats become
// levels of the project's hierarchy, listed with their forms' question counts.
import { useState } from 'react';
import { Link, useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { failure } from '../errors/failures';
import { useUploadProjectFileMutation } from '../projects/projectsApi';
import type { Project } from '../projects/types';
import { countQuestions } from '@fieldwork/sampler';
import { useConvertUploadMutation } from './builderApi';
import { replaceRefusal } from './replaceChanges';

export function CreateFromUploadPage() {
  const { t, i18n } = useTranslation();
  const typeName = (type: string) => (i18n.exists(`builder.types.${type}`) ? t(`builder.types.${type}`) : type);
  const project = useOutletContext<Project>();
  const [upload, uploaded] = useUploadProjectFileMutation();
  const [convert, converted] = useConvertUploadMutation();
  const [fileName, setFileName] = useState('');
  const [fileId, setFileId] = useState('');
  const refusal = replaceRefusal(converted.error);
  const error = uploaded.error ?? (refusal ? undefined : converted.error);
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
            .then((f) => {
              setFileId(f.file_id);
              return convert({ projectId: project.id, fileId: f.file_id }).unwrap();
            }, () => undefined)
            .catch(() => undefined);
        }}
      />
      {error && <p className="banner error" role="alert">{failure(error, 'Project could not be saved!')}</p>}
      {refusal && (
        <div className="banner warning" role="alert" data-testid="replace-changes">
          <p>{refusal.detail}</p>
          <p>{t('builder.replaceChanges')}</p>
          <ul>
            {refusal.changes.map((c) => (
              <li key={c.code} data-testid={`change-${c.kind}`}>
                {c.kind === 'retyped'
                  ? t('builder.change.retyped', { code: c.code, from: typeName(c.from), to: typeName(c.to) })
                  : t(`builder.change.${c.kind}`, { code: c.code, type: typeName(c.type) })}
              </li>
            ))}
          </ul>
          <button type="button" className="danger" data-testid="replace-form" disabled={converted.isLoading} onClick={() => void convert({ projectId: project.id, fileId, confirm: true }).unwrap().catch(() => undefined)}>
            {t('builder.replaceConfirm')}
          </button>
        </div>
      )}
      {converted.data && (
        <div data-testid="conversion-report">
          <p>
            {t('builder.converted', { file: fileName, format: converted.data.format, count: converted.data.questions })}{' '}
            <span data-testid="conversion-losses">
              {converted.data.notes.length === 0 ? t('builder.noLosses') : t('builder.losses', { count: converted.data.notes.length })}
            </span>
          </p>
          {(converted.data.levels ?? []).length > 0 && (
            <div data-testid="conversion-levels">
              <p>{t('builder.repeatLevels')}</p>
              <ul>
                {converted.data.levels!.map((l) => (
                  <li key={l.id}>{t('builder.repeatLevel', { name: l.name, level: l.level + 1, count: countQuestions(l) })}</li>
                ))}
              </ul>
            </div>
          )}
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
