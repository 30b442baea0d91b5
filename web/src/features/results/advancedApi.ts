// Advanced results calls (spec 001 §7 Advanced results).
import type { FilterModel } from '@fieldwork/sampler';
import { api } from '../../app/api';

export interface AdvancedResult {
  id: number;
  project: number;
  name: string;
  description: string;
  threshold_value_upper?: number;
  threshold_value_lower?: number;
  formula: string;
  editor_state: unknown;
  deleted: boolean;
  show_on_project_summary: boolean;
  show_on_site_summary: boolean;
  display_type: string;
  edit_mode: boolean;
}
export interface AdvancedValue extends AdvancedResult {
  value: number | null;
  error: string | null;
  status: 'above' | 'below' | 'within' | 'none';
}
export type AdvancedFields = Omit<AdvancedResult, 'id' | 'project' | 'deleted'> & { id?: number };

const enhanced = api.enhanceEndpoints({ addTagTypes: ['AdvancedResult'] });

export const advancedApi = enhanced.injectEndpoints({
  endpoints: (build) => ({
    advancedValues: build.query<
      { schema_id: number; results: AdvancedValue[] },
      { projectId: number; filters?: Partial<FilterModel>; schemaId?: number }
    >({
      // The page's filters go with the call: the server computes the aggregates in ClickHouse through them.
      query: ({ projectId, filters, schemaId }) => ({
        url: `project/${projectId}/advanced_results/list/`,
        method: 'POST',
        body: { filters: filters ?? {}, ...(schemaId ? { schema: schemaId } : {}) },
      }),
      providesTags: ['AdvancedResult'],
    }),
    saveAdvanced: build.mutation<AdvancedResult, { projectId: number; fields: AdvancedFields }>({
      query: ({ projectId, fields: { id, ...body } }) => ({
        url: `project/${projectId}/advanced_results/${id ? `${id}/` : ''}`,
        method: id ? 'PUT' : 'POST',
        body,
      }),
      invalidatesTags: ['AdvancedResult'],
    }),
    deleteAdvanced: build.mutation<null, { projectId: number; id: number }>({
      query: ({ projectId, id }) => ({ url: `project/${projectId}/advanced_results/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['AdvancedResult'],
    }),
  }),
});

export const { useAdvancedValuesQuery, useSaveAdvancedMutation, useDeleteAdvancedMutation } = advancedApi;
