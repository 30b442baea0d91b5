// The project card's lifecycle dialogs: duplicate (next to the original or into a folder: spec 000's
// project/{id}/duplicate/ and duplicate/{folderId}/), move to a folder, a new folder, and the workspace owner's
// deleted projects with their purge (what goes, counted in every store, confirmed by typing the name).
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { Dialog } from '../../components/Dialog';
import { notify } from '../../components/noticesSlice';
import { formatDate } from '../../lib/dates';
import { titleCase } from '../../lib/text';
import { errorMessage } from '../errors/messages';
import { failure } from '../errors/failures';
import {
  projectsApi,
  useCreateFolderMutation,
  useDuplicateProjectMutation,
  usePurgeQuery,
  usePurgesQuery,
  useStartPurgeMutation,
} from './projectsApi';
import type { FolderItem, PurgeStatus } from './types';

type Named = { id: number; name: string; folder_id?: number | null };

/** Folders with their path from Workspace Home ("A / B"), for a picker. */
export function folderPaths(folders: FolderItem[]): { id: number; path: string }[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const path = (f: FolderItem) => {
    const names: string[] = [];
    for (let x: FolderItem | undefined = f; x && names.length < 50; x = byId.get(x.folder)) names.unshift(x.name);
    return names.join(' / ');
  };
  return folders.map((f) => ({ id: f.id, path: path(f) })).sort((a, b) => a.path.localeCompare(b.path));
}

function FolderSelect({
  folders,
  value,
  onChange,
  withHome,
}: {
  folders: FolderItem[];
  value: number;
  onChange: (id: number) => void;
  withHome: boolean;
}) {
  const { t } = useTranslation();
  return (
    <label>
      {t('lifecycle.folder')}
      <select data-testid="folder-select" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {withHome && <option value={0}>{t('projects.home')}</option>}
        {folderPaths(folders).map((f) => (
          <option key={f.id} value={f.id}>
            {f.path}
          </option>
        ))}
      </select>
    </label>
  );
}

export function DuplicateDialog({
  project,
  folders,
  onClose,
}: {
  project: Named;
  folders: FolderItem[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [where, setWhere] = useState<'same' | 'folder'>('same');
  const [folder, setFolder] = useState(folders[0]?.id ?? 0);
  const [duplicate, state] = useDuplicateProjectMutation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void duplicate({ projectId: project.id, ...(where === 'folder' && folder > 0 ? { folderId: folder } : {}) })
      .unwrap()
      .then(
        (copy) => {
          dispatch(notify(t('lifecycle.duplicated', { name: titleCase(copy.name) })));
          onClose();
        },
        () => undefined,
      );
  };
  return (
    <Dialog
      title={t('lifecycle.duplicateTitle', { name: titleCase(project.name) })}
      onClose={onClose}
      testId="duplicate-dialog"
    >
      <form onSubmit={submit}>
        <p>{t('lifecycle.duplicateExplain')}</p>
        <fieldset>
          <legend>{t('lifecycle.duplicateWhere')}</legend>
          <label>
            <input type="radio" name="where" checked={where === 'same'} onChange={() => setWhere('same')} />{' '}
            {t('lifecycle.duplicateSame')}
          </label>
          <label>
            <input
              type="radio"
              name="where"
              data-testid="duplicate-into-folder"
              checked={where === 'folder'}
              disabled={folders.length === 0}
              onChange={() => setWhere('folder')}
            />{' '}
            {t('lifecycle.duplicateFolder')}
          </label>
          {folders.length === 0 && <p className="muted">{t('lifecycle.noFolders')}</p>}
          {where === 'folder' && (
            <FolderSelect folders={folders} value={folder} onChange={setFolder} withHome={false} />
          )}
        </fieldset>
        {state.error && <p className="banner error">{failure(state.error, 'Project could not be saved!')}</p>}
        <button type="submit" data-testid="confirm-duplicate" disabled={state.isLoading}>
          {t('lifecycle.duplicate')}
        </button>
      </form>
    </Dialog>
  );
}

export function MoveDialog({
  project,
  organizationId,
  folders,
  onClose,
}: {
  project: Named;
  organizationId: number;
  folders: FolderItem[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [folder, setFolder] = useState(project.folder_id ?? 0);
  const [move, state] = useCreateFolderMutation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Spec 000: a folder entry that wraps a project moves it into the folder (0: Workspace Home).
    void move({ organizationId, project: project.id, folder })
      .unwrap()
      .then(
        () => {
          dispatch(notify(t('lifecycle.moved', { name: titleCase(project.name) })));
          onClose();
        },
        () => undefined,
      );
  };
  return (
    <Dialog title={t('lifecycle.moveTitle', { name: titleCase(project.name) })} onClose={onClose} testId="move-dialog">
      <form onSubmit={submit}>
        <FolderSelect folders={folders} value={folder} onChange={setFolder} withHome />
        {state.error && <p className="banner error">{errorMessage(state.error)}</p>}
        <button
          type="submit"
          data-testid="confirm-move"
          disabled={state.isLoading || folder === (project.folder_id ?? 0)}
        >
          {t('lifecycle.move')}
        </button>
      </form>
    </Dialog>
  );
}

export function NewFolderDialog({
  organizationId,
  parent,
  onClose,
}: {
  organizationId: number;
  parent: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [name, setName] = useState('');
  const [create, state] = useCreateFolderMutation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create({ organizationId, name, folder: parent })
      .unwrap()
      .then(
        () => {
          dispatch(notify(t('projects.folderCreated')));
          onClose();
        },
        () => undefined,
      );
  };
  return (
    <Dialog title={t('projects.newFolder')} onClose={onClose} testId="folder-dialog">
      <form onSubmit={submit}>
        <label>
          {t('projects.folderName')}
          <input data-testid="folder-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        </label>
        {state.error && <p className="banner error">{failure(state.error, 'Please provide a folder name')}</p>}
        <button type="submit" data-testid="confirm-folder" disabled={state.isLoading}>
          {t('lifecycle.createFolder')}
        </button>
      </form>
    </Dialog>
  );
}

/** The kinds a purge removes, in the order the confirmation lists them (the others are summed under "other"). */
const KINDS = [
  'responses',
  'media_files',
  'results_rows',
  'export_jobs',
  'export_files',
  'uploaded_files',
  'schemas',
  'sites',
  'project_users',
  'collection_links',
] as const;

function PurgeCounts({ counts }: { counts: Record<string, number> }) {
  const { t, i18n } = useTranslation();
  const n = (v: number | undefined) => new Intl.NumberFormat(i18n.language).format(v ?? 0);
  const bytes = (counts.media_bytes ?? 0) + (counts.export_bytes ?? 0);
  return (
    <ul className="purge-counts" data-testid="purge-counts">
      {KINDS.map((k) => (
        <li key={k} data-kind={k}>
          {t(`lifecycle.kinds.${k}`, { count: counts[k] ?? 0, n: n(counts[k]) })}
        </li>
      ))}
      {bytes > 0 && <li>{t('lifecycle.bytes', { size: n(Math.ceil(bytes / 1024)) })}</li>}
    </ul>
  );
}

function PurgeConfirm({ item, onClose }: { item: PurgeStatus; onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [typed, setTyped] = useState('');
  const [running, setRunning] = useState(false);
  const preview = usePurgeQuery(item.project_id, { pollingInterval: running ? 1000 : 0 });
  const [start, state] = useStartPurgeMutation();
  const status = preview.data;
  const done = status?.state === 'done';
  useEffect(() => {
    if (done && running) {
      setRunning(false);
      // The workspace's lists (deleted projects, purges) say so too.
      dispatch(projectsApi.util.invalidateTags(['Organization']));
      dispatch(notify(t('lifecycle.purged', { name: titleCase(item.name) })));
    }
  }, [done, running, dispatch, t, item.name]);
  return (
    <Dialog title={t('lifecycle.purgeTitle', { name: titleCase(item.name) })} onClose={onClose} testId="purge-dialog">
      {preview.isLoading && <p>{t('app.loading')}</p>}
      {preview.error && <p className="banner error">{errorMessage(preview.error)}</p>}
      {status && !done && status.state !== 'running' && (
        <>
          <p>{t('lifecycle.purgeExplain')}</p>
          <PurgeCounts counts={status.counts ?? {}} />
          <label>
            {t('lifecycle.purgeType', { name: item.name })}
            <input data-testid="purge-name" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </label>
          {state.error && <p className="banner error">{errorMessage(state.error)}</p>}
          <button
            type="button"
            className="danger"
            data-testid="confirm-purge"
            disabled={typed.trim() !== item.name.trim() || state.isLoading}
            onClick={() =>
              void start({ projectId: item.project_id })
                .unwrap()
                .then(
                  () => setRunning(true),
                  () => undefined,
                )
            }
          >
            {t('lifecycle.purgeConfirm')}
          </button>
        </>
      )}
      {status?.state === 'running' && (
        <p className="banner warning" role="status">
          {t('lifecycle.purging')}
        </p>
      )}
      {done && (
        <>
          <p className="banner ok" role="status" data-testid="purge-done">
            {t('lifecycle.purgedAt', { date: formatDate(status.finished_at) })}
          </p>
          <PurgeCounts counts={status.counts ?? {}} />
        </>
      )}
    </Dialog>
  );
}

/** The workspace owner's deleted projects (in no other list) and their purges. */
export function DeletedProjectsDialog({ organizationId, onClose }: { organizationId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = usePurgesQuery(organizationId);
  const [purging, setPurging] = useState<PurgeStatus | null>(null);
  if (purging) return <PurgeConfirm item={purging} onClose={() => setPurging(null)} />;
  return (
    <Dialog title={t('lifecycle.deletedTitle')} onClose={onClose} testId="deleted-dialog">
      <p>{t('lifecycle.deletedExplain')}</p>
      {isLoading && <p>{t('app.loading')}</p>}
      {error && <p className="banner error">{errorMessage(error)}</p>}
      {data && data.results.length === 0 && <p className="empty">{t('lifecycle.noDeleted')}</p>}
      <ul className="project-list">
        {data?.results.map((p) => (
          <li key={p.project_id} className="deleted-project" data-testid="deleted-project">
            <span className="project-name">{titleCase(p.name)}</span>{' '}
            <span className="muted">{t(`lifecycle.states.${p.state}`)}</span>{' '}
            {p.state !== 'done' && p.state !== 'running' && (
              <button type="button" className="link danger" data-testid="purge-project" onClick={() => setPurging(p)}>
                {t('lifecycle.purge')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
