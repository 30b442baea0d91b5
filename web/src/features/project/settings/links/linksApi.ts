// Collection links of a project (spec 000 §7 Surveys, issue 19): list, create, expire and revoke.
import { api } from '../../../../app/api';
import type { ApiBody, ApiRecord } from '../../../../api/types';

/** A collection link as the gateway answers it (generated from its OpenAPI document). */
export type Link = ApiRecord<'Survey'>;
export type NewLink = ApiBody<'/api/project/{id}/surveys/', 'post'>;

type Ref = { projectId: number; surveyId: number };

export const linksApi = api.injectEndpoints({
  endpoints: (build) => ({
    links: build.query<{ results: Link[]; count: number }, number>({
      query: (projectId) => `project/${projectId}/surveys/`,
      providesTags: (_r, _e, projectId) => [{ type: 'Survey', id: projectId }],
    }),
    createLink: build.mutation<Link, { projectId: number; body: NewLink }>({
      query: ({ projectId, body }) => ({ url: `project/${projectId}/surveys/`, method: 'POST', body }),
      // The project carries its current link.
      invalidatesTags: (_r, _e, { projectId }) => [{ type: 'Survey', id: projectId }, 'Project'],
    }),
    expireLink: build.mutation<Link, Ref>({
      query: ({ projectId, surveyId }) => ({ url: `project/${projectId}/surveys/${surveyId}/expire/`, method: 'POST' }),
      invalidatesTags: (_r, _e, { projectId }) => [{ type: 'Survey', id: projectId }, 'Project'],
    }),
    revokeLink: build.mutation<Link, Ref>({
      query: ({ projectId, surveyId }) => ({ url: `project/${projectId}/surveys/${surveyId}/revoke/`, method: 'POST' }),
      invalidatesTags: (_r, _e, { projectId }) => [{ type: 'Survey', id: projectId }, 'Project'],
    }),
  }),
});

export const { useLinksQuery, useCreateLinkMutation, useExpireLinkMutation, useRevokeLinkMutation } = linksApi;

/** The state of a link for those who manage it. */
export type LinkState = 'active' | 'expired' | 'revoked';
export function linkState(link: Pick<Link, 'expired' | 'revoked_at'>): LinkState {
  if (link.revoked_at) return 'revoked';
  return link.expired ? 'expired' : 'active';
}

/**
 * The address a respondent opens (spec 000 §2): collect/anonymous/{token} or collect/survey/{token}, absolute on the
 * host the administrator reached (never localhost), under the app's base path.
 */
export function linkUrl(link: Pick<Link, 'kind' | 'token'>, base: string): string {
  const path = link.kind === 'anonymous' ? 'anonymous' : 'survey';
  return new URL(`collect/${path}/${encodeURIComponent(link.token)}`, base).toString();
}
