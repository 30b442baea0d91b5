// Request schemas of the account routes (routes/accounts.ts); the bodies themselves are in ../schemas.ts (`bodies`).
import { bodies } from '../schemas.js';
import { noBody, openObject, params } from './common.js';

/** An invitation to a workspace (auth service's Invitation, as it is). */
const invitation = openObject({
  organization: openObject({ id: { type: 'integer' }, name: { type: 'string' } }),
  invited_by: { type: 'string', description: "Who invited ('' when unknown)" },
  time: { type: 'string' },
  accepted: { type: 'boolean', description: 'After an answer: whether the caller is now a member' },
});

export const accountSchemas = {
  ...bodies,
  userParams: params('id'),
  emailParams: params('email'),
  invitationParams: params('id'),
  /** Accept or decline an invitation: nothing but the path. */
  answer: noBody,
  invitation,
  invitations: openObject({ results: { type: 'array', items: invitation }, count: { type: 'integer' } }),
  /** A refreshed login: the new access token and the rotated refresh token. */
  tokens: openObject({ access: { type: 'string' }, refresh: { type: 'string' } }),
  emailChecked: openObject({ email: { type: 'string' }, exists: { type: 'boolean' } }),
  /** The workspaces whose domain matches the email's. */
  organizationMatched: openObject({
    match: { type: 'boolean' },
    organizations: {
      type: 'array',
      items: openObject({ id: { type: 'integer' }, name: { type: 'string' } }),
    },
  }),
  /** A login: the tokens, the user and the workspace it starts in (null: none). */
  loginReply: {
    type: 'object',
    additionalProperties: true,
    properties: {
      access: { type: 'string' },
      refresh: { type: 'string' },
      user: { anyOf: [{ $ref: 'User#' }, { type: 'null' }] },
      organization: { type: ['object', 'null'], additionalProperties: true },
      device: {
        type: 'string',
        description:
          'Keep it and send it with the next sign-in to this account: a known device is never slowed down by others',
      },
    },
  },
} as const;
