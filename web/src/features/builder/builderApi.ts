// The builder's calls: load and save a sampler schema, the language list, a form from an uploaded file, and the
// form's earlier versions.
import { api } from '../../app/api';
import type { SchemaDocument } from './builderSlice';

/** The file name of a Content-Disposition header: the UTF-8 one (filename*) if any, else the plain one. */
export function attachmentName(header: string | null): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '');
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]!);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(header ?? '')?.[1] ?? 'form.xlsx';
}

/** An earlier version of a form: the revision it was saved as. */
export interface SchemaVersion {
  id: number;
  time_saved: string;
  name: string;
  questions: number;
}

export const builderApi = api.injectEndpoints({
  endpoints: (build) => ({
    schema: build.query<SchemaDocument, number>({ query: (id) => `samplerschema/${id}/`, keepUnusedDataFor: 0 }),
    saveSchema: build.mutation<SchemaDocument, { id: number; body: object; revision: number; name: string }>({
      query: ({ id, body, revision, name }) => ({ url: `samplerschema/${id}/`, method: 'PUT', body: { ...body, revision, name } }),
      invalidatesTags: ['Project', 'SchemaVersion'],
    }),
    // The saved form as an XLSForm workbook, handed to the page as an object URL and the server's file name.
    xlsForm: build.mutation<{ url: string; filename: string }, number>({
      query: (id) => ({
        url: `samplerschema/${id}/xlsform/`,
        responseHandler: async (r: Response) => (r.ok ? { url: URL.createObjectURL(await r.blob()), filename: attachmentName(r.headers.get('content-disposition')) } : r.json()),
      }),
    }),
    languages: build.query<{ results: { iso_code_1: string; name: string }[] }, undefined>({ query: () => 'languages/' }),
    convertUpload: build.mutation<
      // levels: an XLSForm's repeats, the forms of the project's levels below `schema` (empty without repeats).
      { schema: SchemaDocument; levels?: SchemaDocument[]; notes: { sheet: string; row: number; column: string; message: string }[]; format: string; questions: number; summary: string },
      { projectId: number; fileId: string; confirm?: boolean }
    >({
      query: ({ projectId, fileId, confirm }) => ({ url: `project/${projectId}/create-form-from-upload/`, method: 'POST', body: { file_identifier: fileId, ...(confirm ? { confirm } : {}) } }),
      invalidatesTags: ['Project', 'SchemaVersion'],
    }),
    versions: build.query<{ results: SchemaVersion[] }, number>({ query: (id) => `samplerschema/${id}/versions/`, providesTags: ['SchemaVersion'] }),
    restoreVersion: build.mutation<SchemaDocument, { id: number; versionId: number }>({
      query: ({ id, versionId }) => ({ url: `samplerschema/${id}/versions/${versionId}/restore/`, method: 'POST' }),
      invalidatesTags: ['Project', 'SchemaVersion'],
    }),
  }),
});

export const { useSchemaQuery, useSaveSchemaMutation, useXlsFormMutation, useLanguagesQuery, useConvertUploadMutation, useVersionsQuery, useRestoreVersionMutation } = builderApi;
