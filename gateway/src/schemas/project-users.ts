// Request schemas of the project user routes (routes/project-users.ts; spec 000 §7 Projects, Users).
import { INT32_MAX } from '../schemas.js';
import { body, flag, openObject, optText, params, query, ref, refList } from './common.js';
import { ref as record } from './records.js';

const roles = {
  project_owner: flag,
  project_admin: flag,
  researcher: flag,
  collector: flag,
  data_manager: flag,
  staff_admin: flag,
};
/** Where a project user collects (0 or null: nowhere) and the sites whose data they read (null: unchanged). */
const placement = { site: ref, group: ref, team: ref, read_sites: { ...refList(), type: ['array', 'null'] } };
/** The project of a call that names it in the body (0 or absent: "Invalid Project Id!"). */
const projectRef = { type: ['integer', 'null'], maximum: INT32_MAX } as const;
const cell = { type: ['string', 'number', 'null'], maxLength: 1000 } as const;

const bulkReport = openObject({
  added: { type: 'integer' },
  updated: { type: 'integer' },
  failed: { type: 'integer' },
  rows: {
    type: 'array',
    items: openObject({
      row: { type: 'integer', description: '1-based row of the list' },
      email: { type: 'string' },
      status: { type: 'string', description: 'added, updated or failed' },
      errors: { type: 'array', items: { type: 'string' } },
      user_id: { type: 'integer' },
    }),
  },
});

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
  /**
   * The same permissions and/or read sites for several users: `permissions` are the names a project user's
   * permissions list (spec 000 §6: home, canSetLive, sites, parameters, admins, staff, form, results, collector,
   * dataManager, projectLevelIngestion), given through the roles that give exactly them; role names are read as
   * their screens. GET a user, send back its permissions: nothing changes.
   */
  permissions: body({
    projectId: projectRef,
    project_id: projectRef,
    userIds: refList(),
    user_ids: refList(),
    permissions: { type: ['array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 50 } },
    read_sites: { ...refList(), type: ['array', 'null'] },
  }),

  /** Answers. A page of project users: the page size used, and whether the one asked for was over the cap. */
  page: openObject({
    results: { type: 'array', items: record('ProjectUser') },
    count: { type: 'integer', description: 'How many users match, over every page' },
    page: { type: 'integer' },
    page_size: { type: 'integer', description: 'The page size used' },
    page_size_capped: { type: 'boolean', description: 'The page size asked for was over the cap' },
    detail: { type: 'string', description: 'Says that the page size was capped, when it was' },
  }),
  /** What a bulk add did, row by row. */
  bulkReport,
  /** A users list done within the wait: the bulk report and its job. */
  listDone: openObject({ ...bulkReport.properties, job: record('Job') }),
  /** A users list still running (202): the job to follow with GET exports/jobs/{id}/. */
  listQueued: openObject({ job: record('Job') }),
} as const;
