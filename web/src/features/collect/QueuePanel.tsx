// The responses of a project still on this device: waiting, being sent, or needing attention (refused, with the
// server's message). Nothing here is ever dropped: a refused response is opened, fixed and sent again.
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { formatDate } from '../../i18n/format';
import { useOnline } from '../../lib/online';
import { translateKnown } from '../../i18n/known';
import type { LocalResponse, SyncState } from './localStore';
import { resend, syncAll } from './sync';
import { responsesChanged } from './collectApi';
import { answersSummary } from './summary';

export function SyncBadge({ state }: { state: SyncState }) {
  const { t } = useTranslation();
  return (
    <span className={`sync sync-${state}`} data-testid="sync-state">
      {t(`collect.sync.${state}`)}
    </span>
  );
}

export function QueuePanel({ projectId, unsent }: { projectId: number; unsent: LocalResponse[] }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const online = useOnline();
  if (unsent.length === 0) return null;
  const attention = unsent.filter((r) => r.sync === 'failed').length;
  const sendAll = async () => {
    setBusy(true);
    await syncAll(true).catch(() => undefined);
    setBusy(false);
  };
  return (
    <section className="queue card" data-testid="queue" aria-labelledby="queue-title">
      <header className="queue-head">
        <h3 id="queue-title">{t('collect.queue.title')}</h3>
        <span className="muted" data-testid="queue-summary">
          {t('collect.queue.summary', { count: unsent.length })}
          {attention > 0 ? ` · ${t('collect.queue.attention', { count: attention })}` : ''}
        </span>
        <button type="button" onClick={() => void sendAll()} disabled={busy || !online} data-testid="send-all">
          {t('collect.queue.sendAll')}
        </button>
      </header>
      <ul className="queue-list">
        {unsent.map((r) => (
          <li
            key={r.response_id}
            className={`queue-row sync-${r.sync}`}
            data-testid="queue-row"
            data-response-id={r.response_id}
          >
            <div className="queue-main">
              <strong>{answersSummary(r.data)}</strong>
              <span className="muted"> {formatDate(r.time_updated)}</span>
              <div>
                <SyncBadge state={r.sync} />
                {r.completed ? ` · ${t('collect.completed')}` : ` · ${t('collect.open')}`}
              </div>
              {r.sync === 'failed' && r.error && (
                <p className="field-error" data-testid="queue-error">
                  {translateKnown(r.error)}
                </p>
              )}
            </div>
            <div className="queue-actions">
              <Link className="button" to={`/project/${projectId}/collect/${encodeURIComponent(r.response_id)}/edit`}>
                {r.sync === 'failed' ? t('collect.queue.fix') : t('collect.edit')}
              </Link>
              {r.sync === 'failed' && (
                <button
                  type="button"
                  data-testid="resend"
                  onClick={() =>
                    void resend(r.response_id).then((o) => {
                      if (o?.kind === 'uploaded') dispatch(responsesChanged(projectId, r.response_id));
                    })
                  }
                >
                  {t('collect.queue.resend')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
