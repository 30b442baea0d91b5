// Every route of spec 000 §2 and spec 001 §2, with its nesting and login requirement.
import { Navigate, Outlet, useOutletContext, type RouteObject } from 'react-router';
import { FEATURES } from './features';
import { AppShell } from './AppShell';
import { Layout } from '../components/Layout';
import { RequireAuth } from '../features/session/RequireAuth';
import { LoginPage } from '../features/session/LoginPage';
import { LogoutPage } from '../features/session/LogoutPage';
import { PasswordLinkPage } from '../features/session/PasswordLinkPage';
import { ProjectsPage } from '../features/projects/ProjectsPage';
import { UserSettingsPage } from '../features/user-settings/UserSettingsPage';
import { ExportPage } from '../features/exports/ExportPage';
import { ImportPage } from '../features/exports/ImportPage';
import { RootError, RouteError } from '../features/errors/ErrorScreens';
import { ProjectArea } from '../features/project/ProjectArea';
import { ProjectHome } from '../features/project/ProjectHome';
import { SettingsLayout } from '../features/project/settings/SettingsLayout';
import { ParametersPage } from '../features/project/settings/ParametersPage';
import { SitesPage } from '../features/project/settings/SitesPage';
import { DurationPage } from '../features/project/settings/DurationPage';
import { UsersPage } from '../features/project/settings/UsersPage';
import { IntegrationsPage } from '../features/project/settings/IntegrationsPage';
import { WorkspaceSettingsPage } from '../features/workspace/WorkspaceSettingsPage';
import { BuilderPage } from '../features/builder/BuilderPage';
import { CreateFromUploadPage } from '../features/builder/CreateFromUploadPage';
import { CollectHome, NewRecordPage, ResponsePage } from '../features/collect/CollectPages';
import { ResponseListPage } from '../features/collect/ResponseListPage';
import { ResultsPage } from '../features/results/ResultsPage';
import { SharedItemPage } from '../features/results/SharedItemPage';
import { CollectDonePage, GetNativePage, PublicCollectPage } from '../features/collect/PublicCollect';


/** A nesting route that passes its parent's outlet context (the project) on to its children. */
function PassContext() {
  return <Outlet context={useOutletContext()} />;
}

const resultsChildren: RouteObject[] = [
  { index: true, element: <ResultsPage /> },
  { path: 'preview', element: <ResultsPage /> },
  { path: 'preview/schema/:schema', element: <ResultsPage /> },
  { path: 'preview/schema/:schema/block/:block', element: <ResultsPage /> },
  { path: 'schema/:schema', element: <ResultsPage /> },
  { path: 'schema/:schema/block/:block', element: <ResultsPage /> },
  { path: ':lookupSchema/profile/:profileId', element: <ResultsPage /> },
  { path: ':lookupSchema/profile/:profileId/schema/:schema', element: <ResultsPage /> },
  { path: ':lookupSchema/profile/:profileId/schema/:schema/block/:block', element: <ResultsPage /> },
];

const projectChildren: RouteObject[] = [
  { index: true, element: <ProjectHome /> },
  { path: 'home', element: <ProjectHome /> },
  {
    path: 'settings',
    element: <SettingsLayout />,
    children: [
      { index: true, element: <ParametersPage /> },
      { path: 'parameters', element: <ParametersPage /> },
      { path: 'sites', element: <SitesPage /> },
      { path: 'duration', element: <DurationPage /> },
      { path: 'admins', element: <UsersPage kind="admins" /> },
      { path: 'guests', element: <UsersPage kind="guests" /> },
      { path: 'integrations', element: <IntegrationsPage /> },
      { path: 'collectors', element: <UsersPage kind="collectors" /> },
    ],
  },
  {
    path: 'builder',
    element: <PassContext />,
    children: [
      { index: true, element: <BuilderPage /> },
      { path: 'schema/:schema', element: <BuilderPage /> },
      { path: 'schema/:schema/block/:block', element: <BuilderPage /> },
    ],
  },
  { path: 'create-form-from-upload', element: <CreateFromUploadPage /> },
  { path: 'import', element: <ImportPage /> },
  { path: 'results', element: <PassContext />, children: resultsChildren },
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
            { index: true, element: <ExportPage /> },
            { path: 'schema/:schema', element: <ExportPage /> },
            { path: ':lookupSchema/profile/:profileId', element: <ExportPage /> },
            { path: ':lookupSchema/profile/:profileId/schema/:schema', element: <ExportPage /> },
          ],
        },
      ]
    : []),
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    errorElement: <RootError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          // No login required.
          { path: 'get-native/:os', element: <GetNativePage /> },
          { path: 'item-chart/:itemToken', element: <SharedItemPage kind="chart" /> },
          { path: 'item-table/:itemToken', element: <SharedItemPage kind="table" /> },
          { path: 'item-results/:itemToken', element: <SharedItemPage kind="results" /> },
          {
            path: 'login-home',
            children: [
              { index: true, element: <Navigate to="login" replace /> },
              { path: 'login', element: <LoginPage /> },
            ],
          },
          { path: 'logout', element: <LogoutPage /> },
          { path: 'collect/anonymous/success', element: <CollectDonePage outcome="success" /> },
          { path: 'collect/anonymous/cancel', element: <CollectDonePage outcome="cancel" /> },
          { path: 'collect/anonymous/:token', element: <PublicCollectPage kind="anonymous" /> },
          { path: 'collect/anonymous/:token/:email', element: <PublicCollectPage kind="anonymous" /> },
          { path: 'collect/survey/success', element: <CollectDonePage outcome="success" /> },
          { path: 'collect/survey/cancel', element: <CollectDonePage outcome="cancel" /> },
          { path: 'collect/survey/:token', element: <PublicCollectPage kind="survey" /> },
          { path: 'set-password/:email/:nonce', element: <PasswordLinkPage mode="set" /> },
          { path: 'reset-password/:email/:nonce', element: <PasswordLinkPage mode="reset" /> },
          // Login required.
          {
            element: <RequireAuth />,
            children: [
              {
                element: <Layout />,
                children: [
                  { index: true, element: <Navigate to="/projects" replace /> },
                  { path: 'projects', element: <ProjectsPage /> },
                  { path: 'project/:projectId', element: <ProjectArea />, children: projectChildren },
                  { path: 'user-settings', element: <UserSettingsPage /> },
                  { path: 'workspace-settings', children: [{ path: ':orgId', element: <WorkspaceSettingsPage /> }] },
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
