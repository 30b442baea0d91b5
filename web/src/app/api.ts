// The one API slice; features inject their endpoints (RTK Query examples). Every tag type is declared here.
import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'User',
    'Organization',
    'Project',
    'Folder',
    'ProjectUser',
    'WorkspaceUser',
    'ApiKey',
    'Integration',
    'Response',
    'Invitation',
    'SchemaVersion',
    'Survey',
  ],
  endpoints: () => ({}),
});
