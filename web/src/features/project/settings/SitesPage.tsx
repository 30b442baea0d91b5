// Sites with their groups and teams; the site popup shows the duration in days or "not set". A site is edited (name,
// geotag, dates) and groups and teams are added and renamed in the app's dialogs; the server refuses a wrong geotag
// ("Need Valid Geotag") and a site named Default, and the dialog shows its message.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../app/hooks';
import { Dialog } from '../../../components/Dialog';
import { useDialogs } from '../../../components/useDialogs';
import { notify } from '../../../components/noticesSlice';
import { FAILURES, failure } from '../../errors/failures';
import {
  useCreateGroupMutation,
  useCreateSiteMutation,
  useCreateTeamMutation,
  useDeleteGroupMutation,
  useDeleteSiteMutation,
  useDeleteTeamMutation,
  useUpdateSiteMutation,
} from '../../projects/projectsApi';
import type { Project, Site } from '../../projects/types';
import { useUpdateGroupMutation, useUpdateTeamMutation } from './hierarchyApi';

/** The duration of a site in days, or "not set" (spec 000 §4 Site popup). */
export function siteDuration(site: Pick<Site, 'duration_days'>, notSet: string, days: (n: number) => string): string {
  return site.duration_days === null || site.duration_days < 0 ? notSet : days(site.duration_days);
}

export function SitesPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const project = useOutletContext<Project>();
  const [popup, setPopup] = useState<Site | null>(null);
  const [form, setForm] = useState({ name: '', lat: '', lng: '', date_start: '', date_end: '' });
  const [createSite, created] = useCreateSiteMutation();
  const [updateSite, updated] = useUpdateSiteMutation();
  const [deleteSite, deleted] = useDeleteSiteMutation();
  const [createGroup, groupMade] = useCreateGroupMutation();
  const [deleteGroup] = useDeleteGroupMutation();
  const [createTeam, teamMade] = useCreateTeamMutation();
  const [deleteTeam] = useDeleteTeamMutation();
  const [updateGroup, groupEdited] = useUpdateGroupMutation();
  const [updateTeam, teamEdited] = useUpdateTeamMutation();
  const [editing, setEditing] = useState<Site | null>(null);
  const dialogs = useDialogs();
  const sites = project.sites ?? [];
  const groups = project.groups ?? [];
  const teams = project.teams ?? [];
  const errors = [
    created.error && failure(created.error, FAILURES.siteCreate),
    updated.error && failure(updated.error, FAILURES.siteActive),
    deleted.error && failure(deleted.error, FAILURES.siteDelete),
    groupMade.error && failure(groupMade.error, FAILURES.groupCreate),
    teamMade.error && failure(teamMade.error, FAILURES.teamCreate),
    groupEdited.error && failure(groupEdited.error, FAILURES.groupEdit),
    teamEdited.error && failure(teamEdited.error, FAILURES.teamEdit),
  ].filter(Boolean);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const lat = Number(form.lat);
    const lng = Number(form.lng);
    const geotag =
      form.lat !== '' && form.lng !== '' && !Number.isNaN(lat) && !Number.isNaN(lng)
        ? { type: 'Point', coordinates: [lng, lat] }
        : null;
    try {
      await createSite({
        projectId: project.id,
        name: form.name,
        geotag,
        date_start: form.date_start || null,
        date_end: form.date_end || null,
      }).unwrap();
      dispatch(notify(t('project.siteCreated')));
      setForm({ name: '', lat: '', lng: '', date_start: '', date_end: '' });
    } catch {
      // shown above
    }
  };
  const ask = (title: string, label: string, value = '') => dialogs.prompt({ title, label, value });

  return (
    <div data-testid="sites">
      {errors.map((m) => (
        <p key={m as string} className="banner error" role="alert">
          {m}
        </p>
      ))}
      <ul className="sites">
        {sites.map((s) => (
          <li key={s.id} className="card" data-testid="site">
            <div className="row">
              <button type="button" className="link site-name" onClick={() => setPopup(s)}>
                {s.name}
              </button>
              <label className="check">
                <input
                  type="checkbox"
                  checked={s.active_flag}
                  onChange={(e) =>
                    void updateSite({ projectId: project.id, siteId: s.id, active_flag: e.target.checked })
                  }
                />
                {t('project.active')}
              </label>
              <button type="button" className="link" data-testid="edit-site" onClick={() => setEditing(s)}>
                {t('hierarchy.edit')}
              </button>
              <button
                type="button"
                className="link"
                data-testid="add-group"
                onClick={() =>
                  void ask(t('project.addGroup'), t('project.groupName')).then((name) => {
                    if (name) void createGroup({ projectId: project.id, name, site: s.id });
                  })
                }
              >
                {t('project.addGroup')}
              </button>
              <button
                type="button"
                className="link danger"
                onClick={() =>
                  void dialogs
                    .confirm({ text: t('project.confirmDeleteSite'), submit: t('project.delete'), danger: true })
                    .then((yes) => {
                      if (yes) void deleteSite({ projectId: project.id, siteId: s.id });
                    })
                }
              >
                {t('project.delete')}
              </button>
            </div>
            <ul>
              {groups
                .filter((g) => g.site === s.id)
                .map((g) => (
                  <li key={g.id} data-testid="group">
                    <span data-testid="group-name">{g.name}</span>{' '}
                    <button
                      type="button"
                      className="link"
                      data-testid="rename-group"
                      aria-label={t('hierarchy.renameGroupOf', { name: g.name })}
                      onClick={() =>
                        void ask(t('hierarchy.renameGroup'), t('project.groupName'), g.name).then((name) => {
                          if (name && name !== g.name) void updateGroup({ projectId: project.id, groupId: g.id, name });
                        })
                      }
                    >
                      {t('hierarchy.rename')}
                    </button>
                    <button
                      type="button"
                      className="link"
                      data-testid="add-team"
                      onClick={() =>
                        void ask(t('project.addTeam'), t('project.teamName')).then((name) => {
                          if (name) void createTeam({ projectId: project.id, name, group: g.id });
                        })
                      }
                    >
                      {t('project.addTeam')}
                    </button>
                    <button
                      type="button"
                      className="link"
                      aria-label={t('hierarchy.deleteGroup', { name: g.name })}
                      onClick={() =>
                        void dialogs
                          .confirm({
                            text: t('hierarchy.confirmDeleteGroup', { name: g.name }),
                            submit: t('project.delete'),
                            danger: true,
                          })
                          .then((yes) => {
                            if (yes) void deleteGroup({ projectId: project.id, groupId: g.id });
                          })
                      }
                    >
                      ×
                    </button>
                    <ul>
                      {teams
                        .filter((tm) => tm.group === g.id)
                        .map((tm) => (
                          <li key={tm.id} data-testid="team">
                            <span data-testid="team-name">{tm.name}</span> ({tm.users.length}){' '}
                            <button
                              type="button"
                              className="link"
                              data-testid="rename-team"
                              aria-label={t('hierarchy.renameTeamOf', { name: tm.name })}
                              onClick={() =>
                                void ask(t('hierarchy.renameTeam'), t('project.teamName'), tm.name).then((name) => {
                                  if (name && name !== tm.name)
                                    void updateTeam({ projectId: project.id, teamId: tm.id, name });
                                })
                              }
                            >
                              {t('hierarchy.rename')}
                            </button>
                            <button
                              type="button"
                              className="link"
                              aria-label={t('hierarchy.deleteTeam', { name: tm.name })}
                              onClick={() =>
                                void dialogs
                                  .confirm({
                                    text: t('hierarchy.confirmDeleteTeam', { name: tm.name }),
                                    submit: t('project.delete'),
                                    danger: true,
                                  })
                                  .then((yes) => {
                                    if (yes) void deleteTeam({ projectId: project.id, teamId: tm.id });
                                  })
                              }
                            >
                              ×
                            </button>
                          </li>
                        ))}
                    </ul>
                  </li>
                ))}
            </ul>
          </li>
        ))}
      </ul>
      <form className="card" onSubmit={(e) => void submit(e)} data-testid="site-form">
        <h2>{t('project.newSite')}</h2>
        <SiteFields prefix="site" form={form} onChange={setForm} />
        <button type="submit" data-testid="site-save">
          {t('project.createSite')}
        </button>
      </form>
      {popup && (
        <Dialog title={popup.name} onClose={() => setPopup(null)} testId="site-popup">
          <p>
            {t('project.duration')}:{' '}
            <strong data-testid="site-duration">
              {siteDuration(popup, t('project.notSet'), (n) => t('project.days', { count: n }))}
            </strong>
          </p>
          <p className="muted">
            {popup.date_start ?? '—'} → {popup.date_end ?? '—'}
          </p>
          <p>{t('projects.responses', { count: popup.total_responses })}</p>
        </Dialog>
      )}
      {editing && <SiteDialog project={project} site={editing} onClose={() => setEditing(null)} />}
      {dialogs.element}
    </div>
  );
}

/** What a site is made or edited with, as typed. */
interface SiteForm {
  name: string;
  lat: string;
  lng: string;
  date_start: string;
  date_end: string;
}

/**
 * A site's name, geotag and dates, in the new-site form and the edit dialog alike; the inputs are named
 * `{prefix}-name`, `-lat`, `-lng`, `-start` and `-end`. The coordinates take the text keyboard: iOS's decimal pad
 * has no minus sign, and half the world's coordinates are negative.
 */
function SiteFields<F extends SiteForm>({
  prefix,
  form,
  onChange,
}: {
  prefix: string;
  form: F;
  onChange: (f: F) => void;
}) {
  const { t } = useTranslation();
  const set = (key: keyof SiteForm) => (e: ChangeEvent<HTMLInputElement>) =>
    onChange({ ...form, [key]: e.target.value });
  return (
    <>
      <label>
        {t('projects.name')}
        <input name={`${prefix}-name`} value={form.name} onChange={set('name')} />
      </label>
      <div className="row">
        <label>
          {t('projects.latitude')}
          <input name={`${prefix}-lat`} value={form.lat} onChange={set('lat')} />
        </label>
        <label>
          {t('projects.longitude')}
          <input name={`${prefix}-lng`} value={form.lng} onChange={set('lng')} />
        </label>
      </div>
      <div className="row">
        <label>
          {t('project.dateStart')}
          <input type="date" name={`${prefix}-start`} value={form.date_start} onChange={set('date_start')} />
        </label>
        <label>
          {t('project.dateEnd')}
          <input type="date" name={`${prefix}-end`} value={form.date_end} onChange={set('date_end')} />
        </label>
      </div>
    </>
  );
}

/** Edits a site's name, geotag and dates; the server's refusal (spec's "Need Valid Geotag") stays in the dialog. */
function SiteDialog({ project, site, onClose }: { project: Project; site: Site; onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [updateSite, updated] = useUpdateSiteMutation();
  const [lng0, lat0] = site.geotag?.coordinates ?? [];
  const [form, setForm] = useState({
    name: site.name,
    lat: lat0 === undefined ? '' : String(lat0),
    lng: lng0 === undefined ? '' : String(lng0),
    date_start: site.date_start ?? '',
    date_end: site.date_end ?? '',
    goal_count: site.goal_count ? String(site.goal_count) : '',
  });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    // What was typed goes to the server as typed (a wrong or missing coordinate is refused there, with its message).
    const num = (v: string) => (v.trim() === '' || Number.isNaN(Number(v)) ? null : Number(v));
    const lat = num(form.lat);
    const lng = num(form.lng);
    const geotag = lat === null || lng === null ? null : { type: 'Point', coordinates: [lng, lat] };
    try {
      await updateSite({
        projectId: project.id,
        siteId: site.id,
        name: form.name,
        // A site without a geotag (the default site) keeps none while both coordinates stay empty.
        ...(form.lat.trim() === '' && form.lng.trim() === '' && !site.geotag ? {} : { geotag }),
        date_start: form.date_start || null,
        date_end: form.date_end || null,
        // Tracking's target: a whole number of responses (empty: none); the server refuses anything else.
        goal_count: form.goal_count.trim() === '' ? 0 : Number(form.goal_count),
      }).unwrap();
      dispatch(notify(t('hierarchy.siteSaved')));
      onClose();
    } catch {
      // shown below
    }
  };
  const error = updated.error && failure(updated.error, FAILURES.siteSave);
  return (
    <Dialog title={t('hierarchy.editSite', { name: site.name })} onClose={onClose} testId="site-dialog">
      <form onSubmit={(e) => void save(e)}>
        {error && (
          <p className="banner error" role="alert" data-testid="site-error">
            {error}
          </p>
        )}
        <SiteFields prefix="edit-site" form={form} onChange={setForm} />
        <label>
          {t('views.tracking.siteTarget')}
          <input
            name="edit-site-target"
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={form.goal_count}
            onChange={(e) => setForm({ ...form, goal_count: e.target.value })}
          />
        </label>
        <div className="row dialog-actions">
          <button type="submit" className="primary" data-testid="site-dialog-save" disabled={updated.isLoading}>
            {t('hierarchy.save')}
          </button>
          <button type="button" className="link" onClick={onClose}>
            {t('hierarchy.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
