// The project editor (spec 000 §3 Project editor draft): name, colour, icon, logo, description, location picked on
// the map (or typed). After a create: the parameters screen, or the form-from-upload screen when a file was given.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Dialog } from '../../components/Dialog';
import { LazyMap } from '../../components/LazyMap';
import { notify } from '../../components/noticesSlice';
import { FAILURES, failure } from '../errors/failures';
import {
  useCreateProjectMutation,
  useUpdateProjectMutation,
  useUploadLogoMutation,
  useUploadProjectFileMutation,
} from './projectsApi';
import type { Project } from './types';

/** Location request (spec 000 §9): coarse first, then high accuracy; timeout 30000 ms, maximum age 10000 ms. */
export const LOCATION_OPTIONS = { timeout: 30_000, maximumAge: 10_000 };

function locate(highAccuracy: boolean): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) =>
    navigator.geolocation.getCurrentPosition(resolve, reject, {
      ...LOCATION_OPTIONS,
      enableHighAccuracy: highAccuracy,
    }),
  );
}

export const PLACE_ICONS = ['place', 'local_pizza', 'person_pin', 'person_pin_circle'] as const;
export const SWATCHES = ['5da83d', '1e88e5', 'f4511e', '8e24aa', 'fdd835', '00897b', '6d4c41', '546e7a'];

export function ProjectEditor({
  project,
  folderId,
  onClose,
}: {
  project?: Project;
  folderId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const organizationId = useAppSelector((s) => s.session.organizationId);
  const [name, setName] = useState(project?.name ?? '');
  const [color, setColor] = useState(project?.frontend_color ?? '5da83d');
  const [icon, setIcon] = useState(project?.frontend_icon ?? 'place');
  const [description, setDescription] = useState(project?.description ?? '');
  const [lng, setLng] = useState(project?.geotag ? String(project.geotag.coordinates[0]) : '');
  const [lat, setLat] = useState(project?.geotag ? String(project.geotag.coordinates[1]) : '');
  const [logo, setLogo] = useState<string | undefined>(undefined);
  const [formFile, setFormFile] = useState<File | null>(null);
  const [locationError, setLocationError] = useState('');
  const useMyLocation = async () => {
    setLocationError('');
    let stage = 'Unable to get location';
    try {
      const coarse = await locate(false);
      setLat(String(coarse.coords.latitude));
      setLng(String(coarse.coords.longitude));
      stage = 'Unable to get high accuracy location';
      const fine = await locate(true);
      setLat(String(fine.coords.latitude));
      setLng(String(fine.coords.longitude));
    } catch (err) {
      setLocationError(`${stage} (${(err as GeolocationPositionError).message || String(err)})`);
    }
  };
  const [create, created] = useCreateProjectMutation();
  const [update, updated] = useUpdateProjectMutation();
  const [uploadLogo, logoState] = useUploadLogoMutation();
  const [uploadFile] = useUploadProjectFileMutation();
  const error = created.error ?? updated.error ?? logoState.error;
  const busy = created.isLoading || updated.isLoading || logoState.isLoading;
  const picked: [number, number] | null =
    lat !== '' && lng !== '' && !Number.isNaN(Number(lat)) && !Number.isNaN(Number(lng))
      ? [Number(lng), Number(lat)]
      : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const geotag = picked ? { type: 'Point', coordinates: picked } : null;
    const body = { name, frontend_color: color, frontend_icon: icon, description, geotag, ...(logo ? { logo } : {}) };
    try {
      if (project) {
        await update({ projectId: project.id, ...body }).unwrap();
        dispatch(notify(t('projects.saved')));
        onClose();
        return;
      }
      const made = await create({
        ...body,
        organization_pk: organizationId,
        ...(folderId ? { folder_id: folderId } : {}),
      }).unwrap();
      dispatch(notify(t('projects.created')));
      if (formFile) {
        await uploadFile({ projectId: made.id, file: formFile }).unwrap();
        await navigate(`/project/${made.id}/create-form-from-upload`);
      } else {
        await navigate(`/project/${made.id}/settings/parameters`);
      }
    } catch {
      // shown below
    }
  };

  return (
    <Dialog title={project ? t('projects.edit') : t('projects.create')} onClose={onClose} testId="project-editor">
      <form onSubmit={(e) => void submit(e)} className="editor">
        {error && (
          <p className="banner error" role="alert">
            {failure(error, FAILURES.projectSave)}
          </p>
        )}
        <label>
          {t('projects.name')}
          <input
            name="project-name"
            data-testid="project-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
        </label>
        <fieldset className="swatches">
          <legend>{t('projects.colour')}</legend>
          {SWATCHES.map((c) => (
            <button
              key={c}
              type="button"
              className={c === color ? 'swatch-btn on' : 'swatch-btn'}
              style={{ background: `#${c}` }}
              aria-label={`#${c}`}
              onClick={() => setColor(c)}
            />
          ))}
          <input
            aria-label={t('projects.colour')}
            value={color}
            onChange={(e) => setColor(e.target.value.replace('#', ''))}
            size={7}
          />
        </fieldset>
        <label>
          {t('projects.icon')}
          <select value={icon} onChange={(e) => setIcon(e.target.value)}>
            {PLACE_ICONS.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('projects.logo')}
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file && organizationId)
                void uploadLogo({ organizationId, file })
                  .unwrap()
                  .then(
                    (r) => setLogo(r.file_id),
                    () => undefined,
                  );
            }}
          />
        </label>
        <label>
          {t('projects.description')}
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
        </label>
        <div className="row">
          <label>
            {t('projects.latitude')}
            <input data-testid="project-lat" value={lat} onChange={(e) => setLat(e.target.value)} />
          </label>
          <label>
            {t('projects.longitude')}
            <input data-testid="project-lng" value={lng} onChange={(e) => setLng(e.target.value)} />
          </label>
        </div>
        <p className="muted">
          {t('projects.pickOnMap')}{' '}
          {'geolocation' in navigator && (
            <button type="button" className="link" onClick={() => void useMyLocation()}>
              {t('projects.myLocation')}
            </button>
          )}
        </p>
        {locationError && <p className="field-error">{locationError}</p>}
        <LazyMap
          points={[]}
          picked={picked}
          height={220}
          onPick={(x, y) => {
            setLng(String(x));
            setLat(String(y));
          }}
        />
        {!project && (
          <label>
            {t('projects.formFile')}
            <input
              type="file"
              accept=".csv,.xlsx,.xls,.xml,.json"
              onChange={(e) => setFormFile(e.target.files?.[0] ?? null)}
            />
          </label>
        )}
        <button type="submit" data-testid="project-save" disabled={busy}>
          {t('settings.save')}
        </button>
      </form>
    </Dialog>
  );
}

/** Deleting sets state D, which removes the project from lists. */
export function DeleteProjectDialog({
  project,
  onClose,
  onDelete,
  error,
}: {
  project: { id: number; name: string };
  onClose: () => void;
  onDelete: () => void;
  error?: string;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('projects.delete')} onClose={onClose} testId="delete-dialog">
      <p>{t('projects.deleteConfirm', { name: project.name })}</p>
      <p data-testid="delete-explain">{t('lifecycle.deleteExplain')}</p>
      {error && <p className="banner error">{error}</p>}
      <button type="button" className="danger" data-testid="confirm-delete" onClick={onDelete}>
        {t('projects.delete')}
      </button>
    </Dialog>
  );
}
