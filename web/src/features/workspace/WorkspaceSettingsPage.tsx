// Workspace settings: users (WorkspaceUsers.tsx), API keys (the key is shown once), integrations (create, verify), folders.
import { useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { notify } from '../../components/noticesSlice';
import { FAILURES, failure } from '../errors/failures';
import { useDeleteFolderMutation, useFoldersQuery, useUpdateFolderMutation } from '../projects/projectsApi';
import {
  useApiKeysQuery,
  useCreateApiKeyMutation,
  useCreateIntegrationMutation,
  useIntegrationsQuery,
  useRevokeApiKeyMutation,
  useVerifyIntegrationMutation,
} from './workspaceApi';
import { WorkspaceUsers } from './WorkspaceUsers';
import { AccessHint } from '../project/AccessHint';
import { useDialogs } from '../../components/useDialogs';
import { useWorkspace } from '../session/useWorkspace';

const TABS = ['users', 'apiKeys', 'integrations', 'folders'] as const;

export function WorkspaceSettingsPage() {
  const { t } = useTranslation();
  const organizationId = Number(useParams().orgId);
  const [tab, setTab] = useState<(typeof TABS)[number]>('users');
  const ws = useWorkspace();
  if (!Number.isSafeInteger(organizationId) || organizationId <= 0)
    return <p className="banner error">Invalid Workspaces Id!</p>;
  if (
    ws.loaded &&
    ws.organization?.id === organizationId &&
    !(['org_details', 'user_access', 'user_create', 'billing'] as const).some((p) => ws.can(p))
  )
    return <AccessHint />;
  return (
    <section data-testid="workspace-settings">
      <h1>{t('workspace.title')}</h1>
      <nav className="tabs">
        {TABS.map((x) => (
          <button
            key={x}
            type="button"
            className={x === tab ? 'link active' : 'link'}
            data-testid={`ws-tab-${x}`}
            onClick={() => setTab(x)}
          >
            {t(`workspace.tabs.${x}`)}
          </button>
        ))}
      </nav>
      {tab === 'users' && <WorkspaceUsers organizationId={organizationId} />}
      {tab === 'apiKeys' && <ApiKeys organizationId={organizationId} />}
      {tab === 'integrations' && <Integrations organizationId={organizationId} />}
      {tab === 'folders' && <Folders organizationId={organizationId} />}
    </section>
  );
}

function ApiKeys({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { data, error } = useApiKeysQuery(organizationId);
  const [create, created] = useCreateApiKeyMutation();
  const [revoke, revoked] = useRevokeApiKeyMutation();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  return (
    <div>
      {error && <p className="banner error">{failure(error, FAILURES.apiKeysLoad)}</p>}
      {created.error && <p className="banner error">{failure(created.error, FAILURES.apiKeyCreate)}</p>}
      {revoked.error && <p className="banner error">{failure(revoked.error, FAILURES.apiKeyRevoke)}</p>}
      {shown && (
        <p className="banner ok" data-testid="api-key-shown">
          {t('workspace.keyOnce')} <code>{shown}</code>
        </p>
      )}
      <ul>
        {data?.results.map((k) => (
          <li key={k.prefix}>
            {k.name} <code>{k.prefix}</code>{' '}
            {k.revoked ? (
              t('workspace.revoked')
            ) : (
              <button type="button" className="link" onClick={() => void revoke({ organizationId, prefix: k.prefix })}>
                {t('workspace.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void create({ organizationId, name })
            .unwrap()
            .then(
              (k) => {
                setShown(k.key);
                setName('');
                dispatch(notify(t('workspace.keyCreated')));
              },
              () => undefined,
            );
        }}
      >
        <input
          aria-label={t('workspace.keyName')}
          placeholder={t('workspace.keyName')}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit">{t('workspace.createKey')}</button>
      </form>
    </div>
  );
}

function Integrations({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const { data, error } = useIntegrationsQuery(organizationId);
  const [create, created] = useCreateIntegrationMutation();
  const [verify, verified] = useVerifyIntegrationMutation();
  return (
    <div>
      {error && <p className="banner error">{failure(error, FAILURES.integrationsLoad)}</p>}
      {created.error && <p className="banner error">{failure(created.error, 'Error creating integration')}</p>}
      {verified.error && <p className="banner error">{failure(verified.error, 'Error updating integration')}</p>}
      <ul>
        {data?.results.map((i) => (
          <li key={i.token}>
            CRM <code>{i.token}</code>{' '}
            {i.verified ? (
              `✓ ${t('workspace.verified')}`
            ) : (
              <button type="button" className="link" onClick={() => void verify({ organizationId, token: i.token })}>
                {t('workspace.verify')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => void create({ organizationId })}>
        {t('workspace.createIntegration')}
      </button>
    </div>
  );
}

function Folders({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  const { data } = useFoldersQuery(organizationId);
  const [update] = useUpdateFolderMutation();
  const [remove] = useDeleteFolderMutation();
  const dialogs = useDialogs();
  return (
    <ul>
      {dialogs.element}
      {data?.results.map((f) => (
        <li key={f.id}>
          {f.name}{' '}
          <button
            type="button"
            className="link"
            onClick={() =>
              void dialogs
                .prompt({ title: t('workspace.rename'), label: t('projects.folderName'), value: f.name })
                .then((name) => {
                  if (name) void update({ organizationId, folderId: f.id, name });
                })
            }
          >
            {t('workspace.rename')}
          </button>
          <button type="button" className="link danger" onClick={() => void remove({ organizationId, folderId: f.id })}>
            {t('project.delete')}
          </button>
        </li>
      ))}
    </ul>
  );
}
