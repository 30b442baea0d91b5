// What every way of signing in ends with (password, identity provider, sign-up): the tokens stored, the session
// state set, and the next screen (spec 000 §2 route behaviour).
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { session } from '../../app/session';
import { api } from '../../app/api';
import { sessionApi } from './sessionApi';
import { loggedIn } from './sessionSlice';
import { afterLoginPath } from './redirects';
import type { LoginReply } from './types';

export function useFinishLogin() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    async (reply: LoginReply, next: string | null) => {
      session.store(reply.access, reply.refresh);
      session.recordLastLogin();
      // Answers cached for an earlier session (a 401 from when it ended) must not end this one.
      dispatch(api.util.resetApiState());
      dispatch(loggedIn({ user: reply.user, organization: reply.organization }));
      let onlyProject: number | undefined;
      if (reply.organization) {
        const org = await dispatch(sessionApi.endpoints.getOrganization.initiate(reply.organization.id))
          .unwrap()
          .catch(() => undefined);
        if (org?.project_details?.length === 1) onlyProject = org.project_details[0]!.id;
      }
      await navigate(afterLoginPath(next, onlyProject), { replace: true });
    },
    [dispatch, navigate],
  );
}
