// The one baseQuery of the API slice: JSON, the JWT header, and the refresh-before-call rule of spec 000 §4.
import { fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
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

let inFlight: Promise<boolean> | null = null;

/** Exchanges the refresh token for a new pair; concurrent callers share one request. */
export function refreshSession(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  inFlight ??= (async () => {
    const { refresh } = session.read();
    if (!refresh) return false;
    try {
      const res = await fetchImpl(`${API_BASE}api-token-refresh/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refresh }),
      });
      if (!res.ok) return false;
      const body = (await res.json()) as { access: string; refresh: string };
      session.store(body.access, body.refresh);
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

const loggedOutError: FetchBaseQueryError = { status: 401, data: { detail: 'Your session has ended. Please log in again.' } };

export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const { access, refresh, lastRefresh } = session.read();
  if (access && refreshDue(lastRefresh)) {
    // No refresh token, or a failed refresh, logs the user out.
    if (!refresh || !(await refreshSession())) {
      session.clear();
      api.dispatch(sessionExpired());
      return { error: loggedOutError };
    }
  }
  return raw(args, api, extra);
};
