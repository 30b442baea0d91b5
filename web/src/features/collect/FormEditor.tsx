// Filling one response: the form (loaded from the server, or from the device when offline), the answers, save and
// complete. Saving writes to the device first and then lets the sync upload it.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordValidity, visibility, type Answers, type SchemaBody } from '@fieldwork/sampler';
import { API_BASE } from '../../app/baseQuery';
import { session } from '../../app/session';
import { FormRenderer, type GeotagValue } from './FormRenderer';
import { deviceId, localStore, type LocalResponse } from './localStore';
import { syncAll } from './sync';

export interface SchemaDoc extends SchemaBody {
  id: number;
  name: string;
  project: number;
  level: number;
}

/** The form: from the server when it answers (then kept on the device), else the device's copy. */
export function useSchemaDoc(schemaId: number, token?: string): { doc?: SchemaDoc; error?: string } {
  const [state, setState] = useState<{ doc?: SchemaDoc; error?: string }>({});
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const auth = token ?? session.read().access;
        const res = await fetch(`${API_BASE}samplerschema/${schemaId}/`, { headers: { Accept: 'application/json', ...(auth ? { Authorization: `JWT ${auth}` } : {}) } });
        if (res.ok) {
          const doc = (await res.json()) as SchemaDoc;
          await localStore.saveForm({ id: doc.id, project: doc.project, doc, saved_at: new Date().toISOString() });
          if (live) setState({ doc });
          return;
        }
        const local = await localStore.form(schemaId);
        if (live) setState(local ? { doc: local.doc as SchemaDoc } : { error: `${res.status}` });
      } catch {
        const local = await localStore.form(schemaId);
        if (live) setState(local ? { doc: local.doc as SchemaDoc } : { error: 'offline' });
      }
    })();
    return () => {
      live = false;
    };
  }, [schemaId, token]);
  return state;
}

export function FormEditor(props: {
  doc: SchemaDoc;
  projectId: number;
  user: number | string;
  existing?: LocalResponse;
  parent?: { response_id: string; sampler_schema: number; data: Record<string, Answers> };
  site?: number;
  token?: string;
  email?: string;
  onSaved: (r: LocalResponse) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const { doc, projectId } = props;
  const lang = doc.primary_language;
  const [responseId] = useState(() => props.existing?.response_id ?? `${projectId}-${doc.id}-${props.user}-${deviceId()}-${Date.now()}-${Math.floor(Math.random() * 1000)}`);
  const [answers, setAnswers] = useState<Answers>(props.existing?.data['0'] ?? {});
  const [message, setMessage] = useState<{ text: string; items: number[] }>({ text: '', items: [] });
  const other = useMemo(() => (props.parent ? { [props.parent.sampler_schema]: props.parent.data['0'] ?? {} } : {}), [props.parent]);
  const shown = useMemo(() => visibility(doc, { schemaId: doc.id, answers, other }), [doc, answers, other]);

  const save = async (complete: boolean) => {
    const validity = recordValidity(doc, answers, shown.items, !complete);
    if (!validity.valid) {
      setMessage({ text: validity.message, items: validity.itemIds });
      return;
    }
    const full = recordValidity(doc, answers, shown.items);
    const geotag = Object.values(answers).find((v): v is GeotagValue => typeof v === 'object' && v !== null && (v as GeotagValue).type === 'Point');
    const now = new Date().toISOString();
    const r: LocalResponse = {
      response_id: responseId,
      project: projectId,
      sampler_schema: doc.id,
      parent_id: props.parent?.response_id ?? props.existing?.parent_id,
      site: props.site ?? props.existing?.site,
      device_id: deviceId(),
      user: typeof props.user === 'number' ? props.user : 0,
      data: { '0': answers },
      geotag: geotag ?? props.existing?.geotag,
      completed: complete || (props.existing?.completed ?? false),
      is_valid: full.valid,
      time_created: props.existing?.time_created ?? now,
      time_updated: now,
      time_uploaded: props.existing?.time_uploaded ?? null,
      sync: 'pending',
      token: props.token,
      email: props.email,
    };
    await localStore.put(r);
    void syncAll();
    props.onSaved(r);
  };

  return (
    <form
      className="collect-form"
      data-testid="collect-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save(true);
      }}
    >
      <h2>{doc.name}</h2>
      <FormRenderer
        body={doc}
        lang={lang}
        answers={answers}
        onChange={(a) => {
          setAnswers(a);
          setMessage({ text: '', items: [] });
        }}
        shown={shown}
        invalid={message.items}
        responseId={responseId}
        projectId={projectId}
      />
      {message.text && (
        <p className="banner error" role="alert" data-testid="validity-message">
          {message.text}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void save(false)} data-testid="save-response">
          {t('collect.save')}
        </button>
        <button type="submit" className="primary" data-testid="complete-response">
          {t('collect.complete')}
        </button>
        {props.onCancel && (
          <button type="button" className="link" onClick={props.onCancel}>
            {t('collect.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
