// renderWithProviders: a component under a fresh store and an in-memory router.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import '../i18n';
import { makeStore, type RootState } from '../app/store';

export function renderRoutes(routes: RouteObject[], path: string, preloadedState?: Partial<RootState>) {
  const store = makeStore(preloadedState);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router, ...utils };
}

export function renderWithProviders(ui: ReactElement, preloadedState?: Partial<RootState>) {
  return renderRoutes([{ path: '*', element: ui }], '/', preloadedState);
}

/** A response for fetch mocks. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** An unsigned token with the given claims (the client never verifies). */
export function token(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256' })}.${b64(claims)}.sig`;
}
