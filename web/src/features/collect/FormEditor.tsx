// Filling one response: the form (loaded from the server, or from the device when offline), the answers, save and
// complete. Every answer is checked with packages/sampler (the responses service's own check) before anything is
// queued or sent; a response is kept on the device, durably, before it is sent; the person is told it is saved only
// when the server has it, or that it waits on this device when it does not yet.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Answers, type SchemaBody } from '@fieldwork/sampler';
import { API_BASE } from '../../app/baseQuery';
import { session } from '../../app/session';
import { FormRenderer, type GeotagValue } from './FormRenderer';
import { deviceId, localStore, newResponseId, type LocalResponse } from './localStore';
import { uploadOne, type Outcome } from './sync';
import { translateKnown } from '../../i18n/known';
import { checkForm, hasProblems, NO_PROBLEMS, problemsFromStored, type FormProblems } from './validation';

export interface SchemaDoc extends SchemaBody {
  id: number;
  name: string;
  project: number;
  level: number;
}

/** How long the form waits for the server before it tells the person the response waits on the device. */
export const SEND_WAIT_MS = 20_000;

/** The form from the server, kept on the device as it comes; undefined with the server's status when it refuses. */
async function fetchForm(schemaId: number, token?: string): Promise<{ doc?: SchemaDoc; status: number }> {
  const auth = token ?? session.read().access;
  const res = await fetch(`${API_BASE}samplerschema/${schemaId}/`, {
    headers: { Accept: 'application/json', ...(auth ? { Authorization: `JWT ${auth}` } : {}) },
  });
  if (!res.ok) return { status: res.status };
  const doc = (await res.json()) as SchemaDoc;
  await localStore.saveForm({ id: doc.id, project: doc.project, doc, saved_at: new Date().toISOString() });
  return { doc, status: res.status };
}

/** A form kept on the device is read again from the server when it is older than this. */
const FORM_FRESH_MS = 10 * 60_000;

/**
 * Keeps the project's forms on the device while the network is there, so that a collector who opened the project
 * online can fill any of its forms offline later.
 */
export function useFormsOnDevice(schemaIds: number[]): { ready: boolean } {
  const key = schemaIds.join(',');
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    const ids = key
      .split(',')
      .map(Number)
      .filter((n) => n > 0);
    void Promise.all(
      ids.map(async (id) => {
        const kept = await localStore.form(id).catch(() => undefined);
        if (kept && (!navigator.onLine || Date.now() - Date.parse(kept.saved_at) < FORM_FRESH_MS)) return true;
        if (!navigator.onLine) return false;
        return (await fetchForm(id).catch(() => ({ doc: undefined }))).doc !== undefined || kept !== undefined;
      }),
    ).then((all) => live && setReady(all.length > 0 && all.every(Boolean)));
    return () => {
      live = false;
    };
  }, [key]);
  return { ready };
}

/** Says that the project's forms can be filled without a network on this device. */
export function OfflineReady({ ready }: { ready: boolean }) {
  const { t } = useTranslation();
  return ready ? (
    <p className="muted offline-ready" data-testid="offline-ready">
      {t('collect.offlineReady')}
    </p>
  ) : null;
}

/**
 * The form: the device's copy at once when it has one (the screen is usable without waiting for the network), then
 * the server's when it answers (kept on the device); without either, why not.
 */
export function useSchemaDoc(schemaId: number, token?: string): { doc?: SchemaDoc; error?: string } {
  const [state, setState] = useState<{ doc?: SchemaDoc; error?: string; of?: number }>({});
  useEffect(() => {
    let live = true;
    // No form yet (a response still loading): nothing to ask for.
    if (!(schemaId > 0)) return;
    void (async () => {
      const kept = (await localStore.form(schemaId).catch(() => undefined))?.doc as SchemaDoc | undefined;
      if (kept && live) setState({ doc: kept, of: schemaId });
      try {
        const fetched = await fetchForm(schemaId, token);
        if (!live) return;
        if (fetched.doc) setState({ doc: fetched.doc, of: schemaId });
        else if (!kept) setState({ error: `${fetched.status}`, of: schemaId });
      } catch {
        if (live && !kept) setState({ error: 'offline', of: schemaId });
      }
    })();
    return () => {
      live = false;
    };
  }, [schemaId, token]);
  // Only the asked-for schema's: a new record below a response first asks for the first level's form while the
  // parent response loads, and a form kept from that would give the record the wrong schema's response id.
  if (state.of !== schemaId) return {};
  return state.doc ? { doc: state.doc } : state.error !== undefined ? { error: state.error } : {};
}

/** Where a submitted response ended: on the server, or waiting on this device (offline, slow, signed out). */
export type Submitted = 'uploaded' | 'queued' | 'signed-out';

/** Moves to the first question that needs attention and puts the focus in it. */
function jumpToFirstProblem(form: HTMLFormElement | null): void {
  const first =
    form?.querySelector<HTMLElement>('[data-testid="form-question"].invalid') ??
    form?.querySelector<HTMLElement>('[data-testid="validity-message"]');
  if (!first) return;
  first.scrollIntoView({ block: 'center' });
  const control = first.querySelector<HTMLElement>('input, select, textarea, [tabindex]') ?? first;
  control.focus({ preventScroll: true });
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
  onSubmitted: (how: Submitted, r: LocalResponse) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const { doc, projectId } = props;
  const lang = doc.primary_language;
  const formRef = useRef<HTMLFormElement>(null);
  const [responseId] = useState(() => props.existing?.response_id ?? newResponseId(projectId, doc.id, props.user));
  const [answers, setAnswers] = useState<Answers>(props.existing?.data['0'] ?? {});
  // What the server said of this response last (kept with a queued response that needs attention).
  const [server, setServer] = useState<FormProblems>(() => problemsFromStored(props.existing?.problems));
  // Questions the person has left, and whether they tried to save (then every problem shows) and how.
  const [touched, setTouched] = useState<ReadonlySet<number>>(new Set());
  const [attempt, setAttempt] = useState<'save' | 'complete' | undefined>();
  const [sending, setSending] = useState(false);
  const [jump, setJump] = useState(0);
  const other = useMemo(
    () => (props.parent ? { [props.parent.sampler_schema]: props.parent.data['0'] ?? {} } : {}),
    [props.parent],
  );
  const local = useMemo(
    () => checkForm(doc, doc.id, answers, { complete: attempt === 'complete', other, lang }),
    [doc, answers, attempt, other, lang],
  );

  // The problems on screen: the server's (until the question is answered again), then the sampler's, for the
  // questions left or all of them once a save was tried.
  const problems = useMemo(() => {
    const byItem = new Map(server.byItem);
    for (const [id, message] of local.problems.byItem)
      if (attempt !== undefined || touched.has(id)) byItem.set(id, message);
    const general =
      attempt !== undefined ? [...new Set([...server.general, ...local.problems.general])] : server.general;
    return { byItem, general };
  }, [server, local, attempt, touched]);
  useEffect(() => {
    if (jump > 0) jumpToFirstProblem(formRef.current);
  }, [jump]);
  // A question left by tapping another one shows its problem only once the tap is over: a message appearing under
  // it while the finger is down would move the next question away from under the finger.
  const pointerDown = useRef(false);
  const left = useRef(new Set<number>());
  useEffect(() => {
    const flush = () => {
      if (left.current.size === 0) return;
      const ids = [...left.current];
      left.current.clear();
      setTouched((prev) => new Set([...prev, ...ids]));
    };
    const down = () => (pointerDown.current = true);
    const up = () => {
      pointerDown.current = false;
      // After the click that follows this pointerup.
      window.setTimeout(flush, 0);
    };
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('pointerup', up, true);
    document.addEventListener('pointercancel', up, true);
    return () => {
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('pointerup', up, true);
      document.removeEventListener('pointercancel', up, true);
    };
  }, []);

  const change = (update: (answers: Answers) => Answers, itemId: number) => {
    // A question answered again loses the server's message about it.
    if (server.byItem.has(itemId))
      setServer({ byItem: new Map([...server.byItem].filter(([id]) => id !== itemId)), general: server.general });
    setAnswers(update);
  };

  const submit = async (complete: boolean) => {
    if (sending) return;
    setAttempt(complete ? 'complete' : 'save');
    const { check, problems: found } = checkForm(doc, doc.id, answers, { complete, other, lang });
    if (hasProblems(found)) {
      setServer(NO_PROBLEMS);
      setJump((n) => n + 1);
      return;
    }
    const geotag = Object.values(check.data['0'] ?? {}).find(
      (v): v is GeotagValue => typeof v === 'object' && v !== null && (v as GeotagValue).type === 'Point',
    );
    const now = new Date().toISOString();
    const r: LocalResponse = {
      response_id: responseId,
      project: projectId,
      sampler_schema: doc.id,
      parent_id: props.parent?.response_id ?? props.existing?.parent_id,
      site: props.site ?? props.existing?.site,
      device_id: deviceId(),
      user: typeof props.user === 'number' ? props.user : 0,
      data: check.data,
      geotag: geotag ?? props.existing?.geotag,
      completed: complete || (props.existing?.completed ?? false),
      is_valid: check.record.valid,
      time_created: props.existing?.time_created ?? now,
      time_updated: now,
      time_uploaded: props.existing?.time_uploaded ?? null,
      sync: 'pending',
      token: props.token,
      email: props.email,
    };
    // On the device first, on disk: from here nothing the person entered can be lost.
    await localStore.put(r, true);
    if (!navigator.onLine) return props.onSubmitted('queued', r);
    setSending(true);
    const outcome = await Promise.race<Outcome | { kind: 'slow' }>([
      uploadOne(r),
      new Promise((resolve) => setTimeout(() => resolve({ kind: 'slow' }), SEND_WAIT_MS)),
    ]);
    setSending(false);
    if (outcome.kind === 'uploaded') return props.onSubmitted('uploaded', r);
    if (outcome.kind === 'signed-out') return props.onSubmitted('signed-out', r);
    if (outcome.kind === 'refused') {
      // Every answer stays on screen to fix; the response waits on the device, marked as needing attention.
      setServer(outcome.problems);
      setJump((n) => n + 1);
      return;
    }
    props.onSubmitted('queued', r);
  };

  const count = problems.byItem.size;
  return (
    <form
      ref={formRef}
      className="collect-form"
      data-testid="collect-form"
      noValidate
      onBlurCapture={(e) => {
        const q = (e.target as HTMLElement).closest<HTMLElement>('[data-item]');
        const id = Number(q?.dataset.item);
        if (!Number.isSafeInteger(id) || touched.has(id)) return;
        if (pointerDown.current) left.current.add(id);
        else setTouched((prev) => new Set([...prev, id]));
      }}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(true);
      }}
    >
      <h2>{doc.name}</h2>
      <FormRenderer
        body={doc}
        lang={lang}
        answers={answers}
        onChange={change}
        shown={local.check.shown}
        problems={problems.byItem}
        responseId={responseId}
        projectId={projectId}
      />
      {problems.general.length > 0 && (
        <div className="banner error" role="alert" data-testid="validity-message">
          {problems.general.map((m) => (
            <p key={m}>{translateKnown(m)}</p>
          ))}
        </div>
      )}
      <div className="actions submit-bar">
        {count > 0 && (
          <button
            type="button"
            className="link attention"
            data-testid="problem-count"
            onClick={() => setJump((n) => n + 1)}
          >
            {t('collect.needAttention', { count })}
          </button>
        )}
        <button type="button" onClick={() => void submit(false)} data-testid="save-response" disabled={sending}>
          {t('collect.save')}
        </button>
        <button type="submit" className="primary" data-testid="complete-response" disabled={sending}>
          {sending ? t('collect.sending') : t('collect.complete')}
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
