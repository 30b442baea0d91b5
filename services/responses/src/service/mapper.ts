// Rows to the messages of proto/responses.proto, and the event published for each accepted change.
import type { responses } from '@fieldwork/proto';
import type { ResponseRow } from '../store/response.store.js';

const iso = (d: Date | null) => d?.toISOString() ?? '';

export function toMessage(
  r: ResponseRow,
  extra: { children?: number; media?: { image: number; signature: number } } = {},
): responses.Response {
  return {
    id: r.id,
    response_id: r.response_id,
    project: r.project_id,
    schema: r.schema_id,
    user: r.user_id ?? 0,
    display_name: r.display_name,
    site_id: r.site_id ?? 0,
    group_id: r.group_id ?? 0,
    team_id: r.team_id ?? 0,
    device_id: r.device_id,
    completed: r.completed,
    deleted: r.deleted,
    locked: r.locked,
    is_valid: r.is_valid,
    is_marker: r.is_marker,
    archived: r.archived,
    parent_id: r.parent_id ?? '',
    ancestors: r.ancestors,
    response_referenced_id: r.response_referenced_id ?? '',
    geotag: r.geotag ?? undefined,
    geotag_history: r.geotag_history,
    media_uploading_count: extra.media?.image ?? 0,
    signature_uploading_count: extra.media?.signature ?? 0,
    time_created: iso(r.time_created),
    time_updated: iso(r.time_updated),
    time_completed: iso(r.time_completed),
    time_uploaded: iso(r.time_uploaded),
    data_json: JSON.stringify(r.data),
    lookup_answers_json: JSON.stringify(r.lookup_answers),
    version: r.version,
    children_count: extra.children ?? 0,
    email: r.email,
  };
}

/** Answers ("repeat.itemId") the previous version had and this one has not: the results store drops them. */
export function removedAnswers(previous: ResponseRow['data'] | undefined, next: ResponseRow['data']): string[] {
  if (!previous) return [];
  const out: string[] = [];
  for (const [repeat, answers] of Object.entries(previous))
    for (const id of Object.keys(answers)) if (next[repeat]?.[id] === undefined) out.push(`${repeat}.${id}`);
  return out;
}

/** The event of an accepted change (subject responses.<projectId>, Nats-Msg-Id <response_id>:<version>). */
export function eventOf(r: ResponseRow, previous?: ResponseRow['data']) {
  return {
    type: 'response',
    response_id: r.response_id,
    version: r.version,
    project: r.project_id,
    schema: r.schema_id,
    user: r.user_id,
    site: r.site_id,
    group: r.group_id,
    team: r.team_id,
    completed: r.completed,
    deleted: r.deleted,
    archived: r.archived,
    parent_id: r.parent_id,
    geotag: r.geotag,
    time_created: r.time_created.toISOString(),
    time_updated: r.time_updated.toISOString(),
    time_completed: r.time_completed?.toISOString() ?? null,
    time_uploaded: r.time_uploaded.toISOString(),
    data: r.data,
    removed: removedAnswers(previous, r.data),
  };
}
