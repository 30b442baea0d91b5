// Sites with their groups and teams; the site popup shows the duration in days or "not set".
import { useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../app/hooks';
import { Dialog } from '../../../components/Dialog';
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
  const sites = project.sites ?? [];
  const groups = project.groups ?? [];
  const teams = project.teams ?? [];
  const errors = [
    created.error && failure(created.error, FAILURES.siteCreate),
    updated.error && failure(updated.error, FAILURES.siteActive),
    deleted.error && failure(deleted.error, FAILURES.siteDelete),
    groupMade.error && failure(groupMade.error, FAILURES.groupCreate),
    teamMade.error && failure(teamMade.error, FAILURES.teamCreate),
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
  const ask = (label: string) => window.prompt(label)?.trim() ?? '';

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
              <button
                type="button"
                className="link"
                data-testid="add-group"
                onClick={() => {
                  const name = ask(t('project.groupName'));
                  if (name) void createGroup({ projectId: project.id, name, site: s.id });
                }}
              >
                {t('project.addGroup')}
              </button>
              <button
                type="button"
                className="link danger"
                onClick={() =>
                  window.confirm(t('project.confirmDeleteSite')) &&
                  void deleteSite({ projectId: project.id, siteId: s.id })
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
                    {g.name}{' '}
                    <button
                      type="button"
                      className="link"
                      data-testid="add-team"
                      onClick={() => {
                        const name = ask(t('project.teamName'));
                        if (name) void createTeam({ projectId: project.id, name, group: g.id });
                      }}
                    >
                      {t('project.addTeam')}
                    </button>
                    <button
                      type="button"
                      className="link"
                      onClick={() => void deleteGroup({ projectId: project.id, groupId: g.id })}
                    >
                      ×
                    </button>
                    <ul>
                      {teams
                        .filter((tm) => tm.group === g.id)
                        .map((tm) => (
                          <li key={tm.id} data-testid="team">
                            {tm.name} ({tm.users.length}){' '}
                            <button
                              type="button"
                              className="link"
                              onClick={() => void deleteTeam({ projectId: project.id, teamId: tm.id })}
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
        <label>
          {t('projects.name')}
          <input name="site-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <div className="row">
          <label>
            {t('projects.latitude')}
            <input name="site-lat" value={form.lat} onChange={(e) => setForm({ ...form, lat: e.target.value })} />
          </label>
          <label>
            {t('projects.longitude')}
            <input name="site-lng" value={form.lng} onChange={(e) => setForm({ ...form, lng: e.target.value })} />
          </label>
        </div>
        <div className="row">
          <label>
            {t('project.dateStart')}
            <input
              type="date"
              name="site-start"
              value={form.date_start}
              onChange={(e) => setForm({ ...form, date_start: e.target.value })}
            />
          </label>
          <label>
            {t('project.dateEnd')}
            <input
              type="date"
              name="site-end"
              value={form.date_end}
              onChange={(e) => setForm({ ...form, date_end: e.target.value })}
            />
          </label>
        </div>
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
    </div>
  );
}
