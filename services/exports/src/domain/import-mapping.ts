// Imports (spec 001 §7 Import): which question or response field each column of an uploaded file fills, and one
// file row as an upload payload. Pure. The columns our exports write are recognised by themselves (named and coded
// headers, geotag parts, response fields), so an export imports back as it is; anything else is mapped by the
// caller: label_map (column → question label, code name or id, or a response field) with dropped_columns, or
// mapped_columns (column → question id or field). Values are read the way exports write them: choices by name, code
// or id, several joined by the value delimiter; dates YYYY-MM-DD; times YYYY-MM-DD HH:mm:ss in UTC. The ' that our
// CSV exports put in front of formula-like cells is taken off where CSV is read (read-rows.ts), before any mapping.
import { createHash } from 'node:crypto';
import { checkResponse, isQuestion, itemsInOrder, text, type Item, type SchemaBody } from '@fieldwork/sampler';
import { HEADER_LIMIT, MULTI_DELIMITER } from './columns.js';

export const RESPONSE_FIELDS = [
  'response_id',
  'parent_id',
  'site',
  'group',
  'team',
  'device_id',
  'completed',
  'time_created',
  'time_updated',
  'time_completed',
  'latitude',
  'longitude',
] as const;
export type ResponseField = (typeof RESPONSE_FIELDS)[number];

/** Columns an export writes that an import leaves alone (the server sets them). */
const IGNORED_HEADERS = new Set(['collector', 'user_id', 'time_uploaded']);
const FIELD_ALIASES: Record<string, ResponseField> = { site_id: 'site', group_id: 'group', team_id: 'team' };

export type Target =
  { kind: 'field'; field: ResponseField } | { kind: 'item'; item: Item; part?: 'lat' | 'lng' } | { kind: 'ignored' };

export interface MappingRequest {
  /** Column header → question label, code name or id, or a response field. */
  labelMap?: Record<string, string>;
  droppedColumns?: string[];
  /** Column header → question id (number or digits) or a response field. */
  mappedColumns?: Record<string, string | number>;
}

export const IMPORT_MESSAGES = {
  noQuestion: (header: string, to: string) =>
    `Column "${header}": no question or response field of this form is "${to}".`,
  twice: (what: string) => `Two columns are mapped to ${what}.`,
  noColumn: (header: string) => `The file has no column "${header}".`,
  choice: (v: string) => `"${v}" is not a choice of this question.`,
  site: (v: string) => `No site of this project is "${v}".`,
  group: (v: string) => `No group of this project is "${v}".`,
  team: (v: string) => `No team of this project is "${v}".`,
  time: 'Enter a time as YYYY-MM-DD HH:mm:ss (UTC).',
  number: 'Enter a number.',
  completed: 'Enter 1 or 0 (or yes/no, true/false).',
  both: 'Give both latitude and longitude, or neither.',
  empty: 'The row answers no question.',
  noHeader: 'The file has no header row.',
} as const;

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
const cut = (s: string) => (s.length > HEADER_LIMIT ? `${s.slice(0, HEADER_LIMIT - 3)}...` : s);

/** Every name a question answers to in a header: export headers (named and coded), labels in each language, id. */
function questionNames(body: SchemaBody): Map<string, Target> {
  const names = new Map<string, Target>();
  const add = (name: string, t: Target) => {
    const k = norm(name);
    if (k && !names.has(k)) names.set(k, t);
  };
  for (const { item } of itemsInOrder(body)) {
    if (!isQuestion(item)) continue;
    const labels = [item.codeName, ...Object.values(item.name ?? {}).filter((x): x is string => typeof x === 'string')];
    if (item.type === 'geotag') {
      for (const part of ['lat', 'lng'] as const) {
        const t: Target = { kind: 'item', item, part };
        for (const l of labels) add(cut(`${l} (${part === 'lat' ? 'latitude' : 'longitude'})`), t);
        add(`${item.codeName}_${part}`, t);
        add(`${item.id}_${part}`, t);
      }
      continue;
    }
    for (const l of labels) {
      add(cut(l), { kind: 'item', item });
      add(l, { kind: 'item', item });
    }
    add(String(item.id), { kind: 'item', item });
  }
  return names;
}

function fieldOf(name: string): ResponseField | undefined {
  const k = norm(name);
  if ((RESPONSE_FIELDS as readonly string[]).includes(k)) return k as ResponseField;
  return FIELD_ALIASES[k];
}

/** What each column fills when nothing is mapped by hand: recognised headers, or undefined (not imported). */
export function suggestMapping(body: SchemaBody, headers: string[]): (Target | undefined)[] {
  const names = questionNames(body);
  return headers.map((h) => {
    if (IGNORED_HEADERS.has(norm(h))) return { kind: 'ignored' };
    const f = fieldOf(h);
    if (f) return { kind: 'field', field: f };
    return names.get(norm(h));
  });
}

/**
 * The mapping of every column: the caller's label_map / mapped_columns first, dropped columns ignored, the rest
 * recognised by header. Field errors for references to unknown questions or columns, and for two columns filling
 * the same thing.
 */
export function resolveMapping(
  body: SchemaBody,
  headers: string[],
  req: MappingRequest,
): { targets: (Target | undefined)[]; errors: Record<string, string[]> } {
  const names = questionNames(body);
  const targets = suggestMapping(body, headers);
  const errors: Record<string, string[]> = {};
  const push = (field: string, msg: string) => (errors[field] ??= []).push(msg);
  const index = new Map(headers.map((h, i) => [norm(h), i]));
  const explicit = (key: 'label_map' | 'mapped_columns', map: Record<string, string | number> | undefined) => {
    for (const [header, to] of Object.entries(map ?? {})) {
      const i = index.get(norm(header));
      if (i === undefined) {
        push(key, IMPORT_MESSAGES.noColumn(header));
        continue;
      }
      const wanted = String(to);
      if (wanted === '') {
        targets[i] = { kind: 'ignored' };
        continue;
      }
      const f = fieldOf(wanted);
      const t: Target | undefined = f ? { kind: 'field', field: f } : names.get(norm(wanted));
      if (!t) push(key, IMPORT_MESSAGES.noQuestion(header, wanted));
      else targets[i] = t;
    }
  };
  explicit('label_map', req.labelMap);
  explicit('mapped_columns', req.mappedColumns);
  for (const header of req.droppedColumns ?? []) {
    const i = index.get(norm(header));
    if (i === undefined) push('dropped_columns', IMPORT_MESSAGES.noColumn(header));
    else targets[i] = { kind: 'ignored' };
  }
  const seen = new Map<string, number>();
  targets.forEach((t, i) => {
    if (!t || t.kind === 'ignored') return;
    const key = t.kind === 'field' ? t.field : `${t.item.id}:${t.part ?? ''}`;
    if (seen.has(key))
      push('non_field_errors', IMPORT_MESSAGES.twice(t.kind === 'field' ? t.field : `"${headers[i]}"'s question`));
    seen.set(key, i);
  });
  return { targets, errors };
}

/** Ids of sites, groups and teams by name (or id). */
export interface Places {
  site(v: string): number | undefined;
  group(v: string): number | undefined;
  team(v: string): number | undefined;
}

export function placesOf(project: {
  sites: { id: number; name: string }[];
  groups: { id: number; name: string }[];
  teams: { id: number; name: string }[];
}): Places {
  const finder = (list: { id: number; name: string }[]) => {
    const byName = new Map(list.map((x) => [norm(x.name), x.id]));
    const ids = new Set(list.map((x) => x.id));
    return (v: string) => byName.get(norm(v)) ?? (/^\d+$/.test(v.trim()) && ids.has(Number(v)) ? Number(v) : undefined);
  };
  return { site: finder(project.sites), group: finder(project.groups), team: finder(project.teams) };
}

export interface RowContext {
  body: SchemaBody;
  projectId: number;
  schemaId: number;
  targets: (Target | undefined)[];
  headers: string[];
  places: Places;
  /** Splits a multi-select cell (default " | "). */
  valueDelimiter: string;
  /** Rows whose response_id is of this project and form update that response; otherwise every row is new. */
  importCurrent: boolean;
  deviceId: string;
}

export type Cell = string | number | boolean | Date | null | undefined;

export interface RowOutcome {
  payload?: Record<string, unknown>;
  action: 'save' | 'complete';
  /** Problems by column header. */
  problems: Record<string, string>;
}

/** "YYYY-MM-DD HH:mm:ss" (UTC), ISO text or a spreadsheet date, as ISO text; undefined when it is none of them. */
export function parseTime(v: Cell): string | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.toISOString();
  const s = String(v ?? '').trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2] ?? '00:00:00'}${m[3] ?? 'Z'}`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

const cellText = (v: Cell): string => {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 19).replace('T', ' ');
  return String(v);
};

/** An object key from a link to one of our files (exports write media as links), or the cell as it is. */
export function mediaKey(s: string): string {
  const m = /(?:^|\/)((?:images|signatures)\/[^?#]+)/.exec(s);
  return m ? decodeURIComponent(m[1]!) : s;
}

function choiceIds(body: SchemaBody, item: Item, cell: string, delimiter: string): { ids: number[]; bad?: string } {
  const choices = (item.options.choices ?? [])
    .map((id) => body.entities.choices[String(id)])
    .filter((c): c is NonNullable<typeof c> => c !== undefined && !c.deleted);
  const parts = item.type === 'choice' && item.options.multiselect ? split(cell, delimiter) : [cell.trim()];
  const ids: number[] = [];
  for (const p of parts) {
    const k = norm(p);
    const c =
      choices.find((x) => norm(x.codeName) === k) ??
      choices.find((x) => Object.values(x.name ?? {}).some((n) => typeof n === 'string' && norm(n) === k)) ??
      choices.find((x) => String(x.id) === p.trim());
    if (!c) return { ids, bad: p };
    ids.push(c.id);
  }
  return { ids };
}

function split(cell: string, delimiter: string): string[] {
  const d = delimiter || MULTI_DELIMITER;
  const parts = cell.split(d.trim() === '' ? d : d.trim());
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function answer(body: SchemaBody, item: Item, raw: Cell, delimiter: string): { value?: unknown; problem?: string } {
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return {};
  switch (item.type) {
    case 'choice':
    case 'binary': {
      const { ids, bad } = choiceIds(body, item, cellText(raw), delimiter);
      if (bad !== undefined) return { problem: IMPORT_MESSAGES.choice(bad) };
      return { value: item.type === 'choice' && item.options.multiselect ? ids : ids[0] };
    }
    case 'number':
    case 'currency': {
      const n = typeof raw === 'number' ? raw : Number(cellText(raw).trim());
      return Number.isFinite(n) ? { value: n } : { problem: IMPORT_MESSAGES.number };
    }
    case 'date':
      return { value: raw instanceof Date ? raw.toISOString().slice(0, 10) : cellText(raw).trim() };
    case 'image':
    case 'signature':
      return { value: mediaKey(cellText(raw).trim()) };
    default:
      return { value: cellText(raw) };
  }
}

/**
 * The id of a new response made from a file row, the same each time the row is imported, so that a second import
 * (or a retried job) finds the response it made and changes nothing: from the row's own response_id when the file
 * has one (an export of another project), else from the row's content and place in the file.
 */
export function importedResponseId(projectId: number, schemaId: number, source: string): string {
  return `${projectId}-${schemaId}-imp-${createHash('sha256').update(source).digest('hex').slice(0, 24)}`;
}

/** One data row (1-based `row`) as an upload payload, or the problems that keep it out. */
export function rowToPayload(ctx: RowContext, cells: Cell[], row: number): RowOutcome {
  const problems: Record<string, string> = {};
  const answers: Record<string, unknown> = {};
  const geo: Record<string, Partial<Record<'lat' | 'lng', number>>> = {};
  const fields: Partial<Record<ResponseField, string>> = {};
  const headerOf: Record<string, string> = {};
  ctx.targets.forEach((t, i) => {
    if (!t || t.kind === 'ignored') return;
    const header = ctx.headers[i] ?? `column ${i + 1}`;
    const raw = cells[i];
    if (t.kind === 'field') {
      // A device id is opaque: kept as it is (an export's device ids import back unchanged); other fields trimmed.
      fields[t.field] =
        t.field.startsWith('time_') && raw instanceof Date
          ? raw.toISOString()
          : t.field === 'device_id'
            ? cellText(raw)
            : cellText(raw).trim();
      headerOf[t.field] = header;
      return;
    }
    headerOf[String(t.item.id)] = header;
    if (t.item.type === 'calculated' || t.item.type === 'concatenation') return;
    if (t.part) {
      const s = cellText(raw).trim();
      if (s === '') return;
      const n = Number(s);
      if (!Number.isFinite(n)) problems[header] = IMPORT_MESSAGES.number;
      else (geo[String(t.item.id)] ??= {})[t.part] = n;
      return;
    }
    const a = answer(ctx.body, t.item, raw, ctx.valueDelimiter);
    if (a.problem) problems[header] = a.problem;
    else if (a.value !== undefined) answers[String(t.item.id)] = a.value;
  });
  for (const [id, g] of Object.entries(geo)) {
    if (g.lat === undefined || g.lng === undefined) problems[headerOf[id]!] = IMPORT_MESSAGES.both;
    else answers[id] = { type: 'Point', coordinates: [g.lng, g.lat] };
  }

  // Checked by packages/sampler as the server will: types, ranges, choices, dates.
  const checked = checkResponse(ctx.body, { '0': answers } as never, { schemaId: ctx.schemaId, lenient: true });
  for (const [key, msg] of Object.entries(checked.problems)) {
    const id = key.split('.')[1] ?? key;
    problems[headerOf[id] ?? key] ??= msg;
  }

  const payload: Record<string, unknown> = {
    project: ctx.projectId,
    sampler_schema: ctx.schemaId,
    device_id: fields.device_id?.trim() ? fields.device_id : ctx.deviceId,
    data: { '0': answers },
  };
  const given = fields.response_id ?? '';
  payload.response_id =
    ctx.importCurrent && given.startsWith(`${ctx.projectId}-${ctx.schemaId}-`)
      ? given
      : importedResponseId(
          ctx.projectId,
          ctx.schemaId,
          given ? `id:${given}` : `row:${row}:${JSON.stringify([answers, fields])}`,
        );
  if (fields.parent_id) payload.parent_id = fields.parent_id;
  for (const f of ['site', 'group', 'team'] as const) {
    const v = fields[f];
    if (!v) continue;
    const found = ctx.places[f](v);
    if (found === undefined) problems[headerOf[f]!] = IMPORT_MESSAGES[f](v);
    else payload[f] = found;
  }
  for (const f of ['time_created', 'time_updated', 'time_completed'] as const) {
    const v = fields[f];
    if (!v) continue;
    const t = parseTime(v);
    if (t === undefined) problems[headerOf[f]!] = IMPORT_MESSAGES.time;
    else payload[f] = t;
  }
  if (fields.latitude || fields.longitude) {
    const lat = Number(fields.latitude);
    const lng = Number(fields.longitude);
    if (!fields.latitude || !fields.longitude || !Number.isFinite(lat) || !Number.isFinite(lng))
      problems[headerOf.latitude ?? headerOf.longitude!] = IMPORT_MESSAGES.both;
    else payload.geotag = { type: 'Point', coordinates: [lng, lat] };
  }
  let action: 'save' | 'complete' = 'save';
  if (fields.completed) {
    const c = norm(fields.completed);
    if (['1', 'true', 'yes'].includes(c)) action = 'complete';
    else if (!['0', 'false', 'no'].includes(c)) problems[headerOf.completed!] = IMPORT_MESSAGES.completed;
  }
  if (Object.keys(problems).length > 0) return { action, problems };
  return { payload, action, problems };
}

/** Labels for the mapping screen: what a target is called. */
export function targetLabel(body: SchemaBody, t: Target | undefined, lang: string): string {
  if (!t || t.kind === 'ignored') return '';
  if (t.kind === 'field') return t.field;
  const name = text(t.item.name, lang, body.primary_language) || t.item.codeName;
  return t.part ? `${name} (${t.part === 'lat' ? 'latitude' : 'longitude'})` : name;
}
