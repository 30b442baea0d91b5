// A response event of the RESPONSES stream as ClickHouse rows: one for the response, one per answer, one per
// answer removed since the previous version. Pure.
export interface ResponseEvent {
  response_id: string;
  version: number;
  project: number;
  schema: number;
  user: number | null;
  site: number | null;
  group: number | null;
  team: number | null;
  completed: boolean;
  deleted: boolean;
  archived: boolean;
  parent_id: string | null;
  geotag: { coordinates?: [number, number] } | null;
  time_created: string;
  time_updated: string;
  time_completed: string | null;
  time_uploaded: string;
  data: Record<string, Record<string, unknown>>;
  removed?: string[];
}

/** ClickHouse's DateTime64 text: YYYY-MM-DD hh:mm:ss.sss in UTC. */
export function chTime(iso: string): string {
  return new Date(iso).toISOString().replace('T', ' ').replace('Z', '');
}
const chTimeOrNull = (iso: string | null) => (iso ? chTime(iso) : null);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface AnswerValue {
  num: number | null;
  text: string;
  choices: number[];
  date: string | null;
  lng: number | null;
  lat: number | null;
}

/** An answer in the columns of its kind. */
export function answerValue(v: unknown): AnswerValue {
  const out: AnswerValue = { num: null, text: '', choices: [], date: null, lng: null, lat: null };
  if (typeof v === 'number' && Number.isFinite(v)) out.num = v;
  else if (typeof v === 'string') {
    out.text = v;
    if (DATE.test(v)) out.date = v;
  } else if (typeof v === 'boolean') out.num = v ? 1 : 0;
  else if (Array.isArray(v))
    out.choices = v.filter((c): c is number => typeof c === 'number' && Number.isInteger(c) && c >= 0);
  else if (typeof v === 'object' && v !== null) {
    const c = (v as { coordinates?: unknown }).coordinates;
    if (Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number') {
      out.lng = c[0];
      out.lat = c[1];
    }
  }
  return out;
}

export function rowsOf(e: ResponseEvent) {
  const common = {
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
    time_completed: chTimeOrNull(e.time_completed),
    time_uploaded: chTime(e.time_uploaded),
  };
  const point = e.geotag?.coordinates;
  const response = {
    ...common,
    archived: e.archived ? 1 : 0,
    parent_id: e.parent_id ?? '',
    lng: point?.[0] ?? null,
    lat: point?.[1] ?? null,
  };
  const answers: (typeof common & AnswerValue & { item_id: number; repeat: number; removed: number })[] = [];
  for (const [repeat, values] of Object.entries(e.data)) {
    for (const [item, v] of Object.entries(values)) {
      if (v === null || v === undefined || v === '') continue;
      answers.push({ ...common, ...answerValue(v), item_id: Number(item), repeat: Number(repeat), removed: 0 });
    }
  }
  for (const key of e.removed ?? []) {
    const [repeat, item] = key.split('.');
    answers.push({ ...common, ...answerValue(null), item_id: Number(item), repeat: Number(repeat), removed: 1 });
  }
  return { response, answers };
}
