// The one baseQuery of the API slice: JSON, the JWT header, and the refresh-before-call rule of spec 000 §4.
import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { refreshDue, session } from './session';
import { sessionExpired } from '../features/session/sessionSlice';

/** The API base, absolute (a relative URL cannot build a Request outside a browser, e.g. in tests). */
export const API_BASE = `${typeof window === 'undefined' ? 'http://localhost' : window.location.origin}/api/`;

const raw = fetchBaseQuery({
  baseUrl: API_BASE,
  prepareHeaders: (headers) => {
    const { access } = session.read();
    if (access) headers.set('Authorization', `JWT ${access}`);
    headers.set('Accept', 'application/json');
    return headers;
  },
});

/**
 * How a refresh ended: a new pair; a refusal of the refresh token (the only end of a session); or no usable answer
 * (offline, a timeout, a 5xx), which keeps the session and everything on the device.
 */
export type RefreshOutcome = 'ok' | 'refused' | 'unavailable';

/** A refresh that has not answered in this time is unavailable. */
export const REFRESH_TIMEOUT_MS = 15_000;

let inFlight: Promise<RefreshOutcome> | null = null;
/** The last refresh that succeeded: when (performance.now()) and the refresh token it gave. */
let lastSuccess = { at: Number.NEGATIVE_INFINITY, refresh: '' };
/** Callers that decided to refresh before a refresh completed get its pair instead of spending the new token. */
const SHARE_SUCCESS_MS = 10_000;

/**
 * Runs `refresh` while no other tab of the browser refreshes (Web Locks): tabs share the stored tokens, and two of
 * them spending the same refresh token at once would leave one of them holding a token the server retired.
 */
async function acrossTabs(refresh: () => Promise<RefreshOutcome>): Promise<RefreshOutcome> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? await locks.request('fw-session-refresh', refresh) : refresh();
}

/**
 * Exchanges the refresh token for a new pair; concurrent callers share one request, and so do callers that decided
 * to refresh just before another refresh completed, in this tab or another (the server takes each refresh token
 * once: a second use soon after only stands in for an answer that was lost, and retires the pair it had given).
 */
export function refreshSession(fetchImpl: typeof fetch = fetch): Promise<RefreshOutcome> {
  if (session.read().refresh === lastSuccess.refresh && performance.now() - lastSuccess.at < SHARE_SUCCESS_MS)
    return Promise.resolve('ok');
  const decidedWith = session.read().refresh;
  inFlight ??= acrossTabs(async (): Promise<RefreshOutcome> => {
    const { refresh } = session.read();
    if (!refresh) return 'refused';
    // Another tab of this browser refreshed while this one waited: the pair it stored serves this tab too.
    if (refresh !== decidedWith) return 'ok';
    let res: Response;
    try {
      res = await fetchImpl(`${API_BASE}api-token-refresh/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refresh }),
        signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS),
      });
    } catch {
      return 'unavailable';
    }
    // Only the server saying no to this refresh token ends the session (a revoked, expired or replayed token).
    if (res.status === 400 || res.status === 401 || res.status === 403) return 'refused';
    if (!res.ok) return 'unavailable';
    try {
      const body = (await res.json()) as { access: string; refresh: string };
      session.store(body.access, body.refresh);
      lastSuccess = { at: performance.now(), refresh: body.refresh };
      return 'ok';
    } catch {
      return 'unavailable';
    }
  }).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

const loggedOutError: FetchBaseQueryError = {
  status: 401,
  data: { detail: 'Your session has ended. Please log in again.' },
};

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const { access, refresh, lastRefresh } = session.read();
  if (access && refreshDue(lastRefresh)) {
    // No refresh token, or a refresh the server refuses, logs the user out (spec 000 §4). A refresh that gets no
    // answer (offline) keeps the session: the call goes ahead and the device's copies serve it.
    const outcome = refresh ? await refreshSession() : 'refused';
    if (outcome === 'refused') {
      session.clear();
      api.dispatch(sessionExpired());
      return { error: loggedOutError };
    }
  }
  return raw(args, api, extra);
};
