// Wire objects of spec 000 projects (see the gateway's wire.ts).
import type { ApiRecord } from '../../api/types';

export interface GeoPoint {
  type: 'Point';
  coordinates: [number, number];
}

export interface Site {
  id: number;
  name: string;
  geotag: GeoPoint | null;
  frontend_icon: string;
  frontend_color: string;
  date_start: string | null;
  date_end: string | null;
  active_flag: boolean;
  total_responses: number;
  groups: number[];
  duration_days: number | null;
  /** Tracking: the responses the site is expected to collect (0: no target). */
  goal_count?: number;
}

/** A group and a team as the gateway answers them (generated from its OpenAPI document: src/api/schema.d.ts). */
export type Group = ApiRecord<'Group'>;
export type Team = ApiRecord<'Team'>;

export interface ProjectUser {
  id: number;
  user_id: number;
  display_name: string;
  email: string;
  username: string;
  site: number | null;
  group: number | null;
  team: number | null;
  read_sites: number[];
  permissions: string[];
  project_owner: boolean;
  project_admin: boolean;
  researcher: boolean;
  collector: boolean;
  data_manager: boolean;
  staff_admin: boolean;
}

export interface Level {
  level: number;
  name: string;
  schema_id: number;
}

export interface Project {
  id: number;
  name: string;
  description: string;
  project_state: string;
  project_type: string;
  geotag: GeoPoint | null;
  folder_id: number | null;
  primary_organization: number;
  frontend_color: string;
  frontend_icon: string;
  logo: string | null;
  is_hierarchical: boolean;
  is_entity: boolean;
  project_hierarchy: Level[];
  timing_column: string;
  trend_series_options: {
    time_particle: string;
    trend_question: string;
    aggregator: string;
    trend_question_schema: number;
  } | null;
  sites?: Site[];
  groups?: Group[];
  teams?: Team[];
  projectuser_set?: ProjectUser[];
  sampler_schemas?: { id: number; name: string; level: number }[];
  date_end: string | null;
  goal_count: number;
  total_responses: number;
  last_response: string | null;
  time_updated: string;
  permissions: string[];
  /** The sites the caller may file responses under, their own first. */
  collect_sites?: number[];
}

export interface FolderItem {
  type: 'folder' | 'project';
  id: number;
  name: string;
  folder: number;
}

export interface BulkReport {
  added: number;
  updated: number;
  failed: number;
  rows: { row: number; email: string; status: string; errors: string[] }[];
}

export const ROLE_NAMES = [
  'project_owner',
  'project_admin',
  'researcher',
  'collector',
  'data_manager',
  'staff_admin',
] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** A deleted project's purge: what it removes (none, running, failed) or removed (done), by kind (gateway schema `purge`). */
export interface PurgeStatus {
  project_id: number;
  name: string;
  state: 'none' | 'running' | 'done' | 'failed';
  counts: Record<string, number>;
  requested_at: string | null;
  finished_at: string | null;
  error: string;
}
