import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { makeStore } from '../../app/store';
import { routes } from '../../app/routes';
import { session } from '../../app/session';
import { json, renderRoutes, token } from '../../test/render';
import { sessionExpired } from '../session/sessionSlice';
import { siteDuration } from '../project/settings/SitesPage';
import { projectsApi } from './projectsApi';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());
const urlOf = (input: Parameters<typeof fetch>[0]) => (input instanceof Request ? input.url : String(input));

const project = {
  id: 7,
  name: 'p',
  project_state: 'P',
  project_type: 'S',
  is_hierarchical: false,
  project_hierarchy: [{ level: 0, name: 'Households', schema_id: 1 }],
  permissions: ['home', 'parameters'],
};

describe('getProject', () => {
  it('retries a failed load once, but not a 401', async () => {
    session.store('a', 'r', Date.now());
    fetchMock.mockResolvedValueOnce(json(500, { error_message: 'x' })).mockResolvedValueOnce(json(200, project));
    const store = makeStore();
    const ok = await store.dispatch(projectsApi.endpoints.getProject.initiate(7));
    expect(ok.data).toMatchObject({ id: 7 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    fetchMock.mockReset();
    fetchMock.mockResolvedValue(json(401, { detail: 'Token is invalid or expired' }));
    const denied = await store.dispatch(projectsApi.endpoints.getProject.initiate(8));
    expect(denied.error).toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('setHierarchy', () => {
  it('applies optimistically and rolls back on failure', async () => {
    session.store('a', 'r', Date.now());
    let release!: (r: Response) => void;
    fetchMock.mockImplementation(async (input) => {
      if (urlOf(input).endsWith('/project/7/')) return json(200, project);
      return new Promise<Response>((r) => (release = r));
    });
    const store = makeStore();
    await store.dispatch(projectsApi.endpoints.getProject.initiate(7));
    const levels = [...project.project_hierarchy, { level: 1, name: 'Members', schema_id: 0 }];
    const pending = store.dispatch(
      projectsApi.endpoints.setHierarchy.initiate({ projectId: 7, is_hierarchical: true, project_hierarchy: levels }),
    );
    await waitFor(() =>
      expect(projectsApi.endpoints.getProject.select(7)(store.getState()).data?.project_hierarchy).toHaveLength(2),
    );
    release(json(400, { project_hierarchy: ["You can't delete levels that already have responses."] }));
    await pending;
    expect(projectsApi.endpoints.getProject.select(7)(store.getState()).data).toMatchObject({
      is_hierarchical: false,
      project_hierarchy: project.project_hierarchy,
    });
  });
});

describe('site popup', () => {
  it('shows the duration in days, or "not set"', () => {
    expect(siteDuration({ duration_days: 30 }, 'not set', (n) => `${n} days`)).toBe('30 days');
    expect(siteDuration({ duration_days: null }, 'not set', (n) => `${n} days`)).toBe('not set');
  });
});

describe('session end on the parameters screen', () => {
  it('opens a login dialog over the screen instead of navigating', async () => {
    session.store(token({ user_id: 5 }), 'r', Date.now());
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url.includes('/accounts/user/5/')) {
        return json(200, {
          id: 5,
          name: 'D',
          organizations: [{ id: 1, name: 'W' }],
          current_organization: 1,
          settings: { agreed_terms: '1.1', agreed_privacy: '1.0' },
        });
      }
      if (url.includes('/project/7/home/')) return json(200, {});
      if (url.includes('/project/7/')) return json(200, project);
      return json(200, { results: [] });
    });
    const { store, router } = renderRoutes(routes, '/project/7/settings/parameters');
    await screen.findByTestId('parameters');
    session.clear();
    store.dispatch(sessionExpired());
    await screen.findByTestId('login-dialog');
    expect(router.state.location.pathname).toBe('/project/7/settings/parameters');
    expect(screen.getByTestId('parameters')).toBeInTheDocument();
  });
});
