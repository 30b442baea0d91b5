// Request schemas of the account routes (routes/accounts.ts); the bodies themselves are in ../schemas.ts (`bodies`).
import { bodies } from '../schemas.js';
import { params } from './common.js';

export const accountSchemas = {
  ...bodies,
  userParams: params('id'),
  emailParams: params('email'),
  invitationParams: params('id'),
} as const;
