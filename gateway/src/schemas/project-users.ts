// Request schemas of the project user routes (routes/project-users.ts; spec 000 §7 Projects, Users).
import { INT32_MAX } from '../schemas.js';
import { body, flag, optText, params, query, ref, refList } from './common.js';

const roles = { project_owner: flag, project_admin: flag, researcher: flag, collector: flag, data_manager: flag };
/** Where a project user collects (0 or null: nowhere) and the sites whose data they read (null: unchanged). */
const placement = { site: ref, group: ref, team: ref, read_sites: { ...refList(), type: ['array', 'null'] } };
/** The project of a call that names it in the body (0 or absent: "Invalid Project Id!"). */
const projectRef = { type: ['integer', 'null'], maximum: INT32_MAX } as const;
const cell = { type: ['string', 'number', 'null'], maxLength: 1000 } as const;

export const projectUserSchemas = {
  projectParams: params('id'),
  userParams: params('id', 'userId'),
  listQuery: query({
    page: 'Page number, from 1',
    page_size: 'Users a page (0: the default)',
    role: 'Only users with this role',
    filter: 'The same as role',
    search: 'Name or email contains',
  }),
  /** Add a workspace user to the project or change one (what is absent stays; the web app also sends the workspace and its own username). */
  update: body({ ...roles, ...placement, first_name: optText(150), last_name: optText(150) }),
  /** Create a user in a project (spec 000 §5: when a projectId is present). */
  create: body({
    projectId: projectRef,
    project_id: projectRef,
    email: optText(254),
    first_name: optText(150),
    last_name: optText(150),
    password: optText(256),
    ...roles,
    ...placement,
  }),
  /** Rows of the bulk user template (bulk_user_template.csv); the service checks each and reports by row. */
  bulk: body({
    projectId: projectRef,
    project_id: projectRef,
    parsedList: {
      type: 'array',
      maxItems: 100_000,
      items: {
        type: 'object',
        additionalProperties: true,
        properties: {
          email: cell,
          first_name: cell,
          last_name: cell,
          role: cell,
          site: cell,
          group: cell,
          team: cell,
          password: cell,
        },
      },
    },
  }),
  /** The same roles (role names) and/or read sites for several users. */
  permissions: body({
    projectId: projectRef,
    project_id: projectRef,
    userIds: refList(),
    user_ids: refList(),
    permissions: { type: ['array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 50 } },
    read_sites: { ...refList(), type: ['array', 'null'] },
  }),
} as const;
