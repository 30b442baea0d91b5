// Logout: revoke the session on the server, clear it here, go to login.
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { api } from '../../app/api';
import { session } from '../../app/session';
import { useLogoutMutation } from './sessionApi';
import { loggedOut } from './sessionSlice';
import { LOGIN_PATH } from './RequireAuth';

export function LogoutPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const { access, refresh } = session.read();
      if (access) await logout({ refresh }).unwrap().catch(() => undefined);
      session.clear();
      dispatch(loggedOut());
      dispatch(api.util.resetApiState());
      await navigate(LOGIN_PATH, { replace: true });
    })();
  }, [dispatch, logout, navigate]);
  return null;
}
