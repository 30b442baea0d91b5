// Request schemas of the response routes (routes/responses.ts; spec 001 §3 Upload payload, §7 Responses, Collection).
import { responseSchema } from './records.js';
import { body, flag, noBody, openObject, optText, params, query, ref, text } from './common.js';

const time = { type: ['string', 'number'], maxLength: 40, description: 'ISO 8601 text or epoch milliseconds' } as const;

export const responseSchemas = {
  projectParams: params('id'),
  fromParams: params('id', 'lastId'),
  singleParams: params('id', 'responseId'),
  referenceParams: params('id', 'refId'),
  mediaParams: params('id', 'mediaId'),
  tokenParams: params('token'),
  listQuery: query({ limit: 'At most this many responses (default 5000)' }),
  pageQuery: query({ page: 'Page number, from 1', page_size: 'Responses a page (default 50)' }),
  lookupQuery: query({ schema: 'The schema whose lookup answers are searched', key: 'The lookup value' }),
  /**
   * The upload payload (spec 001 §3), with the lifecycle fields a client may send along; the responses service checks
   * it (its own field messages) against the form. Fields it does not know are ignored.
   */
  upload: body({
    response_id: text(200),
    sampler_schema: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    project: { type: 'integer' },
    device_id: text(200),
    response_referenced_id: optText(200),
    site: ref,
    group: ref,
    team: ref,
    data: {
      type: 'object',
      additionalProperties: { type: 'object' },
      description: 'Answers by repeat index, then by item id',
    },
    time_created: time,
    time_updated: time,
    time_completed: time,
    geotag: { type: ['object', 'null'], additionalProperties: true },
    parent_id: optText(200),
    locked: flag,
    deleted: flag,
    archived: flag,
    is_marker: flag,
    email: text(254),
  }),
  /** The filtered chunk (50 a page by default): filters as the results use them, and the schema shown. */
  filter: body({ filters: {}, currentSamplerSchema: ref }),
  email: body({ send_to: text(254) }),
  /** Ask for a presigned media upload (an image or a signature of a response). */
  media: body({
    response_id: text(200),
    kind: text(50),
    filename: text(255),
    content_type: text(255),
    size: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  }),
  /** The media upload is done: nothing but the path. */
  mediaDone: noBody,
  /** Open a collection link: the respondent's email and device fingerprint, both optional. */
  collect: body({ email: optText(254), fingerprint: optText(200) }),

  /** Answers. An upload: the response and what became of it (stored, unchanged, refused ...), or only that. */
  uploaded: openObject({ ...responseSchema.properties, upload_status: { type: 'string' } }),
  mediaUpload: openObject({
    media_id: { type: 'string' },
    key: { type: 'string' },
    upload_url: { type: 'string' },
    expires: { type: 'string' },
  }),
  /** How many open links were emailed. */
  emailed: openObject({ open: { type: 'integer' } }),
  /** A media file once uploaded: where it is and how many of the response's files are still to come. */
  mediaInfo: openObject({
    media_id: { type: 'string' },
    key: { type: 'string' },
    url: { type: 'string' },
    thumbnail_url: { type: 'string' },
    size: { type: 'integer' },
    content_type: { type: 'string' },
    media_uploading_count: { type: 'integer' },
    signature_uploading_count: { type: 'integer' },
  }),
  /** A collection link opened: its project, forms and the respondent's collection token. */
  collectLink: openObject({
    project_details: { type: 'object', additionalProperties: true },
    sampler_schemas: {
      type: 'array',
      items: openObject({
        id: { type: 'integer' },
        name: { type: 'string' },
        version: { type: 'string' },
        level: { type: 'integer' },
      }),
    },
    proceed_unauthenticated: { type: 'boolean' },
    token: { type: 'string' },
    expiry_date: { type: ['string', 'null'], description: 'null: an anonymous link that never expires' },
  }),
} as const;
