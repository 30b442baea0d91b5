// Who is logged in, in which workspace, and whether the terms and privacy policy are accepted (spec 000 §4).
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Organization, User } from './types';

/** Current versions of the terms of service and the privacy policy (spec 000 §9), kept in packages/access. */
import { PRIVACY_VERSION, TERMS_VERSION } from '@fieldwork/access';
export { PRIVACY_VERSION, TERMS_VERSION };

export interface SessionState {
  user: User | null;
  organizationId: number | null;
  organizationName: string;
  /** The session ended by itself (no or a failed refresh), as opposed to a logout. */
  expired: boolean;
}

const initialState: SessionState = { user: null, organizationId: null, organizationName: '', expired: false };

/** The user continues only when each stored agreed version equals the current one. */
export function legalStatus(user: Pick<User, 'settings'> | null): { terms: boolean; privacy: boolean } {
  return {
    terms: user?.settings.agreed_terms === TERMS_VERSION,
    privacy: user?.settings.agreed_privacy === PRIVACY_VERSION,
  };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    loggedIn(state, action: PayloadAction<{ user: User; organization: Organization | null }>) {
      state.user = action.payload.user;
      state.organizationId = action.payload.organization?.id ?? action.payload.user.current_organization;
      state.organizationName = action.payload.organization?.name ?? '';
      state.expired = false;
    },
    userLoaded(state, action: PayloadAction<User>) {
      state.user = action.payload;
      if (state.organizationId === null || !action.payload.organizations.some((o) => o.id === state.organizationId)) {
        state.organizationId = action.payload.current_organization;
      }
      state.organizationName = action.payload.organizations.find((o) => o.id === state.organizationId)?.name ?? '';
    },
    workspaceChosen(state, action: PayloadAction<{ id: number; name: string }>) {
      state.organizationId = action.payload.id;
      state.organizationName = action.payload.name;
    },
    loggedOut() {
      return initialState;
    },
    sessionExpired(state) {
      state.expired = true;
    },
  },
});

export const { loggedIn, userLoaded, workspaceChosen, loggedOut, sessionExpired } = sessionSlice.actions;
