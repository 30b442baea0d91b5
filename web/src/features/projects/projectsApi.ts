// Spec 000 §7 Projects and Workspaces calls of the web app.
import { api } from '../../app/api';
import type { ApiBody, ApiReply } from '../../api/types';
import type { BulkReport, FolderItem, Group, Level, Project, ProjectUser, PurgeStatus, Site, Team } from './types';

type Id = { projectId: number };
const invalidateProject = (_r: unknown, _e: unknown, a: Id) => [{ type: 'Project' as const, id: a.projectId }];

export const projectsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // A failed project load is retried once unless it was a 401 (spec 000 §4).
    getProject: build.query<Project, number>({
      async queryFn(id, _api, _extra, baseQuery) {
        let result = await baseQuery(`project/${id}/`);
        if (result.error && result.error.status !== 401) result = await baseQuery(`project/${id}/`);
        return result.error ? { error: result.error } : { data: result.data as Project };
      },
      providesTags: (_r, _e, id) => [{ type: 'Project', id }],
    }),
    projectHome: build.query<Record<string, number | string>, number>({
      query: (id) => `project/${id}/home/`,
      providesTags: (_r, _e, id) => [{ type: 'Project', id }],
    }),
    createProject: build.mutation<Project, Record<string, unknown>>({
      query: (body) => ({ url: 'project/', method: 'POST', body }),
      invalidatesTags: ['Organization', 'Project'],
    }),
    updateProject: build.mutation<Project, Id & Record<string, unknown>>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Project', id: a.projectId }, 'Organization'],
    }),
    setStatus: build.mutation<ApiReply<'/api/project/{id}/status/', 'post'>, Id & { project_state: string }>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/status/`, method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Project', id: a.projectId }, 'Organization'],
    }),
    setType: build.mutation<Project, Id & { project_type: string; trend_series_options?: Record<string, unknown> }>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/type/`, method: 'POST', body }),
      invalidatesTags: invalidateProject,
    }),
    setTimingColumn: build.mutation<Project, Id & { timing_column: string }>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/timingcolumn/`, method: 'POST', body }),
      invalidatesTags: invalidateProject,
    }),
    // Hierarchy changes apply optimistically and roll back on failure (spec 000 §4).
    setHierarchy: build.mutation<Project, Id & { is_hierarchical: boolean; project_hierarchy: Level[] }>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/hierarchy/`, method: 'POST', body }),
      async onQueryStarted({ projectId, is_hierarchical, project_hierarchy }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          projectsApi.util.updateQueryData('getProject', projectId, (draft) => {
            draft.is_hierarchical = is_hierarchical;
            draft.project_hierarchy = project_hierarchy;
          }),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(projectsApi.util.upsertQueryData('getProject', projectId, data));
        } catch {
          patch.undo();
        }
      },
    }),
    duplicateProject: build.mutation<Project, Id & { folderId?: number }>({
      query: ({ projectId, folderId }) => ({
        url: `project/${projectId}/duplicate/${folderId ? `${folderId}/` : ''}`,
        method: 'POST',
      }),
      invalidatesTags: ['Organization'],
    }),
    uploadLogo: build.mutation<{ file_id: string; url: string }, { organizationId: number; file: File }>({
      query: ({ organizationId, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `organization/${organizationId}/logo/`, method: 'POST', body };
      },
    }),
    uploadProjectFile: build.mutation<{ file_id: string }, Id & { file: File }>({
      query: ({ projectId, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `project/${projectId}/upload/`, method: 'POST', body };
      },
    }),
    // Sites, groups, teams.
    createSite: build.mutation<Site, Id & ApiBody<'/api/project/{id}/sites/', 'post'>>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/sites/`, method: 'POST', body }),
      invalidatesTags: invalidateProject,
    }),
    updateSite: build.mutation<Site, Id & { siteId: number } & ApiBody<'/api/project/{id}/sites/{sub}/', 'patch'>>({
      query: ({ projectId, siteId, ...body }) => ({
        url: `project/${projectId}/sites/${siteId}/`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: invalidateProject,
    }),
    deleteSite: build.mutation<null, Id & { siteId: number }>({
      query: ({ projectId, siteId }) => ({ url: `project/${projectId}/sites/${siteId}/`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Project', id: a.projectId }, 'ProjectUser'],
    }),
    createGroup: build.mutation<Group, Id & ApiBody<'/api/project/{id}/groups/', 'post'>>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/groups/`, method: 'POST', body }),
      invalidatesTags: invalidateProject,
    }),
    deleteGroup: build.mutation<null, Id & { groupId: number }>({
      query: ({ projectId, groupId }) => ({ url: `project/${projectId}/groups/${groupId}/`, method: 'DELETE' }),
      invalidatesTags: invalidateProject,
    }),
    createTeam: build.mutation<Team, Id & ApiBody<'/api/project/{id}/teams/', 'post'>>({
      query: ({ projectId, ...body }) => ({ url: `project/${projectId}/teams/`, method: 'POST', body }),
      invalidatesTags: invalidateProject,
    }),
    deleteTeam: build.mutation<null, Id & { teamId: number }>({
      query: ({ projectId, teamId }) => ({ url: `project/${projectId}/teams/${teamId}/`, method: 'DELETE' }),
      invalidatesTags: invalidateProject,
    }),
    // Project users.
    // A page of the project's users, filtered and searched on the server (count: all that match).
    projectUsers: build.query<
      { results: ProjectUser[]; count: number; page_size: number },
      Id & { page: number; role: string; search: string }
    >({
      query: ({ projectId, page, role, search }) => ({
        url: `project/${projectId}/users/`,
        params: { page, page_size: 20, role, ...(search.trim() ? { search: search.trim() } : {}) },
      }),
      providesTags: ['ProjectUser'],
    }),
    /** The same permissions (spec 000 §6 screen names, as a user's permissions list them) and read_sites for users. */
    setPermissions: build.mutation<
      { results: ProjectUser[] },
      Id & { userIds: number[]; permissions?: string[]; read_sites?: number[] }
    >({
      query: (body) => ({ url: 'project-users/permissions/', method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => ['ProjectUser', { type: 'Project', id: a.projectId }],
    }),
    addProjectUser: build.mutation<ProjectUser, Record<string, unknown>>({
      query: (body) => ({ url: 'api/v1/project-user/', method: 'POST', body }),
      invalidatesTags: (_r, _e, a) => ['ProjectUser', { type: 'Project', id: Number(a.projectId) }],
    }),
    updateProjectUser: build.mutation<ProjectUser, Id & { userId: number } & Record<string, unknown>>({
      query: ({ projectId, userId, ...body }) => ({
        url: `project/${projectId}/users/${userId}/`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_r, _e, a) => ['ProjectUser', { type: 'Project', id: a.projectId }],
    }),
    removeProjectUser: build.mutation<null, Id & { userId: number }>({
      query: ({ projectId, userId }) => ({ url: `project/${projectId}/users/${userId}/`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, a) => ['ProjectUser', { type: 'Project', id: a.projectId }],
    }),
    bulkUpload: build.mutation<BulkReport, Id & { file: File }>({
      query: ({ projectId, file }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `project/${projectId}/users/userslist/`, method: 'POST', body };
      },
      invalidatesTags: (_r, _e, a) => ['ProjectUser', { type: 'Project', id: a.projectId }],
    }),
    // Folders.
    folders: build.query<{ results: FolderItem[] }, number>({
      query: (org) => `organization/${org}/folders/`,
      providesTags: ['Folder'],
    }),
    createFolder: build.mutation<
      FolderItem,
      { organizationId: number; name?: string; folder?: number; project?: number }
    >({
      query: ({ organizationId, ...body }) => ({
        url: `organization/${organizationId}/folders/`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['Folder', 'Organization'],
    }),
    updateFolder: build.mutation<
      FolderItem,
      { organizationId: number; folderId: number; name?: string; folder?: number }
    >({
      query: ({ organizationId, folderId, ...body }) => ({
        url: `organization/${organizationId}/folders/${folderId}/`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Folder'],
    }),
    deleteFolder: build.mutation<null, { organizationId: number; folderId: number }>({
      query: ({ organizationId, folderId }) => ({
        url: `organization/${organizationId}/folders/${folderId}/`,
        method: 'DELETE',
      }),
      invalidatesTags: ['Folder', 'Organization'],
    }),
    // A deleted project's purge (the workspace owner's): the deleted projects, what a purge removes, the purge.
    purges: build.query<{ results: PurgeStatus[]; count: number }, number>({
      query: (org) => `organization/${org}/purges/`,
      providesTags: ['Organization'],
    }),
    purge: build.query<PurgeStatus, number>({
      query: (id) => `project/${id}/purge/`,
      providesTags: (_r, _e, id) => [{ type: 'Project', id }],
    }),
    startPurge: build.mutation<PurgeStatus, Id>({
      query: ({ projectId }) => ({ url: `project/${projectId}/purge/`, method: 'POST' }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Project', id: a.projectId }, 'Organization'],
    }),
  }),
});

export const {
  usePurgesQuery,
  usePurgeQuery,
  useStartPurgeMutation,
  useGetProjectQuery,
  useProjectHomeQuery,
  useCreateProjectMutation,
  useUpdateProjectMutation,
  useSetStatusMutation,
  useSetTypeMutation,
  useSetTimingColumnMutation,
  useSetHierarchyMutation,
  useDuplicateProjectMutation,
  useUploadLogoMutation,
  useUploadProjectFileMutation,
  useCreateSiteMutation,
  useUpdateSiteMutation,
  useDeleteSiteMutation,
  useCreateGroupMutation,
  useDeleteGroupMutation,
  useCreateTeamMutation,
  useDeleteTeamMutation,
  useProjectUsersQuery,
  useAddProjectUserMutation,
  useUpdateProjectUserMutation,
  useRemoveProjectUserMutation,
  useBulkUploadMutation,
  useSetPermissionsMutation,
  useFoldersQuery,
  useCreateFolderMutation,
  useUpdateFolderMutation,
  useDeleteFolderMutation,
} = projectsApi;
