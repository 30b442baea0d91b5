// What the aggregates count of a response (docs/results.md "Aggregates"): its state, a row of response_state and of
// state_changes, and which versions change it. Pure.
import { answerValue, chTime, type ResponseEvent } from './rows.js';

/** The day of a timing column that is empty (a response not completed). */
export const NO_DAY = '1900-01-01';

export interface StateRow {
  project_id: number;
  schema_id: number;
  response_id: string;
  version: number;
  user_id: number;
  site_id: number;
  group_id: number;
  team_id: number;
  completed: number;
  deleted: number;
  time_created: string;
  time_updated: string;
  time_completed: string | null;
  time_uploaded: string;
  d_created: string;
  d_updated: string;
  d_completed: string;
  d_uploaded: string;
  a_item: number[];
  a_num: (number | null)[];
  a_choices: number[][];
  a_date: (string | null)[];
  a_text: string[];
}

export type ChangeRow = StateRow & { sign: 1 | -1 };

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Per time zone, its offset from UTC (ms) per quarter hour: every zone's offsets and changes fall on quarter hours. */
const offsets = new Map<string, Map<number, number>>();
const QUARTER = 900_000;

function offsetIn(ms: number, tz: string): number {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(tz, f);
  }
  let byQuarter = offsets.get(tz);
  if (!byQuarter) offsets.set(tz, (byQuarter = new Map()));
  const q = Math.floor(ms / QUARTER);
  let off = byQuarter.get(q);
  if (off === undefined) {
    const at = q * QUARTER;
    const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
    off = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) - at;
    if (byQuarter.size > 200_000) byQuarter.clear();
    byQuarter.set(q, off);
  }
  return off;
}

/**
 * The calendar day (YYYY-MM-DD) of an instant in an IANA time zone, as ClickHouse's toDate32(t, tz) gives it (both
 * read the IANA database), clamped to Date32's range. The zone's offset is looked up once per quarter hour.
 */
export function dayIn(ms: number, tz: string): string {
  const local = tz === 'UTC' ? ms : ms + offsetIn(ms, tz);
  if (!Number.isFinite(local) || local < -2_208_988_800_000) return '1900-01-01';
  if (local >= 10_413_792_000_000) return '2299-12-31';
  return new Date(local).toISOString().slice(0, 10);
}

/** The state of a response version: its answers as typed arrays, its timing columns' days in `tz`. */
export function stateOf(e: ResponseEvent, tz: string): StateRow {
  const row: StateRow = {
    project_id: e.project,
    schema_id: e.schema,
    response_id: e.response_id,
    version: e.version,
    user_id: e.user ?? 0,
    site_id: e.site ?? 0,
    group_id: e.group ?? 0,
    team_id: e.team ?? 0,
    completed: e.completed ? 1 : 0,
    deleted: e.deleted ? 1 : 0,
    time_created: chTime(e.time_created),
    time_updated: chTime(e.time_updated),
    time_completed: e.time_completed ? chTime(e.time_completed) : null,
    time_uploaded: chTime(e.time_uploaded),
    d_created: dayIn(Date.parse(e.time_created), tz),
    d_updated: dayIn(Date.parse(e.time_updated), tz),
    d_completed: e.time_completed ? dayIn(Date.parse(e.time_completed), tz) : NO_DAY,
    d_uploaded: dayIn(Date.parse(e.time_uploaded), tz),
    a_item: [],
    a_num: [],
    a_choices: [],
    a_date: [],
    a_text: [],
  };
  // The answers rowsOf writes to the answers table (the same skips), in the same columns.
  for (const values of Object.values(e.data)) {
    for (const [item, v] of Object.entries(values)) {
      if (v === null || v === undefined || v === '') continue;
      const a = answerValue(v);
      row.a_item.push(Number(item));
      row.a_num.push(a.num);
      row.a_choices.push(a.choices);
      row.a_date.push(a.date);
      row.a_text.push(a.text);
    }
  }
  return row;
}

/**
 * The changes a batch makes to what the aggregates count, and the states they count afterwards. Per response, only
 * its newest version in the batch counts, and only when it is newer than the version counted now (`counted`): a
 * redelivered or late older version changes nothing. The counted state is retracted (sign -1) and the new one added
 * (sign +1), so every aggregate stays the sum over the newest versions.
 */
export function changesOf(
  events: readonly ResponseEvent[],
  counted: ReadonlyMap<string, StateRow>,
  tzOf: (project: number) => string,
): { changes: ChangeRow[]; states: StateRow[] } {
  const newest = new Map<string, ResponseEvent>();
  for (const e of events) {
    const key = stateKey(e.project, e.response_id);
    const seen = newest.get(key);
    if (!seen || e.version > seen.version) newest.set(key, e);
  }
  const changes: ChangeRow[] = [];
  const states: StateRow[] = [];
  for (const [key, e] of newest) {
    const now = counted.get(key);
    if (now && now.version >= e.version) continue;
    const next = stateOf(e, tzOf(e.project));
    if (now) changes.push({ ...now, sign: -1 });
    changes.push({ ...next, sign: 1 });
    states.push(next);
  }
  return { changes, states };
}

/** The key of a response's state. */
export const stateKey = (project: number, responseId: string) => `${project}\u0000${responseId}`;
