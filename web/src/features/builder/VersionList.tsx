// The builder's "Earlier versions": every save and import keeps the form it replaces; one can be made current again.
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { notify } from '../../components/noticesSlice';
import { useDialogs } from '../../components/useDialogs';
import { formatDate } from '../../i18n/format';
import { failure } from '../errors/failures';
import { useRestoreVersionMutation, useVersionsQuery } from './builderApi';
import { loaded } from './builderSlice';

export function VersionList({ schemaId, dirty, editable }: { schemaId: number; dirty: boolean; editable: boolean }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { data, error } = useVersionsQuery(schemaId);
  const [restore, restoring] = useRestoreVersionMutation();
  const versions = data?.results ?? [];
  const dialogs = useDialogs();

  const doRestore = async (versionId: number, label: string) => {
    // The current form stays restorable (it becomes a version), but what the builder shows changes at once.
    if (!(await dialogs.confirm({ text: t('builder.confirmRestore', { version: label }) }))) return;
    try {
      dispatch(loaded(await restore({ id: schemaId, versionId }).unwrap()));
      dispatch(notify(t('builder.restored')));
    } catch (err) {
      dispatch(notify(failure(err as Parameters<typeof failure>[0], 'Cannot edit schema for this project!')));
    }
  };

  return (
    <section className="card" data-testid="versions">
      {dialogs.element}
      <h3>{t('builder.panels.versions')}</h3>
      {error && <p className="banner error">{failure(error, 'Not found.')}</p>}
      {data && versions.length === 0 && <p className="muted">{t('builder.noVersions')}</p>}
      <ul>
        {versions.map((v) => {
          const label = `${formatDate(v.time_saved)} · ${v.name || t('builder.untitled')}`;
          return (
            <li key={v.id} data-testid="version-item">
              {label} · {t('builder.versionQuestions', { count: v.questions })}{' '}
              <button
                type="button"
                className="link"
                data-testid="restore-version"
                disabled={dirty || !editable || restoring.isLoading}
                title={dirty ? t('builder.restoreDirty') : undefined}
                onClick={() => void doRestore(v.id, label)}
              >
                {t('builder.restore')}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
