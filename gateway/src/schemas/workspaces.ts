// Request schemas of the workspace routes (routes/organizations.ts, routes/workspaces.ts; spec 000 §7 Workspaces).
import { bodies, organizationUserSchema } from '../schemas.js';
import { projectSchemas } from './projects.js';
import { body, flag, openObject, optText, params, query, ref, refList, text } from './common.js';

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const listOf = (item: object, counted = true) =>
  openObject({ results: { type: 'array', items: item }, ...(counted ? { count: int } : {}) });
/** The auth and projects services' records, answered as they are (routes/workspaces.ts). */
const orgUser = openObject(organizationUserSchema.properties);
const apiKey = openObject({
  id: int,
  name: str,
  prefix: str,
  created: str,
  revoked: { type: 'string', description: "'' while the key works" },
  last_used: str,
  created_by: int,
});
const integration = openObject({
  id: int,
  token: str,
  integration_type: str,
  verified: { type: 'boolean' },
  projects: { type: 'array', items: int },
  organization: int,
  time_created: str,
});
const folder = openObject({
  type: { type: 'string', description: 'folder or project' },
  id: int,
  name: str,
  folder: { type: 'integer', description: 'The parent folder; 0 at the workspace root' },
  project: int,
  folder_id: int,
});

export const workspaceSchemas = {
  organization: bodies.organization,
  organizationUser: bodies.organizationUser,
  orgParams: params('id'),
  orgUserParams: params('id', 'userId'),
  folderParams: params('id', 'folderId'),
  /** The audit log's filter and page: page and page_size are read by util.ts queryInt (400 naming the field). */
  auditQuery: query(
    { page: 'Page number (0 or none: the first)', page_size: 'Events a page, at most 999 (0 or none: the default)' },
    { event: { type: 'string', maxLength: 64, description: 'Only events of this kind' } },
  ),
  /** PATCH a workspace user: names (null clears) and admin flags; what is absent stays. */
  orgUserPatch: body({
    first_name: optText(150),
    last_name: optText(150),
    user_admin: flag,
    project_admin: flag,
    billing_admin: flag,
  }),
  apiKeyCreate: body({ name: text(200) }),
  apiKeyRevoke: body({ prefix: text(200) }),
  integrationCreate: body({ integration_type: text(100) }),
  integrationProjects: body({ token: text(200), projects: refList() }),
  integrationVerify: body({ token: text(200) }),
  /** A folder: its name, its parent folder and a project to move into it (0 or null: none). */
  folderCreate: body({ name: text(255), folder: ref, project: ref }),
  /** Rename (null: '') or move (null or 0: to the top) a folder; what is absent stays. */
  folderUpdate: body({ name: optText(255), folder: ref }),

  /** The members listing's page and search (page and page_size read by util.ts queryInt). */
  orgUsersQuery: query({
    page: 'Page number, from 1',
    page_size: 'Members a page (0 or none: the default; over the cap: capped)',
    search: 'Name, username or email contains',
  }),

  /** Answers. A page of members: the page size used, and whether the one asked for was over the cap. */
  orgUsers: openObject({
    results: { type: 'array', items: orgUser },
    count: { ...int, description: 'How many members match, over every page' },
    page: int,
    page_size: { ...int, description: 'The page size used' },
    page_size_capped: { type: 'boolean', description: 'The page size asked for was over the cap' },
    detail: { ...str, description: 'Says that the page size was capped, when it was' },
  }),
  orgUser,
  apiKeys: listOf(apiKey, false),
  /** A new API key: the whole key is in this answer only. */
  apiKeyCreated: openObject({ ...apiKey.properties, key: str }),
  apiKey,
  integrations: listOf(integration, false),
  integration,
  folders: listOf(folder),
  /** The deleted projects and their purges (routes/workspaces.ts). */
  purges: listOf(projectSchemas.purge),
  folder,
  /** The workspace audit log, newest first. */
  audit: listOf(
    openObject({
      id: int,
      time: str,
      event: str,
      actor_user_id: { type: ['integer', 'null'], description: 'null: no one known (a failed login)' },
      target: str,
      ip: str,
      details: { type: 'object', additionalProperties: true, description: 'The particulars (never a secret)' },
    }),
  ),
} as const;
