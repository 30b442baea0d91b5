// The projects view (spec 000 §2): folders with a breadcrumb from "Workspace Home", view modes (cards, list, map),
// project cards, the project editor and the delete dialog.
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { LazyMap } from '../../components/LazyMap';
import { notify } from '../../components/noticesSlice';
import { formatDate } from '../../lib/dates';
import { titleCase } from '../../lib/text';
import { errorMessage } from '../errors/messages';
import { FAILURES, failure } from '../errors/failures';
import { useGetOrganizationQuery, useListOrganizationsQuery } from '../session/sessionApi';
import { workspaceChosen } from '../session/sessionSlice';
import type { ProjectSummary } from '../session/types';
import { useWorkspace } from '../session/useWorkspace';
import { DeleteProjectDialog, ProjectEditor } from './ProjectEditor';
import { DeletedProjectsDialog, DuplicateDialog, MoveDialog, NewFolderDialog } from './LifecycleDialogs';
import { useDeleteFolderMutation, useFoldersQuery, usePurgesQuery, useSetStatusMutation } from './projectsApi';
import type { FolderItem, GeoPoint } from './types';

type Summary = ProjectSummary & { folder_id: number | null; geotag: GeoPoint | null };
const VIEW_MODES = ['cards', 'list', 'map'] as const;

export function ProjectsPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const organizationId = useAppSelector((s) => s.session.organizationId);
  const [params, setParams] = useSearchParams();
  const folderId = Number(params.get('folder') ?? 0);
  const view = (VIEW_MODES as readonly string[]).includes(params.get('view') ?? '') ? params.get('view')! : 'cards';
  const {
    data: org,
    error,
    isLoading,
  } = useGetOrganizationQuery(organizationId ?? 0, { skip: organizationId === null });
  const { data: folderList } = useFoldersQuery(organizationId ?? 0, { skip: organizationId === null });
  const { data: all } = useListOrganizationsQuery(undefined);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Summary | null>(null);
  const [setStatus, statusState] = useSetStatusMutation();
  const [deleteFolder] = useDeleteFolderMutation();
  const [dialog, setDialog] = useState<
    { kind: 'folder' } | { kind: 'deleted' } | { kind: 'duplicate' | 'move'; project: Summary } | null
  >(null);
  const close = () => setDialog(null);
  // Projects and folders are made and removed by those who manage the workspace's projects (spec 000 §6).
  const manages = useWorkspace().can('projects');
  // Deleted projects and their purge are the workspace owner's: the list answers only them.
  const purges = usePurgesQuery(organizationId ?? 0, { skip: organizationId === null || !manages });
  const ownsWorkspace = manages && purges.isSuccess;

  const folders = useMemo(() => (folderList?.results ?? []).filter((f) => f.type === 'folder'), [folderList]);
  const projects = ((org?.project_details ?? []) as Summary[]).filter((p) => (p.folder_id ?? 0) === folderId);
  const here = folders.filter((f) => f.folder === folderId);
  const trail: FolderItem[] = [];
  for (
    let f = folders.find((x) => x.id === folderId);
    f && trail.length < 50;
    f = folders.find((x) => x.id === f!.folder)
  )
    trail.unshift(f);
  const go = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next))
      if (v === null) p.delete(k);
      else p.set(k, v);
    setParams(p);
  };

  return (
    <section data-testid="projects-screen">
      <nav className="breadcrumb" aria-label="breadcrumb">
        <button type="button" className="link" onClick={() => go({ folder: null })}>
          {t('projects.home')}
        </button>
        {trail.map((f) => (
          <span key={f.id}>
            {' / '}
            <button type="button" className="link" onClick={() => go({ folder: String(f.id) })}>
              {f.name}
            </button>
          </span>
        ))}
      </nav>
      <div className="page-head">
        <h1>{t('projects.title')}</h1>
        <div className="toolbar">
          {all && all.results.length > 1 && (
            <select
              aria-label={t('projects.switch')}
              data-testid="workspace-select"
              value={organizationId ?? ''}
              onChange={(e) => {
                const chosen = all.results.find((o) => o.id === Number(e.target.value));
                if (chosen) dispatch(workspaceChosen({ id: chosen.id, name: chosen.name }));
              }}
            >
              {all.results.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          )}
          <select
            aria-label={t('projects.view')}
            data-testid="view-mode"
            value={view}
            onChange={(e) => go({ view: e.target.value })}
          >
            {VIEW_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`projects.views.${m}`)}
              </option>
            ))}
          </select>
          {manages && (
            <button type="button" data-testid="new-folder" onClick={() => setDialog({ kind: 'folder' })}>
              {t('projects.newFolder')}
            </button>
          )}
          {ownsWorkspace && (
            <button type="button" data-testid="deleted-projects" onClick={() => setDialog({ kind: 'deleted' })}>
              {t('lifecycle.deletedTitle')}
            </button>
          )}
          {manages && (
            <button type="button" data-testid="new-project" onClick={() => setCreating(true)}>
              {t('projects.create')}
            </button>
          )}
        </div>
      </div>
      {all && all.results.length === 0 && <p className="banner error">No workspaces found!</p>}
      {error && <p className="banner error">{errorMessage(error)}</p>}
      {isLoading && <p>{t('app.loading')}</p>}
      {org && projects.length === 0 && here.length === 0 && <p className="empty">{t('projects.empty')}</p>}
      {view === 'map' ? (
        <LazyMap
          points={projects
            .filter((p) => p.geotag)
            .map((p) => ({
              id: p.id,
              name: titleCase(p.name),
              longitude: p.geotag!.coordinates[0],
              latitude: p.geotag!.coordinates[1],
              color: p.frontend_color,
            }))}
        />
      ) : (
        <ul className={view === 'list' ? 'project-list' : 'project-grid'}>
          {here.map((f) => (
            <li key={`f${f.id}`} className="project-card folder" data-testid="folder-card">
              <button type="button" className="link" onClick={() => go({ folder: String(f.id) })}>
                📁 {f.name}
              </button>
              {manages && (
                <button
                  type="button"
                  className="link muted"
                  aria-label={t('projects.deleteFolder')}
                  onClick={() => organizationId && void deleteFolder({ organizationId, folderId: f.id })}
                >
                  ×
                </button>
              )}
            </li>
          ))}
          {projects.map((p) => (
            <li key={p.id} className="project-card" data-testid="project-card">
              <Link to={`/project/${p.id}`}>
                <span className="swatch" style={{ background: `#${p.frontend_color}` }} aria-hidden="true" />
                <span className="project-name">{titleCase(p.name)}</span>
                <span className="state">
                  {t(`projects.states.${p.project_state}`, { defaultValue: p.project_state })}
                </span>
                <span className="muted">{t('projects.responses', { count: p.total_responses })}</span>
                <span className="muted">{t('projects.updated', { date: formatDate(p.time_updated) })}</span>
              </Link>
              {manages && (
                <div className="card-actions">
                  <button
                    type="button"
                    className="link muted"
                    data-testid="duplicate-project"
                    onClick={() => setDialog({ kind: 'duplicate', project: p })}
                  >
                    {t('lifecycle.duplicate')}
                  </button>
                  <button
                    type="button"
                    className="link muted"
                    data-testid="move-project"
                    onClick={() => setDialog({ kind: 'move', project: p })}
                  >
                    {t('lifecycle.move')}
                  </button>
                  <button
                    type="button"
                    className="link muted"
                    data-testid="delete-project"
                    onClick={() => setDeleting(p)}
                  >
                    {t('projects.delete')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {creating && <ProjectEditor folderId={folderId || undefined} onClose={() => setCreating(false)} />}
      {organizationId !== null && dialog?.kind === 'folder' && (
        <NewFolderDialog organizationId={organizationId} parent={folderId} onClose={close} />
      )}
      {dialog?.kind === 'duplicate' && <DuplicateDialog project={dialog.project} folders={folders} onClose={close} />}
      {organizationId !== null && dialog?.kind === 'move' && (
        <MoveDialog project={dialog.project} organizationId={organizationId} folders={folders} onClose={close} />
      )}
      {organizationId !== null && dialog?.kind === 'deleted' && (
        <DeletedProjectsDialog organizationId={organizationId} onClose={close} />
      )}
      {deleting && (
        <DeleteProjectDialog
          project={deleting}
          error={statusState.error ? failure(statusState.error, FAILURES.status) : undefined}
          onClose={() => setDeleting(null)}
          onDelete={() =>
            void setStatus({ projectId: deleting.id, project_state: 'D' })
              .unwrap()
              .then(
                () => {
                  dispatch(notify(t('projects.deleted')));
                  setDeleting(null);
                },
                () => undefined,
              )
          }
        />
      )}
    </section>
  );
}
