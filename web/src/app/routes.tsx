// Every route of spec 000 §2 and spec 001 §2, with its nesting and login requirement.
import { Navigate, NavLink, Outlet, useParams, type RouteObject } from 'react-router';
import { FEATURES } from './features';
import { AppShell } from './AppShell';
import { Layout } from '../components/Layout';
import { RequireAuth } from '../features/session/RequireAuth';
import { LoginPage } from '../features/session/LoginPage';
import { LogoutPage } from '../features/session/LogoutPage';
import { PasswordLinkPage } from '../features/session/PasswordLinkPage';
import { ProjectsPage } from '../features/projects/ProjectsPage';
import { UserSettingsPage } from '../features/user-settings/UserSettingsPage';
import { PlaceholderPage } from '../features/placeholders/PlaceholderPage';
import { RootError, RouteError } from '../features/errors/ErrorScreens';

const P = (title: string) => <PlaceholderPage title={title} />;

/** The project area: its sections and the chosen one. */
function ProjectArea() {
  const { projectId } = useParams();
  const sections = ['home', 'settings', 'builder', 'results', 'collect', 'import', ...(FEATURES.printResults ? ['export'] : [])];
  return (
    <div className="project-area">
      <nav className="tabs">
        {sections.map((s) => (
          <NavLink key={s} to={`/project/${projectId}/${s === 'home' ? '' : s}`} end={s === 'home'}>
            {s}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

const resultsChildren: RouteObject[] = [
  { index: true, element: P('Results') },
  { path: 'preview', element: P('Results preview') },
  { path: 'preview/schema/:schema', element: P('Results preview') },
  { path: 'preview/schema/:schema/block/:block', element: P('Results preview') },
  { path: 'schema/:schema', element: P('Results') },
  { path: 'schema/:schema/block/:block', element: P('Results') },
  { path: ':lookupSchema/profile/:profileId', element: P('Profile results') },
  { path: ':lookupSchema/profile/:profileId/schema/:schema', element: P('Profile results') },
  { path: ':lookupSchema/profile/:profileId/schema/:schema/block/:block', element: P('Profile results') },
];

const projectChildren: RouteObject[] = [
  { index: true, element: P('Project home') },
  { path: 'home', element: P('Project home') },
  {
    path: 'settings',
    element: <Outlet />,
    children: [
      { index: true, element: P('Parameters') },
      { path: 'parameters', element: P('Parameters') },
      { path: 'sites', element: P('Sites') },
      { path: 'duration', element: P('Duration') },
      { path: 'admins', element: P('Admins') },
      { path: 'guests', element: P('Guests') },
      { path: 'integrations', element: P('Integrations') },
      { path: 'collectors', element: P('Collectors') },
    ],
  },
  { path: 'builder', element: P('Form builder') },
  { path: 'create-form-from-upload', element: P('Create a form from an upload') },
  { path: 'import', element: P('Import') },
  { path: 'results', element: <Outlet />, children: resultsChildren },
  {
    path: 'collect',
    element: <Outlet />,
    children: [
      { index: true, element: P('Collect') },
      { path: 'newrecord', element: P('New record') },
      { path: ':schemaId/list', element: P('Responses') },
      { path: ':responseId/view', element: P('Response') },
      { path: ':responseId/edit', element: P('Edit response') },
      { path: ':responseId/newrecord', element: P('New child record') },
    ],
  },
  ...(FEATURES.printResults
    ? [
        {
          path: 'export',
          element: <Outlet />,
          children: [
            { index: true, element: P('Export') },
            { path: 'schema/:schema', element: P('Export') },
            { path: ':lookupSchema/profile/:profileId', element: P('Export') },
            { path: ':lookupSchema/profile/:profileId/schema/:schema', element: P('Export') },
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
          { path: 'get-native/:os', element: P('Get the app') },
          { path: 'item-chart/:itemToken', element: P('Shared chart') },
          { path: 'item-table/:itemToken', element: P('Shared table') },
          { path: 'item-results/:itemToken', element: P('Shared results') },
          {
            path: 'login-home',
            children: [
              { index: true, element: <Navigate to="login" replace /> },
              { path: 'login', element: <LoginPage /> },
            ],
          },
          { path: 'logout', element: <LogoutPage /> },
          { path: 'collect/anonymous/success', element: P('Thank you') },
          { path: 'collect/anonymous/cancel', element: P('Cancelled') },
          { path: 'collect/anonymous/:token', element: P('Anonymous collection') },
          { path: 'collect/anonymous/:token/:email', element: P('Anonymous collection') },
          { path: 'collect/survey/success', element: P('Thank you') },
          { path: 'collect/survey/cancel', element: P('Cancelled') },
          { path: 'collect/survey/:token', element: P('Survey') },
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
                  { path: 'workspace-settings', children: [{ path: ':orgId', element: P('Workspace settings') }] },
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
