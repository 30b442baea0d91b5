// Uploads what the device holds (the queue): media first, through presigned URLs, then the response itself. Runs
// when a response is saved, when the network returns, and every RESPONSE_POLL_MS. Nothing leaves the queue until
// the server has it:
// - no network, a timeout, or a 5xx: the same response (same response_id: the upload is idempotent) is tried again,
//   later each time (backoff); three server failures in a row and it waits for the person;
// - a refusal (4xx): it needs attention, with the server's messages, and is never retried by itself;
// - a session that ended (401 after a refresh was tried): it waits for the same user's next login.
import { API_BASE, refreshSession } from '../../app/baseQuery';
import { refreshDue, session } from '../../app/session';
import { decodeAccess } from '../../lib/jwt';
import { localStore, needsUpload, type LocalResponse } from './localStore';
import { problemsToStored, serverProblems, type FormProblems } from './validation';

/** Spec 001 §9: poll interval 5000 ms. */
export const RESPONSE_POLL_MS = 5000;
/** Server failures in a row after which a response waits for the person. */
export const MAX_SERVER_FAILURES = 3;
/** Backoff between tries: 5 s, doubling, at most 5 minutes, with up to 20 % jitter. */
export const BACKOFF = { firstMs: 5000, maxMs: 5 * 60_000 } as const;
/** A request that has not answered in this time counts as a network failure. */
export const REQUEST_TIMEOUT_MS = 30_000;

export const SYNC_MESSAGES = {
  serverFailing: `The server could not take this response ${MAX_SERVER_FAILURES} times in a row. It is kept on this device: send it again when you are ready.`,
  refused: 'The server refused this response.',
} as const;

/** How one try ended. */
export type Outcome =
  | { kind: 'uploaded' }
  | { kind: 'refused'; problems: FormProblems }
  | { kind: 'retry' }
  | { kind: 'offline' }
  | { kind: 'signed-out' };

class NetworkFailure extends Error {}
class ServerFailure extends Error {}
class SignedOut extends Error {}
class Refused extends Error {
  constructor(readonly problems: FormProblems) {
    super(problems.general[0] ?? problems.byItem.values().next().value ?? SYNC_MESSAGES.refused);
  }
}

export function backoffMs(attempts: number, random = Math.random()): number {
  const base = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + 0.2 * random));
}

function authHeader(r: LocalResponse): Record<string, string> {
  const token = r.token ?? session.read().access;
  return token ? { Authorization: `JWT ${token}` } : {};
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch {
    throw new NetworkFailure();
  }
}

/** One API call of an upload, its answer sorted: the caller gets only 2xx answers. */
async function call(path: string, init: RequestInit, r: LocalResponse): Promise<Response> {
  const go = () =>
    send(`${API_BASE}${path}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeader(r), ...init.headers },
    });
  let res = await go();
  if (res.status === 401 && r.token === undefined) {
    // An access token that expired while offline: refresh once and try again; only a refusal ends the wait.
    const refreshed = await refreshSession();
    if (refreshed === 'refused') throw new SignedOut();
    if (refreshed === 'unavailable') throw new NetworkFailure();
    res = await go();
  }
  if (res.ok) return res;
  // A person's session waits for their next login; a collection link's token that no longer works will not come back.
  if (res.status === 401 && r.token === undefined) throw new SignedOut();
  if (res.status >= 500 || res.status === 408 || res.status === 429) throw new ServerFailure();
  throw new Refused(serverProblems(await res.json().catch(() => null), SYNC_MESSAGES.refused));
}

/** Uploads the response's pending media and puts the stored keys in place of the local placeholders. */
async function uploadMedia(r: LocalResponse): Promise<LocalResponse> {
  const pending = await localStore.mediaOf(r.response_id);
  let data = r.data;
  for (const m of pending) {
    const ask = await call(
      `project/${r.project}/media/`,
      {
        method: 'POST',
        body: JSON.stringify({
          response_id: r.response_id,
          kind: m.kind,
          filename: m.filename,
          content_type: m.blob.type,
          size: m.blob.size,
        }),
      },
      r,
    );
    const { media_id, key, upload_url } = (await ask.json()) as { media_id: string; key: string; upload_url: string };
    const put = await send(upload_url, { method: 'PUT', body: m.blob, headers: { 'Content-Type': m.blob.type } });
    if (put.status >= 500) throw new ServerFailure();
    if (!put.ok)
      throw new Refused({ byItem: new Map(), general: [`The file ${m.filename} was refused (${put.status}).`] });
    await call(`project/${r.project}/media/${media_id}/complete/`, { method: 'POST', body: '{}' }, r);
    data = JSON.parse(
      JSON.stringify(data).split(JSON.stringify(m.local_key)).join(JSON.stringify(key)),
    ) as LocalResponse['data'];
    await localStore.update(r.response_id, { data });
    await localStore.deleteMedia(m.local_key);
  }
  return { ...r, data };
}

const inFlight = new Map<string, Promise<Outcome>>();

/** Tries to upload one response once, and records where it now is; a try already under way is shared. */
export function uploadOne(r: LocalResponse): Promise<Outcome> {
  let p = inFlight.get(r.response_id);
  if (!p) {
    p = tryUpload(r).finally(() => inFlight.delete(r.response_id));
    inFlight.set(r.response_id, p);
  }
  return p;
}

async function tryUpload(r: LocalResponse): Promise<Outcome> {
  await localStore.update(r.response_id, { sync: 'uploading' });
  try {
    const ready = await uploadMedia(r);
    const path = `project/${r.project}/response/${r.completed ? 'complete/' : ''}`;
    await call(
      path,
      {
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
      },
      r,
    );
    // Uploaded: time_uploaded after time_updated (spec 001 §4).
    const uploadedAt = new Date(Math.max(Date.parse(r.time_updated) + 1, Date.now())).toISOString();
    await localStore.update(r.response_id, {
      sync: 'uploaded',
      time_uploaded: uploadedAt,
      error: undefined,
      problems: undefined,
      attempts: 0,
      server_failures: 0,
      next_attempt_at: undefined,
    });
    return { kind: 'uploaded' };
  } catch (e) {
    if (e instanceof Refused) {
      await localStore.update(r.response_id, {
        sync: 'failed',
        error: e.message,
        problems: problemsToStored(e.problems),
        attempts: 0,
        server_failures: 0,
        next_attempt_at: undefined,
      });
      return { kind: 'refused', problems: e.problems };
    }
    if (e instanceof SignedOut) {
      await localStore.update(r.response_id, { sync: 'pending' });
      return { kind: 'signed-out' };
    }
    const attempts = (r.attempts ?? 0) + 1;
    if (e instanceof ServerFailure) {
      const failures = (r.server_failures ?? 0) + 1;
      if (failures >= MAX_SERVER_FAILURES) {
        await localStore.update(r.response_id, {
          sync: 'failed',
          error: SYNC_MESSAGES.serverFailing,
          problems: undefined,
          attempts,
          server_failures: failures,
          next_attempt_at: undefined,
        });
        return { kind: 'refused', problems: { byItem: new Map(), general: [SYNC_MESSAGES.serverFailing] } };
      }
      await localStore.update(r.response_id, {
        sync: 'pending',
        attempts,
        server_failures: failures,
        next_attempt_at: Date.now() + backoffMs(attempts),
      });
      return { kind: 'retry' };
    }
    if (!(e instanceof NetworkFailure)) throw e;
    // No network: nothing is counted against the response; a network that answers nothing is tried later and later.
    const offline = typeof navigator !== 'undefined' && !navigator.onLine;
    await localStore.update(r.response_id, {
      sync: 'pending',
      ...(offline ? {} : { attempts, next_attempt_at: Date.now() + backoffMs(attempts) }),
    });
    return offline ? { kind: 'offline' } : { kind: 'retry' };
  }
}

/** The person sends a response that needs attention again: it goes back in the queue with a clean slate. */
export async function resend(responseId: string): Promise<Outcome | undefined> {
  await localStore.update(responseId, {
    sync: 'pending',
    error: undefined,
    problems: undefined,
    attempts: 0,
    server_failures: 0,
    next_attempt_at: undefined,
  });
  const r = await localStore.get(responseId);
  return r ? uploadOne(r) : undefined;
}

let running: Promise<void> | undefined;
let again: Promise<void> | undefined;

/**
 * Uploads every response waiting on this device and due, oldest first; stops at the first failure that is not the
 * response's own (no network, a failing server, a session that ended): the others would fail the same way.
 * `now` ignores the backoff (the network just came back).
 */
export function syncAll(now = false): Promise<void> {
  // The network came back while a run was under way: that run may have read the queue, or failed, before it did, so
  // one more run follows it, without the backoff (several such calls share it).
  if (running && now) {
    again ??= running
      .catch(() => undefined)
      .then(() => {
        again = undefined;
        return syncAll(true);
      });
    return again;
  }
  running ??= (async () => {
    const s = session.read();
    // A refused refresh ends the session: nothing goes up until the same user logs in again (the app's next call
    // takes them to the login screen). No answer keeps the session: the access token is tried as it is.
    if (s.refresh && refreshDue(s.lastRefresh) && (await refreshSession()) === 'refused') return;
    const me = decodeAccess(session.read().access)?.user_id ?? -1;
    const due = now ? Number.POSITIVE_INFINITY : Date.now();
    // A response goes up with its own link's token, or with the session of the user who saved it.
    const waiting = (await localStore.all())
      .filter(
        (r) =>
          needsUpload(r) &&
          r.sync !== 'failed' &&
          (r.next_attempt_at ?? 0) <= due &&
          (r.token !== undefined || r.user === me),
      )
      .sort((a, b) => a.time_updated.localeCompare(b.time_updated));
    for (const r of waiting) {
      const outcome = await uploadOne(r);
      if (outcome.kind !== 'uploaded' && outcome.kind !== 'refused') break;
    }
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/** Starts the background sync: on the online event and every RESPONSE_POLL_MS. Answers the stop function. */
export function startSync(): () => void {
  const kick = () => void syncAll().catch(() => undefined);
  const back = () => void syncAll(true).catch(() => undefined);
  window.addEventListener('online', back);
  const timer = window.setInterval(() => {
    if (navigator.onLine) kick();
  }, RESPONSE_POLL_MS);
  if (navigator.onLine) kick();
  return () => {
    window.removeEventListener('online', back);
    window.clearInterval(timer);
  };
}
