// Request schemas of the project routes (routes/projects.ts; spec 000 §7 Projects). Upload bodies: routes/uploads.ts.
import { boundedInt, optBoundedInt } from '../schemas.js';
import { body, date, flag, geotag, list, noBody, openObject, optText, params, ref, text } from './common.js';

const look = { frontend_color: optText(50), frontend_icon: optText(100) };
/** Trend series of a project: the question as its id or its name (Q1_2). */
const trendSeries = {
  type: ['object', 'null'],
  additionalProperties: true,
  properties: {
    time_particle: text(50),
    trend_question: { type: ['string', 'integer'], maxLength: 200 },
    aggregator: text(50),
    trend_question_schema: ref,
  },
} as const;

export const projectSchemas = {
  projectParams: params('id'),
  duplicateParams: params('id', 'folderId'),
  /** A copy of the project (into the folder the path names): nothing but the path. */
  duplicate: noBody,
  create: body({
    organization_pk: ref,
    name: text(255),
    description: optText(10_000),
    ...look,
    folder_id: ref,
    logo: optText(1000),
    geotag,
  }),
  /**
   * PUT and PATCH: what is present changes (null clears a text, 0 or null takes the project out of its folder);
   * PATCH also takes is_entity. The goal is a count (a bigint column): an integer, at most an int32's largest.
   */
  update: body({
    name: text(255),
    description: optText(10_000),
    ...look,
    folder_id: ref,
    logo: optText(1000),
    date_end: date,
    goal_count: optBoundedInt(0),
    current_collection_round_start: date,
    geotag,
    is_entity: flag,
  }),
  status: body({ project_state: text(50) }),
  type: body({ project_type: text(50), trend_series_options: trendSeries }),
  period: body({ trend_series_options: trendSeries }),
  /** A level's number reaches an int32 field: bounded (the list is the project's levels, a handful). */
  hierarchy: body(
    {
      is_hierarchical: flag,
      project_hierarchy: {
        type: ['array', 'null'],
        maxItems: 100,
        items: {
          type: 'object',
          additionalProperties: true,
          properties: { level: boundedInt(0, 100), name: text(255), schema_id: ref, schema: ref },
        },
      },
    },
    ['is_hierarchical'],
  ),
  timingColumn: body({ timing_column: text(200) }),
  aggregator: body({ project_aggregator: text(200) }),
  /** Answers. An uploaded project file: its id (the file_identifier of imports and forms from a file) and a short-lived url. */
  uploaded: openObject({
    file_id: { type: 'string' },
    filename: { type: 'string' },
    size: { type: 'integer' },
    content_type: { type: 'string' },
    url: { type: 'string' },
  }),
  /** The project's home screen: its counts. */
  home: openObject({
    id: { type: 'integer' },
    name: { type: 'string' },
    project_state: { type: 'string' },
    project_type: { type: 'string' },
    total_responses: { type: 'integer' },
    complete_responses: { type: 'integer' },
    incomplete_responses: { type: 'integer' },
    last_response: { type: 'string' },
    sites: { type: 'integer' },
    active_sites: { type: 'integer' },
    groups: { type: 'integer' },
    teams: { type: 'integer' },
    users: { type: 'integer' },
    collectors: { type: 'integer' },
    schemas: { type: 'integer' },
    questions: { type: 'integer' },
    goal_count: { type: 'integer' },
    date_end: { type: 'string' },
  }),
  statusReply: openObject({ status: { type: 'string' }, project_state: { type: 'string' } }),
  /** A deleted project's purge: what it removes (none, running, failed) or removed (done), by kind. */
  purge: openObject({
    project_id: { type: 'integer' },
    name: { type: 'string' },
    state: { type: 'string', enum: ['none', 'running', 'done', 'failed'] },
    counts: { type: 'object', additionalProperties: { type: 'integer' } },
    requested_at: { type: ['string', 'null'] },
    finished_at: { type: ['string', 'null'] },
    error: { type: 'string' },
  }),
  /** Starting a purge reads nothing but the path. */
  purgeStart: noBody,
  summaryBySite: list(
    openObject({
      site_id: { type: 'integer' },
      name: { type: 'string' },
      active_flag: { type: 'boolean' },
      total_responses: { type: 'integer' },
      complete_responses: { type: 'integer' },
      last_response: { type: ['string', 'null'] },
      collectors: { type: 'integer' },
    }),
  ),
} as const;
