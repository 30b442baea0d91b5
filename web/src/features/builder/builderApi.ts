// The builder's calls: load and save a sampler schema, the language list, a form from an uploaded file.
import { api } from '../../app/api';
import type { SchemaDocument } from './builderSlice';

export const builderApi = api.injectEndpoints({
  endpoints: (build) => ({
    schema: build.query<SchemaDocument, number>({ query: (id) => `samplerschema/${id}/`, keepUnusedDataFor: 0 }),
    saveSchema: build.mutation<SchemaDocument, { id: number; body: object; revision: number; name: string }>({
      query: ({ id, body, revision, name }) => ({ url: `samplerschema/${id}/`, method: 'PUT', body: { ...body, revision, name } }),
      invalidatesTags: ['Project'],
    }),
    languages: build.query<{ results: { iso_code_1: string; name: string }[] }, undefined>({ query: () => 'languages/' }),
    convertUpload: build.mutation<
      { schema: SchemaDocument; notes: { sheet: string; row: number; column: string; message: string }[]; format: string; questions: number; summary: string },
      { projectId: number; fileId: string }
    >({
      query: ({ projectId, fileId }) => ({ url: `project/${projectId}/create-form-from-upload/`, method: 'POST', body: { file_identifier: fileId } }),
      invalidatesTags: ['Project'],
    }),
  }),
});

export const { useSchemaQuery, useSaveSchemaMutation, useLanguagesQuery, useConvertUploadMutation } = builderApi;
