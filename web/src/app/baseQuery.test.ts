import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from './store';
import { api } from './api';
import { REFRESH_THRESHOLD_MS, refreshDue, session } from './session';
import { refreshSession } from './baseQuery';
import { loggedIn } from '../features/session/sessionSlice';
import type { User } from '../features/session/types';
import { json } from '../test/render';

// One endpoint to drive the baseQuery through the real API slice.
const probe = api.injectEndpoints({
  endpoints: (b) => ({ probe: b.query<unknown, number>({ query: (n) => `probe/${n}/` }) }),
  overrideExisting: true,
});

const user = {
  id: 1,
  name: 'D',
  organizations: [],
  current_organization: 1,
  settings: { agreed_terms: '1.1', agreed_privacy: '1.0' },
} as unknown as User;
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

function requestOf(call: Parameters<typeof fetch>): { url: string; auth: string | null } {
  const [input, init] = call;
  if (input instanceof Request) return { url: input.url, auth: input.headers.get('Authorization') };
  return { url: String(input), auth: new Headers(init?.headers).get('Authorization') };
}

describe('refreshDue', () => {
  it('is due at 30 minutes or more since the last refresh, not before', () => {
    expect(refreshDue(0, REFRESH_THRESHOLD_MS - 1)).toBe(false);
    expect(refreshDue(0, REFRESH_THRESHOLD_MS)).toBe(true);
  });
});

describe('baseQuery', () => {
  it('sends the JWT header and does not refresh a recent session', async () => {
    session.store('acc-1', 'ref-1', Date.now() - REFRESH_THRESHOLD_MS + 60_000);
    fetchMock.mockResolvedValue(json(200, { ok: true }));
    const store = makeStore();
    await store.dispatch(probe.endpoints.probe.initiate(1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(requestOf(fetchMock.mock.calls[0]!)).toMatchObject({
      url: expect.stringContaining('/api/probe/1/'),
      auth: 'JWT acc-1',
    });
  });

  it('refreshes first when the last refresh was 30 minutes ago, then calls with the new token', async () => {
    session.store('old-access', 'old-refresh', Date.now() - REFRESH_THRESHOLD_MS);
    fetchMock.mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('api-token-refresh')) return json(200, { access: 'new-access', refresh: 'new-refresh' });
      return json(200, { ok: true });
    });
    const store = makeStore();
    // Two calls at once share one refresh.
    await Promise.all([
      store.dispatch(probe.endpoints.probe.initiate(2)),
      store.dispatch(probe.endpoints.probe.initiate(3)),
    ]);
    const urls = fetchMock.mock.calls.map((c) => requestOf(c).url);
    expect(urls.filter((u) => u.includes('api-token-refresh'))).toHaveLength(1);
    const calls = fetchMock.mock.calls.map(requestOf).filter((r) => r.url.includes('/probe/'));
    expect(calls.map((c) => c.auth)).toEqual(['JWT new-access', 'JWT new-access']);
    expect(session.read()).toMatchObject({ access: 'new-access', refresh: 'new-refresh' });
    expect(refreshDue(session.read().lastRefresh)).toBe(false);
  });

  it('logs out when there is no refresh token', async () => {
    localStorage.setItem('fw.access', 'acc');
    localStorage.setItem('fw.lastRefresh', String(Date.now() - REFRESH_THRESHOLD_MS * 2));
    const store = makeStore();
    store.dispatch(loggedIn({ user, organization: null }));
    const result = await store.dispatch(probe.endpoints.probe.initiate(4));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(result.error).toMatchObject({ status: 401 });
    expect(store.getState().session.expired).toBe(true);
    expect(session.read().access).toBeNull();
  });

  it('logs out when the refresh fails', async () => {
    session.store('acc', 'used-refresh', Date.now() - REFRESH_THRESHOLD_MS);
    fetchMock.mockResolvedValue(json(401, { detail: 'Token is invalid or expired' }));
    const store = makeStore();
    store.dispatch(loggedIn({ user, organization: null }));
    await store.dispatch(probe.endpoints.probe.initiate(5));
    expect(fetchMock.mock.calls.map((c) => requestOf(c).url).some((u) => u.includes('/probe/'))).toBe(false);
    expect(store.getState().session.expired).toBe(true);
    expect(session.read()).toMatchObject({ access: null, refresh: null });
  });

  it.each([
    ['the network is down', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the server fails', () => Promise.resolve(json(503, { error_message: 'Service unavailable' }))],
  ])(
    'keeps the session, the tokens and the device cache when the refresh gets no answer because %s',
    async (_why, refreshAnswer) => {
      session.store('acc-offline', 'ref-offline', Date.now() - REFRESH_THRESHOLD_MS);
      fetchMock.mockImplementation(async (input) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.includes('api-token-refresh')) return refreshAnswer();
        return json(200, { ok: true });
      });
      const store = makeStore();
      store.dispatch(loggedIn({ user, organization: null }));
      const result = await store.dispatch(probe.endpoints.probe.initiate(6));
      // The call goes ahead with the token it has; nothing is cleared.
      expect(result.data).toEqual({ ok: true });
      expect(store.getState().session.expired).toBe(false);
      expect(store.getState().session.user).not.toBeNull();
      expect(session.read()).toMatchObject({ access: 'acc-offline', refresh: 'ref-offline' });
    },
  );

  it('does not spend the new refresh token on a caller that decided to refresh just before another refresh ended', async () => {
    session.store('acc-a', 'ref-a', Date.now() - REFRESH_THRESHOLD_MS);
    const sent: string[] = [];
    fetchMock.mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes('api-token-refresh')) return json(200, { ok: true });
      const body = JSON.parse(String(init?.body ?? (input instanceof Request ? await input.text() : '{}'))) as {
        refresh: string;
      };
      sent.push(body.refresh);
      return json(200, { access: `acc-after-${body.refresh}`, refresh: `after-${body.refresh}` });
    });
    expect(await refreshSession()).toBe('ok');
    // A second caller that read the old refresh time: the pair just made serves it.
    expect(await refreshSession()).toBe('ok');
    expect(sent).toEqual(['ref-a']);
    expect(session.read()).toMatchObject({ access: 'acc-after-ref-a', refresh: 'after-ref-a' });
  });

  it('waits for another tab refreshing at the same time and takes the pair it stored, spending nothing', async () => {
    session.store('acc-tab', 'ref-tab', Date.now() - REFRESH_THRESHOLD_MS);
    // The other tab holds the browser's lock and stores its new pair before this tab gets the lock.
    const request = vi.fn(async (_name: string, run: () => Promise<unknown>) => {
      session.store('acc-other-tab', 'ref-other-tab');
      return run();
    });
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { locks: { request } }));
    expect(await refreshSession()).toBe('ok');
    expect(request).toHaveBeenCalledWith('fw-session-refresh', expect.any(Function));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(session.read()).toMatchObject({ access: 'acc-other-tab', refresh: 'ref-other-tab' });
  });
});
