import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { languageReady } from './i18n';
import './styles.css';
import { makeStore } from './app/store';
import { routes } from './app/routes';
import { TopLevelBoundary } from './features/errors/ErrorScreens';
import { warmHeavyChunksWhenIdle } from './app/warmHeavy';
import { prefetchFirstScreen } from './app/prefetch';

const store = makeStore();
prefetchFirstScreen(store, window.location.pathname);
const router = createBrowserRouter(routes);

// The first screen waits for the chosen language's messages (a small chunk, precached) so it never shows in English
// first; the API calls of prefetchFirstScreen are already under way meanwhile.
void languageReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <TopLevelBoundary>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </TopLevelBoundary>
    </StrictMode>,
  ),
);
warmHeavyChunksWhenIdle();
