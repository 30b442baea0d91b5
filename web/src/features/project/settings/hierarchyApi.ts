// Renaming groups and teams (PATCH project/{id}/groups/{groupId}/ and teams/{teamId}/, spec 000 §7).
import { projectsApi } from '../../projects/projectsApi';
import type { ApiBody } from '../../../api/types';
import type { Group, Team } from '../../projects/types';

type Id = { projectId: number };

export const hierarchyApi = projectsApi.injectEndpoints({
  endpoints: (build) => ({
    updateGroup: build.mutation<Group, Id & { groupId: number } & ApiBody<'/api/project/{id}/groups/{sub}/', 'patch'>>({
      query: ({ projectId, groupId, ...body }) => ({
        url: `project/${projectId}/groups/${groupId}/`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Project', id: a.projectId }],
    }),
    updateTeam: build.mutation<Team, Id & { teamId: number } & ApiBody<'/api/project/{id}/teams/{sub}/', 'patch'>>({
      query: ({ projectId, teamId, ...body }) => ({
        url: `project/${projectId}/teams/${teamId}/`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Project', id: a.projectId }],
    }),
  }),
});

export const { useUpdateGroupMutation, useUpdateTeamMutation } = hierarchyApi;
