// The columns and cells of an export (spec 001 §7 Exports, §9): response fields first, then every question in form
// order; named exports write labels and choice names, coded exports code names and choice codes. Pure.
//   - multi-select answers are joined by MULTI_DELIMITER (" | ");
//   - dates are YYYY-MM-DD, times YYYY-MM-DD HH:mm:ss in UTC (spec 001 §9 display format);
//   - a geotag answer is two columns, latitude and longitude;
//   - repeats (answers keyed by repeat number, spec 001 §3): every instance is exported. Up to REPEAT_COLUMN_LIMIT
//     instances of a question are columns side by side ("Adults", "Adults [2]", "Adults [3]" ...); a form with a
//     question answered in more instances than that is exported as a long table instead: one row per response and
//     repeat instance, with a `repeat` column (0 the first);
//   - image and signature answers are download links (presigned, living as long as the export file);
//   - cells are plain values: the CSV writer guards every text cell against formula injection (export/csv-cell.ts),
//     and XLSX cells are typed strings.
import { isQuestion, itemsInOrder, text, type Item, type SchemaBody } from '@fieldwork/sampler';

export const MULTI_DELIMITER = ' | ';
/** Longest header written; longer labels are cut with an ellipsis (spreadsheet tools truncate or choke beyond). */
export const HEADER_LIMIT = 100;

export type ExportMode = 'named' | 'coded';

/** Most instances of one question written as columns; beyond, the export is a long table (see exportLayout). */
export const REPEAT_COLUMN_LIMIT = 20;

/** Columns per instance (wide) or one row per response and instance (long). */
export type ExportLayout = 'wide' | 'long';

/** Per question answered in a repeat other than the first, its highest repeat number (what the responses service says). */
export type Repeats = ReadonlyMap<number, number>;

/** Wide unless some question was answered in more instances than REPEAT_COLUMN_LIMIT (or a long table was asked). */
export function exportLayout(repeats: Repeats, asked: ExportLayout = 'wide'): ExportLayout {
  if (asked === 'long') return 'long';
  return [...repeats.values()].some((top) => top + 1 > REPEAT_COLUMN_LIMIT) ? 'long' : 'wide';
}

/** The rows of a long table: one per repeat instance of the response (its first always), the instance's answers as repeat 0. */
export function longRows(r: ExportResponse): ExportResponse[] {
  const keys = Object.keys(r.data ?? {})
    .filter((k) => /^\d{1,4}$/.test(k))
    .map(Number)
    .sort((a, b) => a - b);
  if (!keys.includes(0)) keys.unshift(0);
  return keys.map((k) => ({ ...r, repeat: k, data: { '0': r.data?.[String(k)] ?? {} } }));
}

export interface ExportResponse {
  response_id: string;
  parent_id: string | null;
  user_id: number;
  site_id: number | null;
  group_id: number | null;
  team_id: number | null;
  device_id: string;
  completed: boolean;
  time_created: Date | string;
  time_updated: Date | string;
  time_completed: Date | string | null;
  time_uploaded: Date | string | null;
  /** [longitude, latitude]. */
  geotag: { coordinates?: number[] } | null;
  /** Answers keyed by repeat then question id. */
  data: Record<string, Record<string, unknown>>;
  /** In a long table: the repeat instance this row holds. */
  repeat?: number;
}

export interface Column {
  header: string;
  /** The question, for question columns. */
  item?: Item;
  part?: 'lat' | 'lng';
  /** The repeat instance of a question column (0 the first). */
  repeat?: number;
  cell: (r: ExportResponse, names: Names) => string | number | null;
}

/** Names of sites, groups, teams and users, for named exports. */
export interface Names {
  site(id: number): string;
  group(id: number): string;
  team(id: number): string;
  user(id: number): string;
  /**
   * A download link for a media object key (image and signature answers) of response `r`, or a note when the key is
   * not a file of that response; the key itself when absent.
   */
  media?(key: string, r: ExportResponse): string;
}

/** What an export writes for a file answer that names no file of its response (a row stored before that was checked). */
export const MEDIA_UNAVAILABLE = 'File not available: this answer names no file of this response.';

/**
 * Whether `key` has the shape of a file the media service made for this response: images/<project>/<record>/<name>
 * or signatures/..., record the response id with ':' as '_', name one plain segment. Only such keys are signed into
 * links: a stored value may be anything (rows from before uploads were checked), and an export must not link another
 * response's or another project's object, nor hand a traversal (`..`) to the object store.
 */
export function isFileOfResponse(key: string, projectId: number, responseId: string): boolean {
  const parts = key.split('/');
  return (
    parts.length === 4 &&
    (parts[0] === 'images' || parts[0] === 'signatures') &&
    parts[1] === String(projectId) &&
    parts[2] === responseId.replace(/:/g, '_') &&
    /^[\w-][\w.-]{0,200}$/.test(parts[3]!)
  );
}

const cut = (s: string) => (s.length > HEADER_LIMIT ? `${s.slice(0, HEADER_LIMIT - 3)}...` : s);

// An ISO 8601 time in UTC as the responses service sends it (2026-01-02T03:04:05.678Z).
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

export function time(v: Date | string | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  // The common case without a Date (an export writes four of these per row); `new Date` still judges validity.
  if (typeof v === 'string' && ISO_UTC.test(v) && v.slice(5, 7) <= '12' && v.slice(8, 10) <= '28')
    return `${v.slice(0, 10)} ${v.slice(11, 19)}`;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The columns of an export. `repeats` (per question, its highest repeat number) adds a column per further instance
 * in the wide layout; the long layout adds one `repeat` column instead.
 */
export function exportColumns(
  body: SchemaBody,
  mode: ExportMode,
  lang: string,
  repeats: Repeats = new Map(),
  layout: ExportLayout = 'wide',
): Column[] {
  const named = mode === 'named';
  const id =
    (pick: (r: ExportResponse) => number | null, name: (n: Names, id: number) => string) =>
    (r: ExportResponse, n: Names) => {
      const v = pick(r);
      return v === null || v === 0 ? '' : named ? name(n, v) : v;
    };
  const columns: Column[] = [
    { header: 'response_id', cell: (r) => r.response_id },
    { header: 'parent_id', cell: (r) => r.parent_id ?? '' },
    {
      header: named ? 'Site' : 'site_id',
      cell: id(
        (r) => r.site_id,
        (n, v) => n.site(v),
      ),
    },
    {
      header: named ? 'Group' : 'group_id',
      cell: id(
        (r) => r.group_id,
        (n, v) => n.group(v),
      ),
    },
    {
      header: named ? 'Team' : 'team_id',
      cell: id(
        (r) => r.team_id,
        (n, v) => n.team(v),
      ),
    },
    {
      header: named ? 'Collector' : 'user_id',
      cell: id(
        (r) => r.user_id,
        (n, v) => n.user(v),
      ),
    },
    { header: 'device_id', cell: (r) => r.device_id },
    { header: 'completed', cell: (r) => (r.completed ? 1 : 0) },
    { header: 'time_created', cell: (r) => time(r.time_created) },
    { header: 'time_updated', cell: (r) => time(r.time_updated) },
    { header: 'time_completed', cell: (r) => time(r.time_completed) },
    { header: 'time_uploaded', cell: (r) => time(r.time_uploaded) },
    { header: 'latitude', cell: (r) => r.geotag?.coordinates?.[1] ?? '' },
    { header: 'longitude', cell: (r) => r.geotag?.coordinates?.[0] ?? '' },
  ];
  if (layout === 'long') columns.push({ header: 'repeat', cell: (r) => r.repeat ?? 0 });
  for (const { item } of itemsInOrder(body)) {
    if (!isQuestion(item)) continue;
    const label = named ? text(item.name, lang, body.primary_language) || item.codeName : item.codeName;
    const instances = layout === 'long' ? 1 : Math.min(REPEAT_COLUMN_LIMIT, (repeats.get(item.id) ?? 0) + 1);
    for (let repeat = 0; repeat < instances; repeat++) {
      const base = repeat === 0 ? label : `${label} [${repeat + 1}]`;
      if (item.type === 'geotag') {
        for (const part of ['lat', 'lng'] as const) {
          columns.push({
            header: cut(`${base} (${part === 'lat' ? 'latitude' : 'longitude'})`),
            item,
            part,
            repeat,
            cell: (r) => geotagPart(answerOf(r, item, repeat), part),
          });
        }
        continue;
      }
      if (item.type === 'image' || item.type === 'signature') {
        columns.push({ header: cut(base), item, repeat, cell: (r, n) => mediaCell(answerOf(r, item, repeat), r, n) });
        continue;
      }
      columns.push({
        header: cut(base),
        item,
        repeat,
        cell: (r) => answerCell(body, item, answerOf(r, item, repeat), mode, lang),
      });
    }
  }
  return columns;
}

const answerOf = (r: ExportResponse, item: Item, repeat = 0) => r.data?.[String(repeat)]?.[item.id];

/**
 * Media keys of a page's responses for these columns that are files of their own response (isFileOfResponse), to be
 * turned into links before the page is written.
 */
export function mediaKeys(columns: Column[], rows: ExportResponse[], projectId: number): string[] {
  const media = columns.filter((c) => c.item?.type === 'image' || c.item?.type === 'signature');
  if (media.length === 0) return [];
  const keys: string[] = [];
  for (const r of rows)
    for (const c of media) {
      const v = answerOf(r, c.item!, c.repeat);
      if (typeof v === 'string' && v !== '' && isFileOfResponse(v, projectId, r.response_id)) keys.push(v);
    }
  return keys;
}

function mediaCell(v: unknown, r: ExportResponse, names: Names): string {
  if (typeof v !== 'string' || v === '') return '';
  return names.media?.(v, r) ?? v;
}

function geotagPart(v: unknown, part: 'lat' | 'lng'): number | string {
  const g = v as { coordinates?: unknown; latitude?: unknown; longitude?: unknown } | null | undefined;
  if (!g || typeof g !== 'object') return '';
  const c = Array.isArray(g.coordinates) ? g.coordinates : [g.longitude, g.latitude];
  const n = part === 'lat' ? c[1] : c[0];
  return typeof n === 'number' ? n : '';
}

/** One answer as an export cell. */
export function answerCell(body: SchemaBody, item: Item, v: unknown, mode: ExportMode, lang: string): string | number {
  if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) return '';
  switch (item.type) {
    case 'choice':
    case 'binary': {
      const ids = Array.isArray(v) ? v : [v];
      if (ids.length === 1) {
        // One choice (most answers): its label without the arrays of the general case.
        const c = body.entities.choices[String(ids[0])];
        return c ? (mode === 'named' ? text(c.name, lang, body.primary_language) : c.codeName) : String(ids[0]);
      }
      return ids
        .map((cid) => body.entities.choices[String(cid)])
        .map((c, k) =>
          c ? (mode === 'named' ? text(c.name, lang, body.primary_language) : c.codeName) : String(ids[k]),
        )
        .join(MULTI_DELIMITER);
    }
    case 'number':
    case 'currency':
    case 'calculated': {
      const n = typeof v === 'number' ? v : Number(v);
      return Number.isFinite(n) ? n : String(v);
    }
    case 'date': {
      if (typeof v === 'string' && /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])$/.test(v)) return v;
      const d = new Date(String(v));
      return Number.isNaN(d.getTime()) ? String(v) : d.toISOString().slice(0, 10);
    }
    default:
      return typeof v === 'string'
        ? v
        : typeof v === 'number' || typeof v === 'boolean'
          ? String(v)
          : JSON.stringify(v);
  }
}

/** The data dictionary: one row per column of the named export, with its code, label, type and choices. */
export function dictionaryRows(body: SchemaBody, lang: string): string[][] {
  const rows = [['column', 'code', 'label', 'type', 'required', 'choices (code = label)']];
  for (const c of exportColumns(body, 'named', lang)) {
    const item = c.item;
    if (!item) {
      rows.push([c.header, c.header, c.header, 'response field', '', '']);
      continue;
    }
    const choices = (item.options.choices ?? [])
      .map((id) => body.entities.choices[String(id)])
      .filter((x) => x && !x.deleted)
      .map((x) => `${x!.codeName} = ${text(x!.name, lang, body.primary_language)}`)
      .join(MULTI_DELIMITER);
    const code = c.part ? `${item.codeName}_${c.part}` : item.codeName;
    rows.push([
      c.header,
      code,
      text(item.name, lang, body.primary_language),
      item.type,
      item.options.isRequiredQuestion ? 'yes' : 'no',
      choices,
    ]);
  }
  return rows;
}
