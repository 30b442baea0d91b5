// The columns and cells of an export (spec 001 §7 Exports, §9): response fields first, then every question in form
// order; named exports write labels and choice names, coded exports code names and choice codes. Pure.
//   - multi-select answers are joined by MULTI_DELIMITER (" | ");
//   - dates are YYYY-MM-DD, times YYYY-MM-DD HH:mm:ss in UTC (spec 001 §9 display format);
//   - a geotag answer is two columns, latitude and longitude;
//   - image and signature answers are download links (presigned, living as long as the export file);
//   - cells are plain values: the CSV writer guards every text cell against formula injection (export/csv-cell.ts),
//     and XLSX cells are typed strings.
import { isQuestion, itemsInOrder, text, type Item, type SchemaBody } from '@fieldwork/sampler';

export const MULTI_DELIMITER = ' | ';
/** Longest header written; longer labels are cut with an ellipsis (spreadsheet tools truncate or choke beyond). */
export const HEADER_LIMIT = 100;

export type ExportMode = 'named' | 'coded';

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
  geotag: { coordinates?: [number, number] } | null;
  /** Answers keyed by repeat then question id. */
  data: Record<string, Record<string, unknown>>;
}

export interface Column {
  header: string;
  /** The question, for question columns. */
  item?: Item;
  part?: 'lat' | 'lng';
  cell: (r: ExportResponse, names: Names) => string | number | null;
}

/** Names of sites, groups, teams and users, for named exports. */
export interface Names {
  site(id: number): string;
  group(id: number): string;
  team(id: number): string;
  user(id: number): string;
  /** A download link for a media object key (image and signature answers); the key itself when absent. */
  media?(key: string): string;
}

const cut = (s: string) => (s.length > HEADER_LIMIT ? `${s.slice(0, HEADER_LIMIT - 3)}...` : s);

export function time(v: Date | string | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 19).replace('T', ' ');
}

export function exportColumns(body: SchemaBody, mode: ExportMode, lang: string): Column[] {
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
  for (const { item } of itemsInOrder(body)) {
    if (!isQuestion(item)) continue;
    const base = named ? text(item.name, lang, body.primary_language) || item.codeName : item.codeName;
    if (item.type === 'geotag') {
      for (const part of ['lat', 'lng'] as const) {
        columns.push({
          header: cut(`${base} (${part === 'lat' ? 'latitude' : 'longitude'})`),
          item,
          part,
          cell: (r) => geotagPart(answerOf(r, item), part),
        });
      }
      continue;
    }
    if (item.type === 'image' || item.type === 'signature') {
      columns.push({ header: cut(base), item, cell: (r, n) => mediaCell(answerOf(r, item), n) });
      continue;
    }
    columns.push({ header: cut(base), item, cell: (r) => answerCell(body, item, answerOf(r, item), mode, lang) });
  }
  return columns;
}

const answerOf = (r: ExportResponse, item: Item) => r.data?.['0']?.[item.id];

/** Media keys of a page's responses for these columns (to be turned into links before the page is written). */
export function mediaKeys(columns: Column[], rows: ExportResponse[]): string[] {
  const items = columns.filter((c) => c.item?.type === 'image' || c.item?.type === 'signature').map((c) => c.item!);
  if (items.length === 0) return [];
  const keys: string[] = [];
  for (const r of rows)
    for (const item of items) {
      const v = answerOf(r, item);
      if (typeof v === 'string' && v !== '') keys.push(v);
    }
  return keys;
}

function mediaCell(v: unknown, names: Names): string {
  if (typeof v !== 'string' || v === '') return '';
  return names.media?.(v) ?? v;
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
