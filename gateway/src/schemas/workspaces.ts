// Request schemas of the workspace routes (routes/organizations.ts, routes/workspaces.ts; spec 000 §7 Workspaces).
import { bodies } from '../schemas.js';
import { body, flag, optText, params, ref, refList, text } from './common.js';

export const workspaceSchemas = {
  organization: bodies.organization,
  organizationUser: bodies.organizationUser,
  orgParams: params('id'),
  orgUserParams: params('id', 'userId'),
  folderParams: params('id', 'folderId'),
  auditQuery: {
    type: 'object',
    properties: {
      event: { type: 'string', maxLength: 64 },
      page: { type: 'string', pattern: '^[0-9]{1,6}$' },
      page_size: { type: 'string', pattern: '^[0-9]{1,3}$' },
    },
  },
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
} as const;
