// Uploads what the device holds (the outbox): media first, through presigned URLs, then the response itself. Runs
// when a response is saved, when the network returns, and every RESPONSE_POLL_MS. A network failure leaves the
// response waiting; a refusal by the server marks it failed with the server's message.
import { API_BASE, refreshSession } from '../../app/baseQuery';
import { refreshDue, session } from '../../app/session';
import { decodeAccess } from '../../lib/jwt';
import { localStore, needsUpload, type LocalResponse } from './localStore';

/** Spec 001 §9: poll interval 5000 ms. */
export const RESPONSE_POLL_MS = 5000;

class Offline extends Error {}

function authHeader(r: LocalResponse): Record<string, string> {
  const token = r.token ?? session.read().access;
  return token ? { Authorization: `JWT ${token}` } : {};
}

async function call(path: string, init: RequestInit, r: LocalResponse): Promise<Response> {
  try {
    return await fetch(`${API_BASE}${path}`, { ...init, headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeader(r), ...init.headers } });
  } catch {
    throw new Offline();
  }
}

/** The first message of an error body (detail, non_field_errors, or a field's). */
export function bodyMessage(body: unknown): string {
  if (typeof body !== 'object' || body === null) return 'Upload failed.';
  const b = body as Record<string, unknown>;
  if (typeof b.detail === 'string') return b.detail;
  for (const [k, v] of Object.entries(b)) if (Array.isArray(v) && typeof v[0] === 'string') return k === 'non_field_errors' ? v[0] : `${k}: ${v[0]}`;
  return 'Upload failed.';
}

/** Uploads the response's pending media and puts the stored keys in place of the local placeholders. */
async function uploadMedia(r: LocalResponse): Promise<LocalResponse> {
  const pending = await localStore.mediaOf(r.response_id);
  let data = r.data;
  for (const m of pending) {
    const ask = await call(`project/${r.project}/media/`, {
      method: 'POST',
      body: JSON.stringify({ response_id: r.response_id, kind: m.kind, filename: m.filename, content_type: m.blob.type, size: m.blob.size }),
    }, r);
    if (!ask.ok) throw new Refused(bodyMessage(await ask.json().catch(() => null)));
    const { media_id, key, upload_url } = (await ask.json()) as { media_id: string; key: string; upload_url: string };
    try {
      const put = await fetch(upload_url, { method: 'PUT', body: m.blob, headers: { 'Content-Type': m.blob.type } });
      if (!put.ok) throw new Refused(`The file ${m.filename} was refused (${put.status}).`);
    } catch (e) {
      if (e instanceof Refused) throw e;
      throw new Offline();
    }
    const done = await call(`project/${r.project}/media/${media_id}/complete/`, { method: 'POST', body: '{}' }, r);
    if (!done.ok) throw new Refused(bodyMessage(await done.json().catch(() => null)));
    data = JSON.parse(JSON.stringify(data).split(JSON.stringify(m.local_key)).join(JSON.stringify(key))) as LocalResponse['data'];
    await localStore.update(r.response_id, { data });
    await localStore.deleteMedia(m.local_key);
  }
  return { ...r, data };
}

class Refused extends Error {}

/** Uploads one response. Answers false when the network is down. */
export async function uploadOne(r: LocalResponse): Promise<boolean> {
  await localStore.update(r.response_id, { sync: 'uploading' });
  try {
    const ready = await uploadMedia(r);
    const path = `project/${r.project}/response/${r.completed ? 'complete/' : ''}`;
    const res = await call(path, {
      method: 'POST',
      body: JSON.stringify({
        project: r.project,
        sampler_schema: r.sampler_schema,
        device_id: r.device_id,
        response_id: r.response_id,
        parent_id: r.parent_id,
        site: r.site,
        data: ready.data,
        geotag: r.geotag,
        time_created: r.time_created,
        time_updated: r.time_updated,
        ...(r.email ? { email: r.email } : {}),
      }),
    }, r);
    const body = (await res.json().catch(() => null)) as unknown;
    // A session that ended: wait for the next login rather than fail the response.
    if (res.status === 401) throw new Offline();
    if (!res.ok) throw new Refused(bodyMessage(body));
    // Uploaded: time_uploaded after time_updated (spec 001 §4).
    const uploadedAt = new Date(Math.max(Date.parse(r.time_updated) + 1, Date.now())).toISOString();
    await localStore.update(r.response_id, { sync: 'uploaded', time_uploaded: uploadedAt, error: undefined });
    return true;
  } catch (e) {
    if (e instanceof Offline) {
      await localStore.update(r.response_id, { sync: 'pending' });
      return false;
    }
    await localStore.update(r.response_id, { sync: 'failed', error: e instanceof Error ? e.message : String(e) });
    return true;
  }
}

let running: Promise<void> | undefined;

/** Uploads every response waiting on this device, oldest first; stops at the first network failure. */
export function syncAll(): Promise<void> {
  running ??= (async () => {
    const s = session.read();
    if (s.refresh && refreshDue(s.lastRefresh)) await refreshSession();
    const me = decodeAccess(session.read().access)?.user_id ?? -1;
    // A response goes up with its own link's token, or with the session of the user who saved it.
    const waiting = (await localStore.all()).filter((r) => needsUpload(r) && r.sync !== 'failed' && (r.token !== undefined || r.user === me)).sort((a, b) => a.time_updated.localeCompare(b.time_updated));
    for (const r of waiting) if (!(await uploadOne(r))) break;
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/** Starts the background sync: on the online event and every RESPONSE_POLL_MS. Answers the stop function. */
export function startSync(): () => void {
  const kick = () => void syncAll().catch(() => undefined);
  window.addEventListener('online', kick);
  const timer = window.setInterval(() => {
    if (navigator.onLine) kick();
  }, RESPONSE_POLL_MS);
  kick();
  return () => {
    window.removeEventListener('online', kick);
    window.clearInterval(timer);
  };
}
