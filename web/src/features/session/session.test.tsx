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
    fetchMock.mockResolvedValue(json(200, { results: [], count: 0, signup_enabled: false }));
    const { router } = renderRoutes(routes, '/project/4/results?x=1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-home/login'), { timeout: 5000 });
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/project/4/results?x=1')}`);
    // No session check without a session: the login page asks only for the identity providers.
    expect(fetchMock.mock.calls.map(([input]) => new URL(urlOf(input)).pathname)).toEqual(
      fetchMock.mock.calls.length === 0 ? [] : ['/api/api/v1/oauth/providers/'],
    );
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
      if (url.endsWith('/legal/'))
        return json(200, {
          terms: { version: '1.1', text: 'Our terms.\n\nSecond paragraph.' },
          privacy: { version: '1.0', text: 'Our policy.' },
        });
      return json(404, { detail: 'Not found.' });
    });
    const { router } = renderRoutes(routes, '/no/such/screen');
    await screen.findByTestId('legal-gate');
    expect(screen.queryByTestId('accept-privacy')).toBeNull();
    // The deployment's texts are shown with their versions before anything is accepted.
    expect(await screen.findByTestId('legal-terms-text')).toHaveTextContent('Our terms.Second paragraph.');
    expect(screen.getByTestId('legal-terms-version')).toHaveTextContent('Terms of service, version 1.1');
    expect(screen.getByTestId('legal-privacy-text')).toHaveTextContent('Our policy.');
    await userEvent.click(screen.getByTestId('accept-terms'));
    // The projects screen is its own chunk: on a busy machine it takes more than a second to load.
    await screen.findByTestId('projects-screen', {}, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/projects');
    const cards = await screen.findAllByTestId('project-card');
    expect(cards.map((c) => c.textContent)).toEqual([
      expect.stringContaining('Household Survey'),
      expect.stringContaining('Water Points'),
    ]);
    expect(screen.getByText('Workspace Home')).toBeInTheDocument();
  }, 15_000);
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
    let answer = json(400, { non_field_errors: ['Unable to log in with provided credentials.'] });
    fetchMock.mockImplementation(async (input) =>
      urlOf(input).includes('api-token-auth') ? answer : json(200, { results: [], count: 0, signup_enabled: false }),
    );
    renderRoutes(routes, '/login-home/login');
    await userEvent.type(await screen.findByRole('textbox', { name: /username/i }), ' Demo ');
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Unable to log in with provided credentials.');
    const login = fetchMock.mock.calls.find(([input]) => urlOf(input).includes('api-token-auth'))!;
    const body = JSON.parse(await (login[0] as Request).clone().text()) as unknown;
    expect(body).toEqual({ username: 'demo', password: '' });
    // No provider and no sign-up on this deployment: neither is offered.
    expect(screen.queryByTestId('identity-providers')).toBeNull();
    expect(screen.queryByTestId('to-signup')).toBeNull();

    answer = json(400, { password: ['This field may not be blank.'] });
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('This field may not be blank.')).toBeInTheDocument();
    expect(screen.queryByTestId('login-error')).toBeNull();
  });

  it("offers the deployment's identity providers and sign-up, and leaves for the provider with a PKCE challenge", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url.includes('/oauth/providers/'))
        return json(200, { results: [{ id: 'acme', name: 'Acme SSO' }], count: 1, signup_enabled: true });
      if (url.includes('/oauth/authorize/'))
        return json(200, { authorization_url: 'https://idp.example/auth?x=1', state: 'st-1' });
      return json(404, {});
    });
    renderRoutes(routes, '/login-home/login?next=%2Fuser-settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with Acme SSO' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example/auth?x=1'));
    expect(screen.getByTestId('to-signup')).toHaveAttribute('href', '/login-home/signup?next=%2Fuser-settings');
    const started = fetchMock.mock.calls.find(([input]) => urlOf(input).includes('/oauth/authorize/'))!;
    const body = JSON.parse(await (started[0] as Request).clone().text()) as Record<string, string>;
    expect(body.identity_provider).toBe('acme');
    // The challenge is S256 of the verifier kept for the callback (RFC 7636), computed here independently.
    const pending = JSON.parse(sessionStorage.getItem('fieldwork.oidc')!) as Record<string, string>;
    expect(pending).toMatchObject({ provider: 'acme', state: 'st-1', next: '/user-settings' });
    const { createHash } = await import('node:crypto');
    expect(body.code_challenge).toBe(createHash('sha256').update(pending.verifier!).digest('base64url'));
    expect(pending.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('says when the identity providers could not be loaded (429), and shows them once asked again', async () => {
    let refused = true;
    fetchMock.mockImplementation(async (input) => {
      const url = urlOf(input);
      if (url.includes('/oauth/providers/'))
        return refused
          ? json(429, { detail: 'Request was throttled.' })
          : json(200, { results: [{ id: 'acme', name: 'Acme SSO' }], count: 1, signup_enabled: false });
      return json(404, {});
    });
    renderRoutes(routes, '/login-home/login');
    expect(await screen.findByTestId('providers-unavailable')).toHaveTextContent(
      'Other ways to sign in could not be loaded.',
    );
    refused = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Sign in with Acme SSO' })).toBeVisible();
    expect(screen.queryByTestId('providers-unavailable')).toBeNull();
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
