// The export screen (spec 001 §2 project/{id}/export, with schema/{schema} and {lookupSchema}/profile/{profileId}):
// each form of the project (or the one in the address) with its four export kinds; a job's progress; when the file
// is ready the browser downloads it and the export-success dialog says so.
import { Link, useOutletContext, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Project } from '../projects/types';
import { EXPORT_KINDS, ExportSuccess, useExport } from '../results/ExportMenu';
import { isRunning } from './exportsApi';
import { JobProgress } from './JobProgress';

export function ExportPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const params = useParams();
  const exp = useExport(project.id);
  const profile = params.profileId;
  const all = project.sampler_schemas ?? [];
  const schemas = params.schema ? all.filter((s) => s.id === Number(params.schema)) : all;
  return (
    <section className="card export-page" data-testid="export-page">
      <h2>{t('data.exportTitle')}</h2>
      {profile && (
        <p className="muted" data-testid="export-profile">
          {t('data.profileOnly', { profile })}
        </p>
      )}
      {schemas.length === 0 && <p className="muted">{t('data.noForm')}</p>}
      <table className="export-table">
        <tbody>
          {schemas.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <Link
                  to={`/project/${project.id}/export/${profile ? `${params.lookupSchema}/profile/${encodeURIComponent(profile)}/` : ''}schema/${s.id}`}
                >
                  {s.name}
                </Link>
              </th>
              {EXPORT_KINDS.map((k) => (
                <td key={k}>
                  <button
                    type="button"
                    disabled={isRunning(exp.job)}
                    onClick={() => exp.run(s.id, k, profile)}
                    data-testid={`export-${s.id}-${k}`}
                  >
                    {t(`data.kinds.${k}`)}
                  </button>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <JobProgress job={exp.job} />
      {exp.error && (
        <p className="banner error" role="alert">
          {exp.error}
        </p>
      )}
      {exp.done && <ExportSuccess url={exp.job?.url ?? null} onClose={exp.dismiss} />}
    </section>
  );
}
