// Building blocks of the route schemas (schemas/<group>.ts): plain JSON Schema, checked by Fastify's ajv (no
// coercion, nothing removed) and published in the OpenAPI document at /api/docs/json.
import { INT32_MAX } from '../schemas.js';

/** A string of at most `max` characters. */
export const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
/** The same, null allowed (read as ''). */
export const optText = (max: number) => ({ type: ['string', 'null'], maxLength: max }) as const;
export const flag = { type: 'boolean' } as const;
/** An id of another record in a body: an integer, 0 or null for none. */
export const ref = { type: ['integer', 'null'], minimum: 0, maximum: INT32_MAX } as const;
/** A list of record ids. */
export const refList = (maxItems = 10_000) =>
  ({ type: 'array', maxItems, items: { type: 'integer', minimum: 1, maximum: INT32_MAX } }) as const;
/** A number (no NaN or infinity in JSON), null for none. */
export const optNumber = { type: ['number', 'null'] } as const;
/** A date or date-time as text ('' or null: none); the service checks the format and answers the spec's message. */
export const date = optText(40);
/**
 * A geotag: a GeoJSON point {type: "Point", coordinates: [lng, lat]} or {latitude, longitude}. Not typed here: the
 * spec answers any other value, whatever its JSON type, with the projects service's "Geotag is required" (400).
 */
export const geotag = {
  description:
    'A GeoJSON point {"type": "Point", "coordinates": [lng, lat]} or {"latitude", "longitude"}; anything else: 400 "Geotag is required".',
} as const;
/** Any JSON value (filters, editor states: bounded in depth and size by limits.ts and the body limit). */
export const anyJson = {} as const;

/**
 * A JSON body object. `additionalProperties` stays open: the spec's clients send more than a call reads (the web app
 * sends whole records back), and what a call does not read is ignored, not refused. Null (no body) is an empty body.
 */
export const body = <P extends Record<string, unknown>>(properties: P, required: readonly string[] = []) =>
  ({
    type: ['object', 'null'],
    additionalProperties: true,
    properties,
    ...(required.length > 0 ? { required } : {}),
  }) as const;

/**
 * Path parameters, all strings in the URL: the handler reads each id (util.ts parseId) and refuses a bad one with the
 * spec's own message ("Invalid Project Id!", ...), so the schema names them without refusing any.
 */
export const params = (...names: string[]) =>
  ({
    type: 'object',
    required: names,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', maxLength: 1024 }])),
  }) as const;

/**
 * Query string fields, strings in the URL (a field given twice is a list, refused): integers are read and bounded by
 * util.ts queryInt (400 with the field's name). `exact`: fields with a schema of their own (a choice of values).
 */
export const query = (fields: Record<string, string>, exact: Record<string, object> = {}) =>
  ({
    type: 'object',
    additionalProperties: true,
    properties: {
      ...Object.fromEntries(
        Object.entries(fields).map(([n, description]) => [n, { type: 'string', maxLength: 1000, description }]),
      ),
      ...exact,
    },
  }) as const;

/** An open JSON object answer: the fields named are always there, others may be. */
export const openObject = <P extends Record<string, unknown>>(properties: P) =>
  ({ type: 'object', additionalProperties: true, properties }) as const;
/** A `{results, count}` list answer. */
export const list = (item: unknown) =>
  ({
    type: 'object',
    additionalProperties: true,
    properties: { results: { type: 'array', items: item }, count: { type: 'integer' } },
  }) as const;

/**
 * The body of a call that reads none (an action on what the path names: duplicate, revoke, restore, cancel ...).
 * Nothing, null or any object is accepted and ignored, as before; declared so the OpenAPI document says so (every
 * POST, PUT and PATCH declares its body: openapi.test.ts).
 */
export const noBody = {
  type: ['object', 'null'],
  additionalProperties: true,
  properties: {},
  description: 'Nothing is read from the body: send none, or {}.',
} as const;

/** The answer of a call that answers 204 with no content (deletes). */
export const noContent = { type: 'null', description: 'Done: no content.' } as const;

/** An answer that is a file: its content type and its bytes as they are (never serialized as JSON). */
export const fileReply = (contentType: string, description: string) =>
  ({ description, content: { [contentType]: { schema: { type: 'string', format: 'binary' } } } }) as const;
