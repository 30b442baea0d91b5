// Export and import jobs, and SQL access (spec 001 §7 Exports, Import): the calls of the export and import screens.
import { api } from '../../app/api';

export interface Job {
  id: string;
  kind: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  rows_done: number;
  rows_total: number;
  percent: number;
  url: string | null;
  report_url: string | null;
  rows_failed: number;
  result: { stored?: number; unmodified?: number; ignored?: number; failed?: number };
  error: string;
}

export interface ImportColumn {
  header: string;
  target_kind: 'item' | 'field' | 'ignored' | '';
  item_id: number;
  target: string;
  label: string;
}

export interface MappableQuestion {
  id: number;
  code: string;
  label: string;
  type: string;
  part?: 'lat' | 'lng';
}

export interface ImportPreview {
  columns: ImportColumn[];
  rows: (string | number | boolean | null)[][];
  errors: Record<string, string[]>;
  row_problems: Record<string, string>[];
  questions: MappableQuestion[];
}

export interface ImportBody {
  file_identifier: string;
  schema?: number;
  mapped_columns?: Record<string, string>;
  value_delimiter?: string;
  import_current?: boolean;
}

export interface SqlAccess {
  enabled: boolean;
  host: string;
  port: number;
  database: string;
  username: string;
  password: string;
  view: string;
}

/** The response fields a column may fill (import-mapping.ts RESPONSE_FIELDS). */
export const RESPONSE_FIELDS = ['response_id', 'parent_id', 'site', 'group', 'team', 'device_id', 'completed', 'time_created', 'time_updated', 'time_completed', 'latitude', 'longitude'];

export const exportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    startExport: build.mutation<{ job: Job; url: string | null }, { projectId: number; schemaId: number; kind: string; profile?: string }>({
      query: ({ projectId, schemaId, kind, profile }) => `project/${projectId}/${kind}/?schema=${schemaId}&wait=0${profile ? `&profile=${encodeURIComponent(profile)}` : ''}`,
    }),
    job: build.query<Job, string>({ query: (id) => `exports/jobs/${id}/`, keepUnusedDataFor: 0 }),
    cancelJob: build.mutation<Job, string>({ query: (id) => ({ url: `exports/jobs/${id}/cancel/`, method: 'POST', body: {} }) }),
    previewImport: build.mutation<ImportPreview, { projectId: number; body: ImportBody }>({
      query: ({ projectId, body }) => ({ url: `project/${projectId}/import/preview/`, method: 'POST', body }),
    }),
    startImport: build.mutation<{ job: Job }, { projectId: number; body: ImportBody }>({
      query: ({ projectId, body }) => ({ url: `project/${projectId}/import/`, method: 'POST', body }),
    }),
    enableSql: build.mutation<SqlAccess, number>({ query: (projectId) => ({ url: `project/${projectId}/postgres/`, method: 'POST', body: {} }) }),
    disableSql: build.mutation<{ enabled: boolean }, number>({ query: (projectId) => ({ url: `project/${projectId}/disable_postgres/`, method: 'POST', body: {} }) }),
  }),
});

export const { useStartExportMutation, useJobQuery, useCancelJobMutation, usePreviewImportMutation, useStartImportMutation, useEnableSqlMutation, useDisableSqlMutation } = exportsApi;

/** A job that has not finished yet. */
export const isRunning = (job: Job | undefined) => job !== undefined && (job.status === 'queued' || job.status === 'running');

/** How often a running job's progress is read. */
export const JOB_POLL_MS = 1000;

/**
 * Follows a job (null: none): reads GET exports/jobs/{id}/ every JOB_POLL_MS while it is queued or running, and no
 * more once it has ended. The one place job progress is polled: the gateway answers the job as it stands.
 */
export function useJobProgress(jobId: string | null) {
  const args = jobId ?? '';
  const skip = jobId === null;
  const { data: known } = exportsApi.endpoints.job.useQueryState(args, { skip });
  return useJobQuery(args, { skip, pollingInterval: known === undefined || isRunning(known) ? JOB_POLL_MS : 0 });
}
