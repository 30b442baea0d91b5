// Every route of spec 000 §2 and spec 001 §2, with its nesting and login requirement. The first bundle holds what a
// collector needs on a slow network (the shell, login and the collect screens); every other screen is loaded when
// its route is first visited (react-router's route `lazy`), so plotly (results) and deck.gl (maps) never delay them.
// The service worker keeps every chunk for offline use once it is installed.
import type { ComponentType } from 'react';
import { Navigate, Outlet, useOutletContext, type RouteObject } from 'react-router';
import { FEATURES } from './features';
import { AppShell } from './AppShell';
import { Layout } from '../components/Layout';
import { RequireAuth } from '../features/session/RequireAuth';
import { LoginPage } from '../features/session/LoginPage';
import { OidcCallbackPage } from '../features/session/OidcCallbackPage';
import { SignUpPage } from '../features/session/SignUpPage';
import { LogoutPage } from '../features/session/LogoutPage';
import { RootError, RouteError } from '../features/errors/ErrorScreens';
import { ProjectArea } from '../features/project/ProjectArea';
import { CollectHome, NewRecordPage, ResponsePage } from '../features/collect/CollectPages';
import { ResponseListPage } from '../features/collect/ResponseListPage';

/** A screen loaded on its route's first visit, rendered with the given props. */
function screen<P extends object>(
  load: () => Promise<ComponentType<P>>,
  ...props: keyof P extends never ? [] : [P]
): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const Screen = await load();
      return { element: <Screen {...((props[0] ?? {}) as P)} /> };
    },
  };
}

// One loader per module: every route of a module shares its chunk.
const results = () => import('../features/results/ResultsPage').then((m) => m.ResultsPage);
const sharedItem = () => import('../features/results/SharedItemPage').then((m) => m.SharedItemPage);
const builder = () => import('../features/builder/BuilderPage').then((m) => m.BuilderPage);
const createFromUpload = () => import('../features/builder/CreateFromUploadPage').then((m) => m.CreateFromUploadPage);
const exportPage = () => import('../features/exports/ExportPage').then((m) => m.ExportPage);
const importPage = () => import('../features/exports/ImportPage').then((m) => m.ImportPage);
const projectsPage = () => import('../features/projects/ProjectsPage').then((m) => m.ProjectsPage);
const projectHome = () => import('../features/project/ProjectHome').then((m) => m.ProjectHome);
const userSettings = () => import('../features/user-settings/UserSettingsPage').then((m) => m.UserSettingsPage);
const workspaceSettings = () =>
  import('../features/workspace/WorkspaceSettingsPage').then((m) => m.WorkspaceSettingsPage);
const passwordLink = () => import('../features/session/PasswordLinkPage').then((m) => m.PasswordLinkPage);
const settingsLayout = () => import('../features/project/settings/SettingsLayout').then((m) => m.SettingsLayout);
const parameters = () => import('../features/project/settings/ParametersPage').then((m) => m.ParametersPage);
const sites = () => import('../features/project/settings/SitesPage').then((m) => m.SitesPage);
const duration = () => import('../features/project/settings/DurationPage').then((m) => m.DurationPage);
const users = () => import('../features/project/settings/UsersPage').then((m) => m.UsersPage);
const integrations = () => import('../features/project/settings/IntegrationsPage').then((m) => m.IntegrationsPage);
const links = () => import('../features/project/settings/links/LinksPage').then((m) => m.LinksPage);
const publicCollect = () => import('../features/collect/PublicCollect');
const summary = () => import('../features/views/SummaryPage').then((m) => m.SummaryPage);
const performance = () => import('../features/views/PerformancePage').then((m) => m.PerformancePage);
const tracking = () => import('../features/views/TrackingPage').then((m) => m.TrackingPage);

/** A nesting route that passes its parent's outlet context (the project) on to its children. */
function PassContext() {
  return <Outlet context={useOutletContext()} />;
}

const resultsChildren: RouteObject[] = [
  { index: true, ...screen(results) },
  { path: 'preview', ...screen(results) },
  { path: 'preview/schema/:schema', ...screen(results) },
  { path: 'preview/schema/:schema/block/:block', ...screen(results) },
  { path: 'schema/:schema', ...screen(results) },
  { path: 'schema/:schema/block/:block', ...screen(results) },
  { path: ':lookupSchema/profile/:profileId', ...screen(results) },
  { path: ':lookupSchema/profile/:profileId/schema/:schema', ...screen(results) },
  { path: ':lookupSchema/profile/:profileId/schema/:schema/block/:block', ...screen(results) },
];

const projectChildren: RouteObject[] = [
  { index: true, ...screen(projectHome) },
  { path: 'home', ...screen(projectHome) },
  {
    path: 'settings',
    ...screen(settingsLayout),
    children: [
      { index: true, ...screen(parameters) },
      { path: 'parameters', ...screen(parameters) },
      { path: 'sites', ...screen(sites) },
      { path: 'duration', ...screen(duration) },
      { path: 'admins', ...screen(users, { kind: 'admins' }) },
      { path: 'guests', ...screen(users, { kind: 'guests' }) },
      { path: 'integrations', ...screen(integrations) },
      { path: 'collectors', ...screen(users, { kind: 'collectors' }) },
      { path: 'links', ...screen(links) },
    ],
  },
  {
    path: 'builder',
    element: <PassContext />,
    children: [
      { index: true, ...screen(builder) },
      { path: 'schema/:schema', ...screen(builder) },
      { path: 'schema/:schema/block/:block', ...screen(builder) },
    ],
  },
  { path: 'create-form-from-upload', ...screen(createFromUpload) },
  { path: 'import', ...screen(importPage) },
  { path: 'results', element: <PassContext />, children: resultsChildren },
  { path: 'summary', ...screen(summary) },
  { path: 'performance', ...screen(performance) },
  { path: 'tracking', ...screen(tracking) },
  {
    path: 'collect',
    element: <PassContext />,
    children: [
      { index: true, element: <CollectHome /> },
      { path: 'newrecord', element: <NewRecordPage /> },
      { path: ':schemaId/list', element: <ResponseListPage /> },
      { path: ':responseId/view', element: <ResponsePage mode="view" /> },
      { path: ':responseId/edit', element: <ResponsePage mode="edit" /> },
      { path: ':responseId/newrecord', element: <NewRecordPage /> },
    ],
  },
  ...(FEATURES.printResults
    ? [
        {
          path: 'export',
          element: <PassContext />,
          children: [
            { index: true, ...screen(exportPage) },
            { path: 'schema/:schema', ...screen(exportPage) },
            { path: ':lookupSchema/profile/:profileId', ...screen(exportPage) },
            { path: ':lookupSchema/profile/:profileId/schema/:schema', ...screen(exportPage) },
          ],
        },
      ]
    : []),
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    // Shown while the first screen's chunk loads when it is not in the first bundle.
    hydrateFallbackElement: <div className="loading" aria-busy="true" />,
    errorElement: <RootError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          // No login required.
          { path: 'get-native/:os', ...screen(() => publicCollect().then((m) => m.GetNativePage)) },
          { path: 'item-chart/:itemToken', ...screen(sharedItem, { kind: 'chart' }) },
          { path: 'item-table/:itemToken', ...screen(sharedItem, { kind: 'table' }) },
          { path: 'item-results/:itemToken', ...screen(sharedItem, { kind: 'results' }) },
          {
            path: 'login-home',
            children: [
              { index: true, element: <Navigate to="login" replace /> },
              { path: 'login', element: <LoginPage /> },
              { path: 'oauth', element: <OidcCallbackPage /> },
              { path: 'signup', element: <SignUpPage /> },
            ],
          },
          { path: 'logout', element: <LogoutPage /> },
          {
            path: 'collect/anonymous/success',
            ...screen(() => publicCollect().then((m) => m.CollectDonePage), { outcome: 'success' }),
          },
          {
            path: 'collect/anonymous/cancel',
            ...screen(() => publicCollect().then((m) => m.CollectDonePage), { outcome: 'cancel' }),
          },
          {
            path: 'collect/anonymous/:token',
            ...screen(() => publicCollect().then((m) => m.PublicCollectPage), { kind: 'anonymous' }),
          },
          {
            path: 'collect/anonymous/:token/:email',
            ...screen(() => publicCollect().then((m) => m.PublicCollectPage), { kind: 'anonymous' }),
          },
          {
            path: 'collect/survey/success',
            ...screen(() => publicCollect().then((m) => m.CollectDonePage), { outcome: 'success' }),
          },
          {
            path: 'collect/survey/cancel',
            ...screen(() => publicCollect().then((m) => m.CollectDonePage), { outcome: 'cancel' }),
          },
          {
            path: 'collect/survey/:token',
            ...screen(() => publicCollect().then((m) => m.PublicCollectPage), { kind: 'survey' }),
          },
          { path: 'set-password/:email/:nonce', ...screen(passwordLink, { mode: 'set' }) },
          { path: 'reset-password/:email/:nonce', ...screen(passwordLink, { mode: 'reset' }) },
          // Login required.
          {
            element: <RequireAuth />,
            children: [
              {
                element: <Layout />,
                children: [
                  { index: true, element: <Navigate to="/projects" replace /> },
                  { path: 'projects', ...screen(projectsPage) },
                  { path: 'project/:projectId', element: <ProjectArea />, children: projectChildren },
                  { path: 'user-settings', ...screen(userSettings) },
                  { path: 'workspace-settings', children: [{ path: ':orgId', ...screen(workspaceSettings) }] },
                  // Any other path falls back to the projects screen.
                  { path: '*', element: <Navigate to="/projects" replace /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];
