// The failure messages of spec 000 §8, and the backend messages it shows in friendlier words; both are shown in the
// user's language (i18n known.*) by their English text.
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { translateKnown } from '../../i18n/known';
import { errorMessage } from './messages';

export const FAILURES = {
  projectSave: 'Project could not be saved!',
  siteCreate: 'Site could not be created!',
  siteSave: 'Site could not be saved!',
  siteDelete: 'Cannot delete site!',
  siteActive: 'Cannot change site active state!',
  groupCreate: 'Group could not be created!',
  groupEdit: 'Group could not be edited!',
  groupDelete: 'Group could not be deleted!',
  teamCreate: 'Team could not be created!',
  teamEdit: 'Team could not be edited!',
  teamDelete: 'Team could not be deleted!',
  userCreate: 'User could not be created!',
  userSave: 'User could not be saved!',
  userDelete: 'User could not be deleted!',
  usersLoad: 'Users could not be loaded!',
  userCreateError: 'There was an error creating this user.',
  status: 'Cannot set project status!',
  type: 'Cannot set project type!',
  hierarchy: 'Cannot set project hierarchy!',
  integrationsLoad: 'Integrations could not be loaded!',
  integrationCreate: 'Integration could not be created!',
  integrationUpdate: 'Integration could not be updated!',
  apiKeysLoad: 'API Keys could not be loaded!',
  apiKeyCreate: 'API Key could not be created!',
  apiKeyRevoke: 'Error revoking API Key access.',
} as const;

/** Known backend messages shown in friendlier words (spec 000 §8). */
const FRIENDLIER: Record<string, string> = {
  'State is invalid':
    'Before changing project status to live, you will need to add at least one question to your form.',
  "You can't delete levels that already have responses.":
    'Level you tried to delete has responses. It cannot be deleted now.',
};

function firstMessage(error: FetchBaseQueryError | SerializedError): string | undefined {
  if (!('status' in error) || typeof error.data !== 'object' || error.data === null) return undefined;
  const d = error.data as Record<string, unknown>;
  // Creation failures prefer the first non_field_errors entry (spec 000 §8).
  for (const v of [d.non_field_errors, d.detail, d.message, ...Object.values(d)]) {
    if (typeof v === 'string' && v !== '') return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return undefined;
}

/** The server's message (friendlier where the spec says so), else the call's default failure message. */
export function failure(error: FetchBaseQueryError | SerializedError | undefined, fallback: string): string {
  if (!error) return '';
  if ('status' in error && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR'))
    return errorMessage(error);
  const m = firstMessage(error);
  if (m === undefined) return translateKnown(fallback);
  return translateKnown(FRIENDLIER[m] ?? m);
}
