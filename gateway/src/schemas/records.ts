// The answers' records (response schemas), registered once with an $id (app.ts) and named in the OpenAPI document's
// components. Every record is open (additionalProperties: true): Fastify's serializer drops what a response schema
// does not name, and a field added to a proto message must reach the clients without a schema change here. Each
// property's type is exactly what routes/*.ts and wire.ts send, null included (the serializer would turn a null
// into "" or 0 where the type does not allow it).
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const nStr = { type: ['string', 'null'] } as const;
const nInt = { type: ['integer', 'null'] } as const;
const ints = { type: 'array', items: int } as const;
const strs = { type: 'array', items: str } as const;
const open = (properties: Record<string, unknown>) =>
  ({ type: 'object', additionalProperties: true, properties }) as const;
/** The same, every field always there (records whose every field the route sets: a missing one is a 500, never a silent gap). */
const whole = (properties: Record<string, unknown>) =>
  ({ ...open(properties), required: Object.keys(properties) }) as const;
const ref = (id: string) => ({ $ref: `${id}#` }) as const;

/** A GeoJSON point as the API answers geotags, or null. */
const point = {
  type: ['object', 'null'],
  additionalProperties: true,
  properties: { type: str, coordinates: { type: 'array', items: { type: 'number' } } },
} as const;

export const siteSchema = {
  $id: 'Site',
  ...whole({
    id: int,
    name: str,
    geotag: point,
    frontend_icon: str,
    frontend_color: str,
    date_start: nStr,
    date_end: nStr,
    active_flag: bool,
    total_responses: int,
    last_response: nStr,
    groups: ints,
    project: int,
    duration_days: nInt,
    goal_count: int,
  }),
} as const;

export const groupSchema = { $id: 'Group', ...whole({ id: int, name: str, site: int, teams: ints }) } as const;
export const teamSchema = { $id: 'Team', ...whole({ id: int, name: str, group: int, users: ints }) } as const;

export const projectUserSchema = {
  $id: 'ProjectUser',
  ...open({
    id: int,
    user: int,
    user_id: int,
    display_name: str,
    email: str,
    username: str,
    org_id: int,
    site: nInt,
    group: nInt,
    team: nInt,
    read_sites: ints,
    permissions: strs,
    project_owner: bool,
    project_admin: bool,
    researcher: bool,
    collector: bool,
    data_manager: bool,
    staff_admin: bool,
  }),
} as const;

export const surveySchema = {
  $id: 'Survey',
  ...whole({
    id: int,
    project: int,
    token: str,
    expiry_date: { ...nStr, description: 'null: an anonymous link that never expires' },
    time_created: str,
    revoked_at: nStr,
    expired: bool,
    site: nInt,
    kind: { type: 'string', enum: ['anonymous', 'survey'] },
    name: str,
    proceed_unauthenticated: bool,
  }),
} as const;

export const projectSchema = {
  $id: 'Project',
  ...open({
    id: int,
    name: str,
    description: str,
    project_state: str,
    project_type: str,
    geotag: point,
    folder_id: nInt,
    primary_organization: int,
    frontend_color: str,
    frontend_icon: str,
    logo: nStr,
    is_hierarchical: bool,
    is_entity: bool,
    project_hierarchy: { type: 'array', items: open({ level: int, name: str, schema_id: int }) },
    project_period: str,
    timing_column: str,
    aggregator: str,
    trend_series_options: {
      type: ['object', 'null'],
      additionalProperties: true,
      properties: { time_particle: str, trend_question: str, aggregator: str, trend_question_schema: int },
    },
    sites: { type: 'array', items: ref('Site'), description: 'The full project only' },
    groups: { type: 'array', items: ref('Group'), description: 'The full project only' },
    teams: { type: 'array', items: ref('Team'), description: 'The full project only' },
    projectuser_set: {
      type: 'array',
      items: ref('ProjectUser'),
      description:
        'The full project only: its first users (projectuser_count says how many; GET project/{id}/users/ pages)',
    },
    projectuser_count: { type: 'integer', description: 'The full project only: how many users it has' },
    sampler_schemas: {
      type: 'array',
      items: open({ id: int, name: str, version: str, level: int }),
      description: 'The full project only',
    },
    collect_sites: { ...ints, description: 'The full project only: the sites the caller may file responses under' },
    references: ints,
    current_survey: { anyOf: [ref('Survey'), { type: 'null' }] },
    current_collection_round: {
      type: ['object', 'null'],
      additionalProperties: true,
      properties: { date_start_timestamp: str },
    },
    date_end: nStr,
    goal_count: int,
    total_responses: int,
    complete_responses: int,
    incomplete_responses: int,
    last_response: nStr,
    time_created: str,
    time_updated: str,
    permissions: strs,
  }),
} as const;

/** A response as the web app reads it (routes/responses.ts responseJson). */
export const responseSchema = {
  $id: 'Response',
  ...open({
    id: int,
    response_id: str,
    project: int,
    sampler_schema: int,
    user: nInt,
    email: str,
    display_name: str,
    site_id: nInt,
    group_id: nInt,
    team_id: nInt,
    device_id: str,
    completed: bool,
    deleted: bool,
    locked: bool,
    is_valid: bool,
    is_marker: bool,
    archived: bool,
    parent_id: nStr,
    ancestors: strs,
    response_referenced_id: nStr,
    geotag: { description: 'The GeoJSON point as uploaded, or null' },
    geotag_history: { type: 'array' },
    media_uploading_count: int,
    signature_uploading_count: int,
    time_created: str,
    time_updated: str,
    time_completed: nStr,
    time_uploaded: str,
    data: { type: 'object', additionalProperties: true, description: 'Answers by repeat index, then by item id' },
    lookup_answers: { type: 'object', additionalProperties: true },
    children_count: int,
    version: int,
  }),
} as const;

/** A referenced project's response as the reference picker reads it: which record it is, nothing of its answers. */
export const referenceResponseSchema = {
  $id: 'ReferenceResponse',
  ...open({
    id: int,
    response_id: str,
    project: int,
    sampler_schema: int,
    display_name: str,
    lookup_answers: { type: 'object', additionalProperties: true },
    completed: bool,
    time_created: str,
    time_updated: str,
    version: int,
  }),
} as const;

export const advancedResultSchema = {
  $id: 'AdvancedResult',
  ...open({
    id: int,
    project: int,
    name: str,
    description: str,
    threshold_value_upper: { type: ['number', 'null'] },
    threshold_value_lower: { type: ['number', 'null'] },
    formula: str,
    editor_state: { description: 'The editor state, as sent' },
    deleted: bool,
    show_on_project_summary: bool,
    show_on_site_summary: bool,
    display_type: str,
    edit_mode: bool,
    time_created: str,
    time_updated: str,
  }),
} as const;

/** A job of the exports service (an export, an import, a bulk users import) as routes/exports.ts jobJson answers it. */
export const jobSchema = {
  $id: 'Job',
  ...open({
    id: str,
    project_id: int,
    schema_id: int,
    kind: str,
    status: { type: 'string', description: 'queued, running, done, failed or cancelled' },
    rows_done: int,
    rows_total: int,
    percent: { type: 'number' },
    url: { ...nStr, description: 'A download link while the file lives (done jobs only)' },
    error: str,
    size: int,
    time_created: str,
    expires_at: str,
    rows_failed: int,
    report_url: { ...nStr, description: 'Imports: a CSV of the refused rows while it lives' },
    result: { description: 'What the job did: import counts, or the bulk users report' },
    profile: str,
  }),
} as const;

/** A sampler schema (a form) as the form builder reads it: the form document's fields, with these (routes/forms.ts). */
export const samplerSchemaSchema = {
  $id: 'SamplerSchema',
  ...open({
    id: int,
    name: str,
    project: int,
    level: int,
    revision: int,
    time_updated: str,
    editable: bool,
  }),
} as const;

export const recordSchemas = [
  siteSchema,
  groupSchema,
  teamSchema,
  projectUserSchema,
  surveySchema,
  projectSchema,
  responseSchema,
  referenceResponseSchema,
  advancedResultSchema,
  jobSchema,
  samplerSchemaSchema,
];

/** A `{results, count}` answer of records. */
export const listOf = (id: string) =>
  ({
    type: 'object',
    additionalProperties: true,
    properties: { results: { type: 'array', items: ref(id) }, count: int },
  }) as const;
/** An answer whose shape is open (results payloads, summaries): documented as an object, serialized as it is. */
export const anyObject = { type: 'object', additionalProperties: true } as const;
export { ref };
