// The collection screens of a project (spec 001 §2: newrecord, {schemaId}/list, {responseId}/view, edit, newrecord
// under a parent): the device's responses merged with the server's, each with where it is on its way up.
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Answers } from '@fieldwork/sampler';
import { API_BASE } from '../../app/baseQuery';
import { useAppSelector } from '../../app/hooks';
import { session } from '../../app/session';
import type { Project } from '../projects/types';
import { FormEditor, useSchemaDoc } from './FormEditor';
import { FormRenderer } from './FormRenderer';
import { localStore, needsUpload, onLocalChange, type LocalResponse, type SyncState } from './localStore';
import { startSync } from './sync';
import { visibility } from '@fieldwork/sampler';

/** A response of the server, in the fields the screens use. */
export interface ServerResponse {
  id: number;
  response_id: string;
  sampler_schema: number;
  parent_id: string | null;
  data: Record<string, Answers>;
  completed: boolean;
  deleted: boolean;
  display_name: string;
  time_created: string;
  time_updated: string;
  time_uploaded: string;
  site_id: number | null;
  children_count: number;
}

interface Row {
  response_id: string;
  sampler_schema: number;
  parent_id?: string | null;
  data: Record<string, Answers>;
  completed: boolean;
  time_updated: string;
  sync: SyncState;
  error?: string;
  local?: LocalResponse;
}

async function apiGet<T>(path: string): Promise<T> {
  const access = session.read().access;
  const res = await fetch(`${API_BASE}${path}`, { headers: { Accept: 'application/json', ...(access ? { Authorization: `JWT ${access}` } : {}) } });
  if (!res.ok) throw new Error(String(res.status));
  return (await res.json()) as T;
}

/** Every response of the project the caller may see: 5000 at a time while a batch is full (spec 001 §7). */
async function fetchAll(projectId: number): Promise<ServerResponse[]> {
  const out: ServerResponse[] = [];
  let page = await apiGet<{ results: ServerResponse[] }>(`project/${projectId}/response/?limit=5000`);
  out.push(...page.results);
  while (page.results.length === 5000) {
    page = await apiGet<{ results: ServerResponse[] }>(`project/${projectId}/response/from/${page.results[page.results.length - 1]!.id}/?limit=5000`);
    out.push(...page.results);
  }
  return out;
}

/** The device's and the server's responses of a project, merged; re-read on every local change. */
function useResponses(projectId: number): { rows: Row[]; offline: boolean; reload: () => void } {
  const [rows, setRows] = useState<Row[]>([]);
  const [offline, setOffline] = useState(false);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => onLocalChange(reload), [reload]);
  useEffect(() => startSync(), []);
  useEffect(() => {
    let live = true;
    void (async () => {
      const local = await localStore.byProject(projectId);
      let server: ServerResponse[] = [];
      let off = false;
      try {
        server = await fetchAll(projectId);
      } catch {
        off = true;
      }
      const byId = new Map<string, Row>();
      for (const s of server) {
        if (s.deleted) continue;
        byId.set(s.response_id, { ...s, sync: 'uploaded' });
      }
      for (const l of local) {
        const waiting = needsUpload(l) || l.sync === 'failed' || l.sync === 'uploading';
        // The device's copy wins while it waits; an uploaded one missing from the page is added (spec 001 §4).
        if (waiting || !byId.has(l.response_id)) byId.set(l.response_id, { ...l, local: l });
      }
      if (live) {
        setRows([...byId.values()].sort((a, b) => b.time_updated.localeCompare(a.time_updated)));
        setOffline(off);
      }
    })();
    return () => {
      live = false;
    };
  }, [projectId, tick]);
  return { rows, offline, reload };
}

export function SyncBadge({ state, error }: { state: SyncState; error?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`sync sync-${state}`} data-testid="sync-state" title={error}>
      {t(`collect.sync.${state}`)}
      {error ? `: ${error}` : ''}
    </span>
  );
}

const schemasOf = (p: Project) => [...(p.sampler_schemas ?? [])].sort((a, b) => a.level - b.level);

export function CollectHome() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const top = schemasOf(project).filter((s) => s.level === 0);
  return (
    <section className="collect-home" data-testid="collect-home">
      <h2>{t('collect.title')}</h2>
      <ul>
        {top.map((s) => (
          <li key={s.id}>
            <strong>{s.name}</strong> <Link to={`/project/${project.id}/collect/newrecord`}>{t('collect.newRecord')}</Link> ·{' '}
            <Link to={`/project/${project.id}/collect/${s.id}/list`}>{t('collect.responses')}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A new record of the first level, or (with a parent response id) of the level below that response's. */
export function NewRecordPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const { responseId } = useParams();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.session.user);
  const [parent, setParent] = useState<Row | undefined>();
  useEffect(() => {
    if (!responseId) return;
    void localStore.get(responseId).then(async (l) => {
      if (l) return setParent({ ...l, local: l });
      const s = await apiGet<ServerResponse>(`project/${project.id}/response/single/${responseId}/`).catch(() => undefined);
      if (s) setParent({ ...s, sync: 'uploaded' });
    });
  }, [responseId, project.id]);
  const schemas = schemasOf(project);
  const parentLevel = parent ? (schemas.find((s) => s.id === parent.sampler_schema)?.level ?? 0) : -1;
  const schema = responseId ? schemas.find((s) => s.level === parentLevel + 1) : schemas.find((s) => s.level === 0);
  const { doc, error } = useSchemaDoc(schema?.id ?? 0);
  if (responseId && !parent) return <div className="loading">{t('app.loading')}</div>;
  if (!schema) return <p className="banner error">{t('collect.noForm')}</p>;
  if (error) return <p className="banner error">{t('collect.formUnavailable')}</p>;
  if (!doc) return <div className="loading">{t('app.loading')}</div>;
  return (
    <FormEditor
      doc={doc}
      projectId={project.id}
      user={user?.id ?? 0}
      parent={parent}
      site={project.sites?.[0]?.id}
      onSaved={() => void navigate(`/project/${project.id}/collect/${schema.id}/list`)}
      onCancel={() => void navigate(-1)}
    />
  );
}

export function ResponseListPage() {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const schemaId = Number(useParams().schemaId);
  const { rows, offline } = useResponses(project.id);
  const mine = rows.filter((r) => r.sampler_schema === schemaId);
  const waiting = mine.filter((r) => r.sync !== 'uploaded').length;
  return (
    <section className="response-list" data-testid="response-list">
      <header>
        <h2>{t('collect.responses')}</h2>
        <Link to={`/project/${project.id}/collect/newrecord`} className="button primary">
          {t('collect.newRecord')}
        </Link>
        <span className="muted" data-testid="sync-summary">
          {offline ? t('collect.offline') : ''} {waiting > 0 ? t('collect.waiting', { count: waiting }) : t('collect.allUploaded')}
        </span>
      </header>
      <table>
        <thead>
          <tr>
            <th>{t('collect.response')}</th>
            <th>{t('collect.updated')}</th>
            <th>{t('collect.status')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {mine.map((r) => (
            <tr key={r.response_id} data-testid="response-row" data-response-id={r.response_id}>
              <td>{summary(r.data)}</td>
              <td>{new Date(r.time_updated).toLocaleString()}</td>
              <td>
                {r.completed ? t('collect.completed') : t('collect.open')} · <SyncBadge state={r.sync} error={r.error} />
              </td>
              <td>
                <Link to={`/project/${project.id}/collect/${encodeURIComponent(r.response_id)}/view`}>{t('collect.view')}</Link> ·{' '}
                <Link to={`/project/${project.id}/collect/${encodeURIComponent(r.response_id)}/edit`}>{t('collect.edit')}</Link>
                {schemasOf(project).some((s) => s.level > 0) && (
                  <>
                    {' '}· <Link to={`/project/${project.id}/collect/${encodeURIComponent(r.response_id)}/newrecord`}>{t('collect.addChild')}</Link>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {mine.length === 0 && <p className="muted">{t('collect.none')}</p>}
    </section>
  );
}

/** The first few answers, as a line. */
function summary(data: Record<string, Answers>): string {
  const values = Object.values(data['0'] ?? {}).filter((v) => typeof v === 'string' || typeof v === 'number');
  return values.slice(0, 3).join(' · ') || '—';
}

function useOneResponse(projectId: number, responseId: string): Row | undefined | null {
  const [row, setRow] = useState<Row | undefined | null>();
  useEffect(() => {
    void localStore.get(responseId).then(async (l) => {
      if (l) return setRow({ ...l, local: l });
      const s = await apiGet<ServerResponse>(`project/${projectId}/response/single/${encodeURIComponent(responseId)}/`).catch(() => undefined);
      setRow(s ? { ...s, sync: 'uploaded' } : null);
    });
  }, [projectId, responseId]);
  return row;
}

export function ResponsePage({ mode }: { mode: 'view' | 'edit' }) {
  const { t } = useTranslation();
  const project = useOutletContext<Project>();
  const responseId = useParams().responseId ?? '';
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.session.user);
  const row = useOneResponse(project.id, responseId);
  const { doc } = useSchemaDoc(row?.sampler_schema ?? 0);
  if (row === null) return <p className="banner error">{t('collect.notFound')}</p>;
  if (!row || !doc) return <div className="loading">{t('app.loading')}</div>;
  if (mode === 'edit') {
    const existing: LocalResponse = row.local ?? {
      response_id: row.response_id,
      project: project.id,
      sampler_schema: row.sampler_schema,
      parent_id: row.parent_id ?? undefined,
      device_id: '',
      user: user?.id ?? 0,
      data: row.data,
      completed: row.completed,
      is_valid: true,
      time_created: (row as unknown as ServerResponse).time_created,
      time_updated: row.time_updated,
      time_uploaded: (row as unknown as ServerResponse).time_uploaded,
      sync: 'uploaded',
    };
    return (
      <FormEditor
        doc={doc}
        projectId={project.id}
        user={user?.id ?? 0}
        existing={existing}
        onSaved={() => void navigate(`/project/${project.id}/collect/${doc.id}/list`)}
        onCancel={() => void navigate(-1)}
      />
    );
  }
  const answers = row.data['0'] ?? {};
  return (
    <section data-testid="response-view">
      <h2>
        {doc.name} <SyncBadge state={row.sync} error={row.error} />
      </h2>
      <FormRenderer
        body={doc}
        lang={doc.primary_language}
        answers={answers}
        onChange={() => undefined}
        shown={visibility(doc, { schemaId: doc.id, answers })}
        invalid={[]}
        readOnly
        responseId={row.response_id}
        projectId={project.id}
      />
      <Link to={`/project/${project.id}/collect/${encodeURIComponent(row.response_id)}/edit`}>{t('collect.edit')}</Link>
    </section>
  );
}
