// The site a new response is filed under: the collector's own, or (with several sites) the one they choose,
// remembered per project on this device.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project } from '../projects/types';

const key = (projectId: number) => `fw.collectSite.${projectId}`;

/** The sites the caller may file responses under (their own first), as the server said. */
function sitesOf(project: Project) {
  const byId = new Map((project.sites ?? []).map((s) => [s.id, s]));
  return (project.collect_sites ?? []).map((id) => byId.get(id)).filter((s) => s !== undefined);
}

export function useCollectSite(project: Project): [number | undefined, (site: number) => void] {
  const allowed = sitesOf(project).map((s) => s.id);
  const [chosen, setChosen] = useState(() => Number(localStorage.getItem(key(project.id))));
  const site = allowed.includes(chosen) ? chosen : allowed[0];
  const choose = (s: number) => {
    localStorage.setItem(key(project.id), String(s));
    setChosen(s);
  };
  return [site, choose];
}

export function SitePicker({
  project,
  site,
  onChange,
}: {
  project: Project;
  site: number | undefined;
  onChange: (site: number) => void;
}) {
  const { t } = useTranslation();
  const sites = sitesOf(project);
  if (sites.length < 2) return null;
  return (
    <label className="site-picker card">
      {t('collect.site')}
      <select value={site ?? ''} onChange={(e) => onChange(Number(e.target.value))} data-testid="collect-site">
        {sites.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}
