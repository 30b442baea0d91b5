// Accounts and workspace calls (spec 000 §7 Accounts, Workspaces).
import { api } from '../../app/api';
import { devices } from '../../app/session';
import type { Invitation, LoginReply, Organization, User } from './types';

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginReply, { username: string; password: string }>({
      query: ({ username, password }) => {
        // Login lower-cases and trims the username and trims the password (spec 000 §5).
        const name = username.trim().toLowerCase();
        // This browser's device token for the account, if it signed in to it before (docs/security.md).
        const device = devices.for(name);
        return {
          url: 'api-token-auth/',
          method: 'POST',
          body: { username: name, password: password.trim(), ...(device ? { device } : {}) },
        };
      },
      transformResponse: (reply: LoginReply, _meta, { username }) => {
        if (reply.device) devices.remember([username, reply.user.username, reply.user.email], reply.device);
        return reply;
      },
    }),
    logout: build.mutation<unknown, { refresh: string | null }>({
      query: ({ refresh }) => ({ url: 'accounts/logout/', method: 'POST', body: refresh ? { refresh } : {} }),
    }),
    getUser: build.query<User, number>({
      query: (id) => `accounts/user/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'User', id }],
    }),
    updateUser: build.mutation<User, { id: number; first_name: string; last_name: string }>({
      query: ({ id, ...body }) => ({ url: `accounts/user/${id}/`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'User', id }],
    }),
    acceptLegal: build.mutation<User, { id: number; agreed_terms?: string; agreed_privacy?: string }>({
      query: ({ id, ...body }) => ({ url: `accounts/user/${id}/settings`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'User', id }],
    }),
    requestReset: build.mutation<unknown, string>({
      query: (email) => `accounts/user/${encodeURIComponent(email.trim())}/reset`,
    }),
    setPassword: build.mutation<unknown, { email: string; nonce: string; password: string }>({
      query: ({ email, ...body }) => ({
        url: `accounts/user/${encodeURIComponent(email)}/reset`,
        method: 'POST',
        body,
      }),
    }),
    changePassword: build.mutation<unknown, { email: string; new_password: string; old_password: string }>({
      query: ({ email, ...body }) => ({
        url: `accounts/user/${encodeURIComponent(email)}/reset`,
        method: 'POST',
        body,
      }),
    }),
    listOrganizations: build.query<{ results: Organization[]; count: number }, undefined>({
      query: () => 'organization/',
      providesTags: ['Organization'],
    }),
    // Invitations of an existing account to other workspaces: it joins one only by accepting.
    invitations: build.query<{ results: Invitation[]; count: number }, undefined>({
      query: () => 'accounts/invitations/',
      providesTags: ['Invitation'],
    }),
    answerInvitation: build.mutation<Invitation, { organizationId: number; userId: number; accept: boolean }>({
      query: ({ organizationId, accept }) => ({
        url: `accounts/invitations/${organizationId}/${accept ? 'accept' : 'decline'}/`,
        method: 'POST',
      }),
      invalidatesTags: (_r, _e, { userId }) => ['Invitation', 'Organization', { type: 'User', id: userId }],
    }),
    getOrganization: build.query<Organization, number>({
      query: (id) => `organization/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'Organization', id }, 'Project'],
    }),
  }),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useGetUserQuery,
  useUpdateUserMutation,
  useAcceptLegalMutation,
  useRequestResetMutation,
  useSetPasswordMutation,
  useChangePasswordMutation,
  useListOrganizationsQuery,
  useGetOrganizationQuery,
  useInvitationsQuery,
  useAnswerInvitationMutation,
} = sessionApi;
