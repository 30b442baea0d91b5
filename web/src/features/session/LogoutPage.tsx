// Logout: revoke the session on the server, clear it here, go to login. Responses not yet sent stay on the device,
// bound to their user, and go up at that user's next login here; logging out with some asks first.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { api } from '../../app/api';
import { session } from '../../app/session';
import { decodeAccess } from '../../lib/jwt';
import { localStore } from '../collect/localStore';
import { useLogoutMutation } from './sessionApi';
import { loggedOut } from './sessionSlice';
import { LOGIN_PATH } from './RequireAuth';

export function LogoutPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  const started = useRef(false);
  const [unsent, setUnsent] = useState<number | undefined>();

  const leave = useCallback(async () => {
    if (started.current) return;
    started.current = true;
    const { access, refresh } = session.read();
    if (access)
      await logout({ refresh })
        .unwrap()
        .catch(() => undefined);
    session.clear();
    dispatch(loggedOut());
    dispatch(api.util.resetApiState());
    await navigate(LOGIN_PATH, { replace: true });
  }, [dispatch, logout, navigate]);

  useEffect(() => {
    const me = decodeAccess(session.read().access)?.user_id;
    if (me === undefined) return void leave();
    void localStore
      .unsent(me)
      .catch(() => [])
      .then((rows) => (rows.length === 0 ? leave() : setUnsent(rows.length)));
  }, [leave]);

  if (unsent === undefined) return null;
  return (
    <section
      className="card confirm-logout"
      role="alertdialog"
      aria-labelledby="logout-title"
      data-testid="logout-unsent"
    >
      <h2 id="logout-title">{t('logout.unsentTitle')}</h2>
      <p>{t('logout.unsent', { count: unsent })}</p>
      <div className="actions">
        <button
          type="button"
          className="primary"
          onClick={() => void (window.history.length > 1 ? navigate(-1) : navigate('/projects'))}
          data-testid="logout-stay"
        >
          {t('logout.stay')}
        </button>
        <button type="button" onClick={() => void leave()} data-testid="logout-anyway">
          {t('logout.anyway')}
        </button>
      </div>
    </section>
  );
}
