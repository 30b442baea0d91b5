// Conversions between the REST wire of the spec and the proto messages: geotags as GeoJSON points, ids, nulls.
// The readers below (str, id, ids, optStr, optId, trendIn, rolesIn ...) take request values a route schema has
// already checked (schemas/*.ts: type and bounds, 400 naming the field otherwise): they fill in what is absent ('' or
// 0, the proto default) and never see a wrongly typed value. Do not use them on a field no schema declares.
import type { projects } from '@fieldwork/proto';

type Json = Record<string, unknown>;

/** A string field, or '' when absent or not a string. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** An optional string field: undefined when absent, else the string ('' for null). */
export const optStr = (v: unknown): string | undefined =>
  v === undefined ? undefined : v === null ? '' : typeof v === 'string' ? v : String(v);
/** A positive integer id, or 0. */
export const id = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0
    ? v
    : typeof v === 'string' && /^\d{1,15}$/.test(v)
      ? Number(v)
      : 0;
export const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(id).filter((n) => n > 0) : []);
export const optId = (v: unknown): number | undefined => (v === undefined ? undefined : v === null ? 0 : id(v));

/**
 * A geotag from the wire: a GeoJSON point {"type": "Point", "coordinates": [lng, lat]} (exactly 2 coordinates), or
 * {latitude, longitude}. `given` tells whether the field was sent at all, so an invalid one can be refused by name.
 */
export function geotagIn(v: unknown): { geotag_given: boolean; geotag?: projects.Geotag } {
  if (v === undefined) return { geotag_given: false };
  if (typeof v === 'object' && v !== null) {
    const o = v as Json;
    const c = o.coordinates;
    if (Array.isArray(c) && c.length === 2 && c.every((n) => typeof n === 'number')) {
      return { geotag_given: true, geotag: { longitude: c[0] as number, latitude: c[1] as number } };
    }
    if (typeof o.latitude === 'number' && typeof o.longitude === 'number') {
      return { geotag_given: true, geotag: { latitude: o.latitude, longitude: o.longitude } };
    }
  }
  return { geotag_given: true };
}

export const geotagOut = (g: projects.Geotag | undefined) =>
  g ? { type: 'Point', coordinates: [g.longitude, g.latitude] } : null;
const nullIfEmpty = (s: string) => (s === '' ? null : s);
const nullIfZero = (n: number) => (n === 0 ? null : n);

export function siteJson(s: projects.Site) {
  return {
    ...s,
    geotag: geotagOut(s.geotag),
    date_start: nullIfEmpty(s.date_start),
    date_end: nullIfEmpty(s.date_end),
    last_response: nullIfEmpty(s.last_response),
    duration_days: s.duration_days < 0 ? null : s.duration_days,
  };
}

export function projectUserJson(u: projects.ProjectUser) {
  return { ...u, site: nullIfZero(u.site), group: nullIfZero(u.group), team: nullIfZero(u.team) };
}

export function projectJson(p: projects.Project) {
  const { full, current_collection_round_start, ...rest } = p;
  return {
    ...rest,
    geotag: geotagOut(p.geotag),
    folder_id: nullIfZero(p.folder_id),
    logo: nullIfEmpty(p.logo),
    last_response: nullIfEmpty(p.last_response),
    date_end: nullIfEmpty(p.date_end),
    trend_series_options: p.trend_series_options ?? null,
    current_collection_round: current_collection_round_start
      ? { date_start_timestamp: current_collection_round_start }
      : null,
    current_survey: p.current_survey ? surveyJson(p.current_survey) : null,
    ...(full
      ? { sites: p.sites.map(siteJson), projectuser_set: p.projectuser_set.map(projectUserJson) }
      : {
          sites: undefined,
          groups: undefined,
          teams: undefined,
          projectuser_set: undefined,
          sampler_schemas: undefined,
          collect_sites: undefined,
          projectuser_count: undefined,
        }),
  };
}

export function trendIn(v: unknown): projects.TrendSeriesOptions | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Json;
  return {
    time_particle: str(o.time_particle),
    trend_question: typeof o.trend_question === 'number' ? String(o.trend_question) : str(o.trend_question),
    aggregator: str(o.aggregator),
    trend_question_schema: id(o.trend_question_schema),
  };
}

export function rolesIn(o: Json): projects.ProjectRoles {
  return {
    project_owner: o.project_owner === true,
    project_admin: o.project_admin === true,
    researcher: o.researcher === true,
    collector: o.collector === true,
    data_manager: o.data_manager === true,
    staff_admin: o.staff_admin === true,
  };
}

/** Role flags only when at least one is in the body. */
export function optRolesIn(o: Json): projects.ProjectRoles | undefined {
  return ['project_owner', 'project_admin', 'researcher', 'collector', 'data_manager', 'staff_admin'].some(
    (k) => k in o,
  )
    ? rolesIn(o)
    : undefined;
}

/** A collection link as the API answers it: its site or null, its revocation time or null. */
export function surveyJson(s: projects.Survey) {
  return {
    ...s,
    site: nullIfZero(s.site),
    revoked_at: nullIfEmpty(s.revoked_at),
    expiry_date: nullIfEmpty(s.expiry_date),
    kind: s.kind || 'survey',
  };
}
