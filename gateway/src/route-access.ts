// What each route of a project (or of a project's form) needs of the caller's access to that project, declared once
// here, route by route, and checked by the access plugin (plugins/app/access.ts) on the decided access before any
// service is called. A route of a project that is not declared here stops the gateway at start-up (and its tests),
// so a new route cannot go out without saying what it needs.
//
// A need is never stricter than the rule the service applies itself (the services keep their checks: a call that
// does not come through the gateway is decided there): the screens named are those the service requires (spec 000 §6
// screen access, through packages/access), and `member` routes are those where the service narrows what the caller
// sees (their own responses, their read_sites) rather than refusing outright. `link` routes also serve the anonymous
// respondents of a collection link, who have no project role: the service checks their link on every call.
import { mayDo, resultsReach, type ProjectOperation, type ScreenPermission } from '@fieldwork/access';
import type { projects } from '@fieldwork/proto';

export type Need =
  /** Any role in the project (an unknown or foreign project is refused as the projects service refuses it). */
  | { kind: 'member' }
  /** Any one of these screen permissions. */
  | { kind: 'screens'; screens: readonly ScreenPermission[] }
  /** An operation of packages/access (PROJECT_OPERATIONS). */
  | { kind: 'operation'; operation: ProjectOperation }
  /** Some of the project's results: the results permission, or read_sites (spec 001 §6). */
  | { kind: 'results' }
  /** People with a role, and a collection link's anonymous respondents: decided by the service. */
  | { kind: 'link' }
  /**
   * Decided by the service alone, for a project that may no longer exist: a purge outlives its project's row (the
   * purge removes it before it records itself done), and the projects service shows the purge to the workspace's
   * owner only.
   */
  | { kind: 'service' };

const member: Need = { kind: 'member' };
const link: Need = { kind: 'link' };
const service: Need = { kind: 'service' };
const results: Need = { kind: 'results' };
const screens = (...s: ScreenPermission[]): Need => ({ kind: 'screens', screens: s });
const operation = (o: ProjectOperation): Need => ({ kind: 'operation', operation: o });

/** Every project route (`METHOD url` as registered) and what it needs. */
export const ROUTE_NEEDS: Readonly<Record<string, Need>> = {
  // The project itself.
  'GET /api/project/:id/': member,
  'GET /api/project/:id/home/': screens('home'),
  'GET /api/project/:id/summary-by-site/': screens('home'),
  'PUT /api/project/:id/': screens('parameters'),
  'PATCH /api/project/:id/': screens('parameters'),
  // Duplicating needs the workspace's projects permission, which the projects service checks.
  'POST /api/project/:id/duplicate/': member,
  'POST /api/project/:id/duplicate/:folderId/': member,
  'POST /api/project/:id/upload/': screens('parameters', 'form'),
  'POST /api/project/:id/status/': screens('canSetLive'),
  // A deleted project's purge: the projects service lets only the workspace owner see or start it, and answers for
  // it after the project's row is gone (a gateway check would then say "Invalid Project Id!" to the owner watching
  // the purge end).
  'GET /api/project/:id/purge/': service,
  'POST /api/project/:id/purge/': service,
  'POST /api/project/:id/type/': screens('parameters'),
  'POST /api/project/:id/period/': screens('parameters'),
  'POST /api/project/:id/hierarchy/': screens('parameters'),
  'POST /api/project/:id/timingcolumn/': screens('parameters'),
  'POST /api/project/:id/aggregator/': screens('parameters'),
  // Sites, groups and teams.
  'POST /api/project/:id/sites/': screens('sites'),
  'PUT /api/project/:id/sites/:sub/': screens('sites'),
  'PATCH /api/project/:id/sites/:sub/': screens('sites'),
  'DELETE /api/project/:id/sites/:sub/': screens('sites'),
  'POST /api/project/:id/groups/': screens('sites'),
  'PATCH /api/project/:id/groups/:sub/': screens('sites'),
  'DELETE /api/project/:id/groups/:sub/': screens('sites'),
  'POST /api/project/:id/teams/': screens('sites'),
  'PATCH /api/project/:id/teams/:sub/': screens('sites'),
  'DELETE /api/project/:id/teams/:sub/': screens('sites'),
  // The project's people.
  'GET /api/project/:id/users/': screens('admins', 'staff'),
  'PUT /api/project/:id/users/:userId/': screens('admins', 'staff'),
  'DELETE /api/project/:id/users/:userId/': screens('admins', 'staff'),
  'POST /api/project/:id/users/userslist/': screens('admins', 'staff'),
  // Collection links and references.
  'POST /api/project/:id/surveys/': screens('parameters'),
  'GET /api/project/:id/surveys/': screens('parameters'),
  'GET /api/project/:id/surveys/:surveyId/': screens('parameters'),
  'POST /api/project/:id/surveys/:surveyId/revoke/': screens('parameters'),
  'POST /api/project/:id/surveys/:surveyId/expire/': screens('parameters'),
  'GET /api/project/:id/references/': member,
  'POST /api/project/:id/references/': screens('form'),
  // Responses: collectors upload and read their own, data managers and results readers all, read_sites theirs.
  'POST /api/project/:id/response/': link,
  'POST /api/project/:id/response/complete/': link,
  'POST /api/project/:id/response/uncomplete/': link,
  'POST /api/project/:id/media/': link,
  'POST /api/project/:id/media/:mediaId/complete/': link,
  'GET /api/project/:id/response/': member,
  'GET /api/project/:id/response/from/:lastId/': member,
  'POST /api/project/:id/response-chunk/filter/': member,
  'GET /api/project/:id/response/single/:responseId/': member,
  'GET /api/project/:id/response/lookup/': member,
  'POST /api/project/:id/open-response/email/': member,
  'GET /api/project/:id/references/:refId/responses/': member,
  // Results.
  'POST /api/project/:id/results/': results,
  'POST /api/project/:id/results/schema/:schemaId/': results,
  'POST /api/project/:id/results/schema/:schemaId/item/': results,
  'POST /api/project/:id/results/schema/:schemaId/block/:blockId/': results,
  'GET /api/project/:id/results/lookups/': results,
  'GET /api/project/:id/results/collectors/': results,
  'GET /api/project/:id/results/schema/:schemaId/lookups/': results,
  'POST /api/project/:id/results/schema/:schemaId/response/:profile/': results,
  'POST /api/project/:id/results/schema/:schemaId/responses/': results,
  'POST /api/project/:id/results/schema/:schemaId/item/:itemId/token/': operation('shareResults'),
  'GET /api/project/:id/advanced_results/edit_list/': screens('results'),
  // Computing saved advanced results reads results (read_sites included); saving and listing them to edit is the
  // results screen's (the projects service requires it).
  'POST /api/project/:id/advanced_results/list/': results,
  // The summary, performance and tracking views read results as the results screen does (read_sites included).
  'POST /api/project/:id/summary/': results,
  'POST /api/project/:id/performance/': results,
  'POST /api/project/:id/tracking/': results,
  'POST /api/project/:id/advanced_results/': screens('results'),
  'PUT /api/project/:id/advanced_results/:arId/': screens('results'),
  'DELETE /api/project/:id/advanced_results/:arId/': screens('results'),
  // Exports, imports and SQL access.
  'GET /api/project/:id/named_csv/': operation('export'),
  'GET /api/project/:id/coded_csv/': operation('export'),
  'GET /api/project/:id/dictionary_csv/': operation('export'),
  'GET /api/project/:id/xlsx_excel/': operation('export'),
  'POST /api/project/:id/export/': operation('export'),
  'POST /api/project/:id/import/preview/': screens('projectLevelIngestion'),
  'POST /api/project/:id/import/': screens('projectLevelIngestion'),
  'POST /api/project/:id/postgres/': screens('projectLevelIngestion'),
  'POST /api/project/:id/disable_postgres/': screens('projectLevelIngestion'),
  // The form, by project or by schema (decided for the schema's project).
  'POST /api/project/:id/create-form-from-upload/': screens('form'),
  'GET /api/samplerschema/:id/': link,
  'GET /api/samplerschema/:id/xlsform/': member,
  'PUT /api/samplerschema/:id/': screens('form'),
  'GET /api/samplerschema/:id/versions/': screens('form'),
  'POST /api/samplerschema/:id/versions/:versionId/restore/': screens('form'),
};

/** Whether a route is keyed by a form's schema (decided for the schema's project). */
export const isSchemaRoute = (url: string) => url.startsWith('/api/samplerschema/:id/');

/** Whether the routes of this url are decided for a project (and so must be declared above). */
export const isProjectRoute = (url: string) => url.startsWith('/api/project/:id/') || isSchemaRoute(url);

/** The test a decided access must pass for `need` (undefined: the service alone decides). */
export function allows(need: Need): ((access: projects.ProjectAccess) => boolean) | undefined {
  switch (need.kind) {
    case 'link':
    case 'service':
      return undefined;
    case 'member':
      return () => true;
    case 'screens':
      return (a) => need.screens.some((s) => a.screens.includes(s));
    case 'operation':
      return (a) => mayDo(a.screens, need.operation);
    case 'results':
      return (a) => resultsReach(a) !== 'none';
  }
}
