// Uploads of responses (spec 001 §3 Upload payload, §4 Response lifecycle): the payload, and what to do with it
// given the stored copy. Pure.
import { z } from 'zod';
import { ANSWER_MESSAGES, GEOTAG_HISTORY_MAX, type Block, type SchemaBody } from '@fieldwork/sampler';

export const UPLOAD_ACTIONS = ['save', 'complete', 'uncomplete'] as const;
export type UploadAction = (typeof UPLOAD_ACTIONS)[number];

const time = z.union([z.string(), z.number()]).optional();
const point = z
  .object({
    type: z.literal('Point').optional(),
    coordinates: z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]).optional(),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    accuracy: z.number().nonnegative().optional(),
    timestamp: time,
  })
  .refine(
    (g) => g.coordinates !== undefined || (g.latitude !== undefined && g.longitude !== undefined),
    'Enter a location as a point of two coordinates.',
  );

/** The payload of spec 001 §3, with the lifecycle fields a client may send along. */
export const uploadPayload = z.object({
  project: z.coerce.number().int().positive(),
  sampler_schema: z.coerce.number().int().positive(),
  device_id: z.string().max(200).default(''),
  response_id: z.string().regex(/^[\w.:-]{1,200}$/, 'Use letters, digits, and . : _ - only (at most 200).'),
  response_referenced_id: z.string().max(200).nullish(),
  site: z.coerce.number().int().nonnegative().nullish(),
  group: z.coerce.number().int().nonnegative().nullish(),
  team: z.coerce.number().int().nonnegative().nullish(),
  data: z.record(z.string(), z.record(z.string(), z.unknown())),
  time_created: time,
  time_updated: time,
  time_completed: time,
  geotag: point.nullish(),
  parent_id: z.string().max(200).nullish(),
  locked: z.boolean().optional(),
  deleted: z.boolean().optional(),
  archived: z.boolean().optional(),
  is_marker: z.boolean().optional(),
  email: z.string().max(254).optional(),
});
export type UploadPayload = z.infer<typeof uploadPayload>;

/** A client time (ISO text or epoch milliseconds) as a Date; `fallback` when absent; undefined when invalid. */
export function clientTime(v: string | number | undefined, fallback: Date): Date | undefined {
  if (v === undefined || v === '') return fallback;
  const d = typeof v === 'number' ? new Date(v) : new Date(v);
  if (Number.isNaN(d.getTime())) return undefined;
  // A device clock far in the future would win every later edit: refuse times more than a day ahead.
  return d.getTime() > fallback.getTime() + 86_400_000 ? undefined : d;
}

/** No response happened before this: a device clock reset (1900, 1970) is refused, not stored. */
export const TIME_FLOOR = new Date(Date.UTC(2000, 0, 1));

/**
 * Times said earlier than allowed, by field: before `linkFloor` (a collection link's respondent: when the link was
 * made, less the clock skew allowed) as 'link', else before TIME_FLOOR as 'floor'. Missing or invalid times are
 * clientTime's to refuse.
 */
export function earlyTimes(
  times: Record<string, Date | undefined>,
  linkFloor?: number,
): Record<string, 'link' | 'floor'> {
  const out: Record<string, 'link' | 'floor'> = {};
  for (const [k, t] of Object.entries(times)) {
    if (t === undefined) continue;
    if (linkFloor !== undefined && t.getTime() < linkFloor) out[k] = 'link';
    else if (t.getTime() < TIME_FLOOR.getTime()) out[k] = 'floor';
  }
  return out;
}

/** Response ids are client-made (project, schema, user, device, timestamp, counter) and start with project-schema-. */
export function responseIdFits(responseId: string, projectId: number, schemaId: number): boolean {
  return responseId.startsWith(`${projectId}-${schemaId}-`);
}

export interface StoredVersion {
  time_updated: Date;
  data: unknown;
  completed: boolean;
  deleted: boolean;
  locked: boolean;
  archived: boolean;
}

export type Decision = 'new' | 'newer' | 'unmodified' | 'ignored';

/**
 * What an upload does to the stored copy: a new response; a newer time_updated wins; an older one is ignored (not an
 * error); the same one, with nothing changed, is unmodified.
 */
export function decide(stored: StoredVersion | undefined, incoming: StoredVersion): Decision {
  if (!stored) return 'new';
  const a = incoming.time_updated.getTime();
  const b = stored.time_updated.getTime();
  if (a < b) return 'ignored';
  const same =
    JSON.stringify(stored.data) === JSON.stringify(incoming.data) &&
    stored.completed === incoming.completed &&
    stored.deleted === incoming.deleted &&
    stored.locked === incoming.locked &&
    stored.archived === incoming.archived;
  if (same) return 'unmodified';
  return 'newer';
}

export interface Geotag {
  type: 'Point';
  coordinates: [number, number];
  accuracy?: number;
  timestamp?: string;
}

export function toGeotag(g: NonNullable<UploadPayload['geotag']>, now: Date): Geotag {
  const coordinates: [number, number] = g.coordinates ?? [g.longitude!, g.latitude!];
  const ts = g.timestamp !== undefined ? clientTime(g.timestamp, now) : now;
  return {
    type: 'Point',
    coordinates,
    ...(g.accuracy !== undefined ? { accuracy: g.accuracy } : {}),
    timestamp: (ts ?? now).toISOString(),
  };
}

/** The geotag history keeps at most 10 entries (spec 001 §9), the newest last; an unchanged point is not repeated. */
export function nextHistory(history: Geotag[], geotag: Geotag | undefined): Geotag[] {
  if (!geotag) return history;
  const last = history[history.length - 1];
  if (last && last.coordinates[0] === geotag.coordinates[0] && last.coordinates[1] === geotag.coordinates[1])
    return history;
  return [...history, geotag].slice(-GEOTAG_HISTORY_MAX);
}

/**
 * What a project's state lets an upload do: a deleted project takes nothing; a finalized one (collection is over)
 * takes no new response, and changes to stored ones only from those who edit completed responses (owners, admins,
 * data managers: cleaning the data after collection ends). Collection links of both have expired already.
 */
export function stateRefusal(
  state: string,
  isNew: boolean,
  editsCompleted: boolean,
): 'deleted' | 'finalized' | undefined {
  if (state === 'D') return 'deleted';
  if (state === 'F' && (isNew || !editsCompleted)) return 'finalized';
  return undefined;
}

/**
 * Repeat instances a response may hold: 0 (the first) and further ones numbered without gaps. A household roster
 * holds tens; every instance counts once in results and exports, so a made-up instance is a made-up answer.
 */
export const REPEAT_LIMIT = 100;

export const SHAPE_MESSAGES = {
  repeats: `Repeat instances are numbered 0, 1, 2 and so on without gaps, at most ${REPEAT_LIMIT}.`,
  once: 'This question is in a category asked once: answer it in the first repeat (0) only.',
} as const;

/**
 * What the form says about where answers may be, beyond each answer's own check (packages/sampler checkResponse):
 * repeat instances 0..n-1 with n at most REPEAT_LIMIT, questions placed in a live category of the form (a question
 * of a deleted or detached category is as unknown as a made-up id), and questions of a category asked once (or
 * inside one) in instance 0 only. Problems keyed as checkResponse's: "repeat" or "repeat.itemId".
 */
export function answerPlacementProblems(body: SchemaBody, data: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = {};
  const repeats = Object.keys(data).filter((k) => /^\d{1,4}$/.test(k));
  const count = Math.min(repeats.length, REPEAT_LIMIT);
  for (const k of repeats) if (String(Number(k)) !== k || Number(k) >= count) problems[k] = SHAPE_MESSAGES.repeats;
  // Each live question of the form, and whether a category asked once holds it.
  const placed = new Map<string, boolean>();
  const walk = (block: Block | undefined, once: boolean, seen: Set<number>) => {
    if (!block || block.deleted || seen.has(block.id)) return;
    seen.add(block.id);
    const mine = once || block.askOnce;
    for (const ref of block.entities) {
      if (ref.type === 'item') placed.set(String(ref.id), mine);
      else walk(body.entities.blocks[ref.id], mine, seen);
    }
  };
  const seen = new Set<number>();
  for (const id of body.form) walk(body.entities.blocks[id], false, seen);
  for (const k of repeats) {
    if (problems[k]) continue;
    const answers = data[k];
    if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) continue;
    for (const id of Object.keys(answers)) {
      const item = body.entities.items[id];
      // Unknown and deleted ids are checkResponse's to refuse, with the same message.
      if (!item || item.deleted) continue;
      const once = placed.get(id);
      if (once === undefined) problems[`${k}.${id}`] = ANSWER_MESSAGES.unknown;
      else if (once && k !== '0') problems[`${k}.${id}`] = SHAPE_MESSAGES.once;
    }
  }
  return problems;
}
