import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { routes } from '../../app/routes';
import { session } from '../../app/session';
import { json, renderRoutes, token } from '../../test/render';
import { afterLoginPath } from './redirects';
import { legalStatus } from './sessionSlice';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

const urlOf = (input: Parameters<typeof fetch>[0]) => (input instanceof Request ? input.url : String(input));
const user = (settings: { agreed_terms: string; agreed_privacy: string }) => ({
  id: 5,
  name: 'Demo User',
  first_name: 'Demo',
  last_name: 'User',
  username: 'demo',
  email: 'demo@example.com',
  is_staff: false,
  is_superuser: false,
  last_login: null,
  organizations: [{ id: 9, name: 'Demo Workspace' }],
  current_organization: 9,
  settings: { ...settings, account_activation_date: null },
});
const org = {
  id: 9,
  name: 'Demo Workspace',
  description: '',
  projects: [1, 2],
  project_details: [
    {
      id: 1,
      name: 'household survey',
      description: '',
      project_state: 'P',
      project_type: 'S',
      frontend_color: '5da83d',
      frontend_icon: 'place',
      total_responses: 0,
      last_response: null,
      time_updated: '2026-11-22T10:00:00Z',
    },
    {
      id: 2,
      name: 'water points',
      description: '',
      project_state: 'O',
      project_type: 'S',
      frontend_color: '1e88e5',
      frontend_icon: 'place',
      total_responses: 3,
      last_response: null,
      time_updated: '2026-11-22T00:00:00Z',
    },
  ],
};

describe('afterLoginPath', () => {
  it('goes to next unless it is a login path, else to the only project, else to projects', () => {
    expect(afterLoginPath('/user-settings')).toBe('/user-settings');
    expect(afterLoginPath('/login-home/login')).toBe('/projects');
    expect(afterLoginPath('//evil.example')).toBe('/projects');
    expect(afterLoginPath(null, 12)).toBe('/project/12');
    expect(afterLoginPath(null)).toBe('/projects');
  });
});

describe('legalStatus', () => {
  it('needs terms 1.1 and privacy 1.0, each separately', () => {
    expect(legalStatus(user({ agreed_terms: '1.1', agreed_privacy: '1.0' }))).toEqual({ terms: true, privacy: true });
    expect(legalStatus(user({ agreed_terms: '1.0', agreed_privacy: '1.0' }))).toEqual({ terms: false, privacy: true });
    expect(legalStatus(null)).toEqual({ terms: false, privacy: false });
  });
});

describe('protected routes', () => {
  it('redirect to login and remember the path when there is no session', async () => {
    const { router } = renderRoutes(routes, '/project/4/results?x=1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-home/login'));
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/project/4/results?x=1')}`);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('redirect to login when the session check fails, and clear the session', async () => {
    session.store(token({ user_id: 5 }), 'r', Date.now());
    fetchMock.mockResolvedValue(json(401, { detail: 'Token is invalid or expired' }));
    const { router } = renderRoutes(routes, '/user-settings');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-home/login'));
    expect(router.state.location.search).toBe('?next=%2Fuser-settings');
    expect(session.read().access).toBeNull();
  });

  it('show the terms gate until both are accepted, then the screen; unknown paths fall back to projects', async () => {
    session.store(token({ user_id: 5 }), 'r', Date.now());
    let current = user({ agreed_terms: '', agreed_privacy: '1.0' });
    fetchMock.mockImplementation(async (input, init) => {
      const url = urlOf(input);
      const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
      if (url.includes('/accounts/user/5/settings') && method === 'PUT') {
        current = user({ agreed_terms: '1.1', agreed_privacy: '1.0' });
        return json(200, current);
      }
      if (url.includes('/accounts/user/5/')) return json(200, current);
      if (url.includes('/organization/9/')) return json(200, org);
      if (url.endsWith('/organization/')) return json(200, { results: [org], count: 1 });
      return json(404, { detail: 'Not found.' });
    });
    const { router } = renderRoutes(routes, '/no/such/screen');
    await screen.findByTestId('legal-gate');
    expect(screen.queryByTestId('accept-privacy')).toBeNull();
    await userEvent.click(screen.getByTestId('accept-terms'));
    await screen.findByTestId('projects-screen');
    expect(router.state.location.pathname).toBe('/projects');
    const cards = await screen.findAllByTestId('project-card');
    expect(cards.map((c) => c.textContent)).toEqual([
      expect.stringContaining('Household Survey'),
      expect.stringContaining('Water Points'),
    ]);
    expect(screen.getByText('Workspace Home')).toBeInTheDocument();
  });
});

describe('one-time token', () => {
  it('is stored as the access token when none exists and removed from the address', async () => {
    const access = token({ user_id: 5 });
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url.includes('/accounts/user/5/')) return json(200, user({ agreed_terms: '1.1', agreed_privacy: '1.0' }));
      return json(200, { results: [], count: 0 });
    });
    const { router } = renderRoutes(routes, `/user-settings?token=${access}&tab=1`);
    await waitFor(() => expect(router.state.location.search).toBe('?tab=1'));
    expect(session.read().access).toBe(access);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user-settings'));
  });

  it('does not replace an existing access token', async () => {
    session.store('mine', 'r', Date.now());
    const { router } = renderRoutes(routes, '/login-home/login?token=theirs');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(session.read().access).toBe('mine');
  });
});

describe('login screen', () => {
  it('shows non_field_errors as a banner and field errors under the fields', async () => {
    fetchMock.mockResolvedValueOnce(json(400, { non_field_errors: ['Unable to log in with provided credentials.'] }));
    renderRoutes(routes, '/login-home/login');
    await userEvent.type(await screen.findByRole('textbox', { name: /username/i }), ' Demo ');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Unable to log in with provided credentials.');
    const body = JSON.parse(await (fetchMock.mock.calls[0]![0] as Request).clone().text()) as unknown;
    expect(body).toEqual({ username: 'demo', password: '' });

    fetchMock.mockResolvedValueOnce(json(400, { password: ['This field may not be blank.'] }));
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('This field may not be blank.')).toBeInTheDocument();
    expect(screen.queryByTestId('login-error')).toBeNull();
  });

  it('logs in, stores the session and goes to the remembered path', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url.includes('api-token-auth')) {
        return json(200, {
          access: token({ user_id: 5 }),
          refresh: 'ref',
          user: user({ agreed_terms: '1.1', agreed_privacy: '1.0' }),
          organization: org,
        });
      }
      if (url.includes('/organization/9/')) return json(200, org);
      if (url.includes('/accounts/user/5/')) return json(200, user({ agreed_terms: '1.1', agreed_privacy: '1.0' }));
      return json(404, {});
    });
    const { router } = renderRoutes(routes, '/login-home/login?next=%2Fuser-settings');
    await userEvent.type(await screen.findByRole('textbox', { name: /username/i }), 'demo');
    await userEvent.type(screen.getByLabelText(/password/i), 'fieldwork-demo');
    await userEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user-settings'));
    expect(session.read().refresh).toBe('ref');
  });
});
