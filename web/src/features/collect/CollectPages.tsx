// The collection screens of a project (spec 001 §2: the forms, newrecord, {responseId}/view, edit, newrecord under
// a parent). The list of responses is ResponseListPage. A response is the device's copy while it waits there, else
// the server's.
import { useEffect, useState } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Answers } from '@fieldwork/sampler';
import { visibility } from '@fieldwork/sampler';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { notify } from '../../components/noticesSlice';
import { errorMessage } from '../errors/messages';
import type { Project } from '../projects/types';
import { responsesChanged, useOneResponseQuery } from './collectApi';
import { FormEditor, OfflineReady, useFormsOnDevice, useSchemaDoc, type Submitted } from './FormEditor';
import { FormRenderer } from './FormRenderer';
import { localStore, needsUpload, type LocalResponse } from './localStore';
import { QueuePanel, SyncBadge } from './QueuePanel';
import { SitePicker, useCollectSite } from './SitePicker';
import { startSync } from './sync';
import { useLocalResponses } from './useLocalResponses';

const schemasOf = (p: Project) => [...(p.sampler_schemas ?? [])].sort((a, b) => a.level - b.level);

export function CollectHome() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const top = schemasOf(project).filter((s) => s.level === 0);
  const { unsent } = useLocalResponses(project.id);
  useEffect(() => startSync(), []);
  const forms = useFormsOnDevice(schemasOf(project).map((s) => s.id));
  return (
    <section className="collect-home" data-testid="collect-home">
      <h2>{t('collect.title')}</h2>
      <QueuePanel projectId={project.id} unsent={unsent} />
      <OfflineReady ready={forms.ready} />
      {top.length === 0 && <p className="muted">{t('collect.noForm')}</p>}
      <ul className="cards">
        {top.map((s) => (
          <li key={s.id} className="form-card">
            <strong>{s.name}</strong>
            <div className="card-actions">
              <Link className="button primary" to={`/project/${project.id}/collect/newrecord`}>
                {t('collect.newRecord')}
              </Link>
              <Link className="button" to={`/project/${project.id}/collect/${s.id}/list`}>
                {t('collect.responses')}
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the person is told once a response is submitted, and where they go. */
function useSubmitted(project: Project, schemaId: number | undefined) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return (how: Submitted, r: LocalResponse) => {
    if (how === 'uploaded') dispatch(responsesChanged(project.id, r.response_id));
    dispatch(notify(t(`collect.submitted.${how}`)));
    void navigate(`/project/${project.id}/collect/${schemaId ?? r.sampler_schema}/list`);
  };
}

/** A response, the device's copy first (it may wait there), else the server's. */
function useResponse(
  projectId: number,
  responseId: string | undefined,
): { row?: LocalResponse; missing: boolean; error?: string } {
  const [local, setLocal] = useState<LocalResponse | null | undefined>();
  useEffect(() => {
    setLocal(undefined);
    if (responseId) void localStore.get(responseId).then((l) => setLocal(l ?? null));
  }, [responseId]);
  const remote = useOneResponseQuery(
    { projectId, responseId: responseId ?? '' },
    { skip: !responseId || local !== null },
  );
  if (!responseId) return { missing: false };
  // The device's copy while it is not yet on the server (or needs attention); once uploaded, the server's is newer.
  if (local && (needsUpload(local) || remote.isError)) return { row: local, missing: false };
  if (remote.data) {
    const s = remote.data;
    return {
      row: {
        response_id: s.response_id,
        project: projectId,
        sampler_schema: s.sampler_schema,
        parent_id: s.parent_id ?? undefined,
        site: s.site_id ?? undefined,
        device_id: '',
        user: s.user ?? 0,
        data: s.data,
        completed: s.completed,
        is_valid: true,
        time_created: s.time_created,
        time_updated: s.time_updated,
        time_uploaded: s.time_uploaded,
        sync: 'uploaded',
      },
      missing: false,
    };
  }
  if (local) return { row: local, missing: false };
  if (remote.isError) {
    const status = 'status' in remote.error ? remote.error.status : undefined;
    return status === 404 ? { missing: true } : { missing: false, error: errorMessage(remote.error) };
  }
  return { missing: false };
}

/** A new record of the first level, or (with a parent response id) of the level below that response's. */
export function NewRecordPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const { responseId } = useParams();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.session.user);
  const parent = useResponse(project.id, responseId);
  const schemas = schemasOf(project);
  const parentLevel = parent.row ? (schemas.find((s) => s.id === parent.row!.sampler_schema)?.level ?? 0) : -1;
  const schema = responseId ? schemas.find((s) => s.level === parentLevel + 1) : schemas.find((s) => s.level === 0);
  const { doc, error } = useSchemaDoc(schema?.id ?? 0);
  const [site, setSite] = useCollectSite(project);
  const submitted = useSubmitted(project, schema?.id);
  useEffect(() => startSync(), []);
  if (responseId && parent.missing) return <p className="banner error">{t('collect.notFound')}</p>;
  if (responseId && !parent.row) return <div className="loading">{parent.error ?? t('app.loading')}</div>;
  if (!schema) return <p className="banner error">{t('collect.noForm')}</p>;
  if (error) return <p className="banner error">{t('collect.formUnavailable')}</p>;
  if (!doc) return <div className="loading">{t('app.loading')}</div>;
  return (
    <>
      <SitePicker project={project} site={site} onChange={setSite} />
      <FormEditor
        doc={doc}
        projectId={project.id}
        user={user?.id ?? 0}
        parent={parent.row}
        site={site}
        onSubmitted={submitted}
        onCancel={() => void navigate(-1)}
      />
    </>
  );
}

export function ResponsePage({ mode }: { mode: 'view' | 'edit' }) {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const responseId = useParams().responseId ?? '';
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.session.user);
  const { row, missing, error } = useResponse(project.id, responseId);
  // A record of a lower level: its parent's answers take part in its conditions, as on the server.
  const parent = useResponse(project.id, row?.parent_id);
  const { doc } = useSchemaDoc(row?.sampler_schema ?? 0);
  const submitted = useSubmitted(project, row?.sampler_schema);
  useEffect(() => startSync(), []);
  if (missing) return <p className="banner error">{t('collect.notFound')}</p>;
  if (error) return <p className="banner error">{error}</p>;
  if (!row || !doc) return <div className="loading">{t('app.loading')}</div>;
  if (mode === 'edit') {
    return (
      <FormEditor
        key={row.response_id}
        doc={doc}
        projectId={project.id}
        user={user?.id ?? 0}
        existing={row}
        parent={parent.row}
        onSubmitted={submitted}
        onCancel={() => void navigate(-1)}
      />
    );
  }
  const answers: Answers = row.data['0'] ?? {};
  return (
    <section data-testid="response-view">
      <h2>
        {doc.name} <SyncBadge state={row.sync} />
      </h2>
      {row.sync === 'failed' && row.error && <p className="banner error">{row.error}</p>}
      <FormRenderer
        body={doc}
        lang={doc.primary_language}
        answers={answers}
        onChange={() => undefined}
        shown={visibility(doc, { schemaId: doc.id, answers })}
        problems={new Map()}
        readOnly
        responseId={row.response_id}
        projectId={project.id}
      />
      <Link className="button" to={`/project/${project.id}/collect/${encodeURIComponent(row.response_id)}/edit`}>
        {t('collect.edit')}
      </Link>
    </section>
  );
}
