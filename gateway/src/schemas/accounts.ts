// Request schemas of the account routes (routes/accounts.ts); the bodies themselves are in ../schemas.ts (`bodies`).
import { bodies } from '../schemas.js';
import { params } from './common.js';

export const accountSchemas = {
  ...bodies,
  userParams: params('id'),
  emailParams: params('email'),
  invitationParams: params('id'),
  /** A login: the tokens, the user and the workspace it starts in (null: none). */
  loginReply: {
    type: 'object',
    additionalProperties: true,
    properties: {
      access: { type: 'string' },
      refresh: { type: 'string' },
      user: { anyOf: [{ $ref: 'User#' }, { type: 'null' }] },
      organization: { type: ['object', 'null'], additionalProperties: true },
    },
  },
} as const;
