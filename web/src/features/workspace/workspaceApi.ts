// Workspace settings calls (spec 000 §7 Workspaces): users, API keys, integrations.
import { api } from '../../app/api';

export interface WorkspaceUser {
  id: number;
  user: number;
  name: string;
  email: string;
  owner: boolean;
  user_admin: boolean;
  project_admin: boolean;
  billing_admin: boolean;
}
export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  created: string;
  revoked: string;
}
export interface Integration {
  token: string;
  integration_type: string;
  verified: boolean;
  projects: number[];
}

type Org = { organizationId: number };

export const workspaceApi = api.injectEndpoints({
  endpoints: (build) => ({
    // A page of members, searched on the server (count: all that match; page_size: the size used).
    workspaceUsers: build.query<
      { results: WorkspaceUser[]; count: number; page_size: number },
      Org & { page: number; search: string; pageSize: number }
    >({
      query: ({ organizationId, page, search, pageSize }) => ({
        url: `organization/${organizationId}/organization-users/`,
        params: { page, page_size: pageSize, ...(search.trim() ? { search: search.trim() } : {}) },
      }),
      providesTags: ['WorkspaceUser'],
    }),
    /** Staff only (spec 000 §6): the workspace's feature flags, sent with its name as PUT organization/{id}/ wants. */
    setWorkspaceFeatures: build.mutation<unknown, Org & { name: string; flagged_features: string[] }>({
      query: ({ organizationId, ...body }) => ({ url: `organization/${organizationId}/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Organization', id: a.organizationId }, 'Project'],
    }),
    renameWorkspaceUser: build.mutation<
      WorkspaceUser,
      Org & {
        userId: number;
        first_name?: string;
        last_name?: string;
        user_admin?: boolean;
        project_admin?: boolean;
        billing_admin?: boolean;
      }
    >({
      query: ({ organizationId, userId, ...body }) => ({
        url: `organization/${organizationId}/organization-users/${userId}/`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: ['WorkspaceUser', 'ProjectUser'],
    }),
    removeWorkspaceUser: build.mutation<null, Org & { userId: number }>({
      query: ({ organizationId, userId }) => ({
        url: `organization/${organizationId}/organization-users/${userId}/`,
        method: 'DELETE',
      }),
      invalidatesTags: ['WorkspaceUser', 'ProjectUser'],
    }),
    createWorkspaceUser: build.mutation<WorkspaceUser, Record<string, unknown>>({
      query: (body) => ({ url: 'api/v1/organization-user/', method: 'POST', body }),
      invalidatesTags: ['WorkspaceUser'],
    }),
    apiKeys: build.query<{ results: ApiKey[] }, number>({
      query: (org) => `organization/${org}/api_keys/`,
      providesTags: ['ApiKey'],
    }),
    createApiKey: build.mutation<ApiKey & { key: string }, Org & { name: string }>({
      query: ({ organizationId, name }) => ({
        url: `organization/${organizationId}/api_keys/create/`,
        method: 'POST',
        body: { name },
      }),
      invalidatesTags: ['ApiKey'],
    }),
    revokeApiKey: build.mutation<ApiKey, Org & { prefix: string }>({
      query: ({ organizationId, prefix }) => ({
        url: `api/v0/organization/${organizationId}/api_keys/revoke/`,
        method: 'PUT',
        body: { prefix },
      }),
      invalidatesTags: ['ApiKey'],
    }),
    integrations: build.query<{ results: Integration[] }, number>({
      query: (org) => `organization/${org}/integrations/`,
      providesTags: ['Integration'],
    }),
    createIntegration: build.mutation<Integration, Org>({
      query: ({ organizationId }) => ({
        url: `organization/${organizationId}/integrations/create/`,
        method: 'POST',
        body: { integration_type: 'crm' },
      }),
      invalidatesTags: ['Integration'],
    }),
    verifyIntegration: build.mutation<Integration, Org & { token: string }>({
      query: ({ organizationId, token }) => ({
        url: `organization/${organizationId}/integrations/verify/`,
        method: 'POST',
        body: { token },
      }),
      invalidatesTags: ['Integration'],
    }),
    setIntegrationProjects: build.mutation<Integration, Org & { token: string; projects: number[] }>({
      query: ({ organizationId, ...body }) => ({
        url: `organization/${organizationId}/integrations/projects/`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Integration'],
    }),
  }),
});

export const {
  useWorkspaceUsersQuery,
  useSetWorkspaceFeaturesMutation,
  useRenameWorkspaceUserMutation,
  useRemoveWorkspaceUserMutation,
  useCreateWorkspaceUserMutation,
  useApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useIntegrationsQuery,
  useCreateIntegrationMutation,
  useVerifyIntegrationMutation,
  useSetIntegrationProjectsMutation,
} = workspaceApi;
