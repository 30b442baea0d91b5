// Protected routes: check the session on entry; unauthenticated or a failed check goes to login with `next`;
// then the terms and privacy gate; then the screen.
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { LoginDialog } from './LoginDialog';
import { session } from '../../app/session';
import { decodeAccess } from '../../lib/jwt';
import { useGetUserQuery } from './sessionApi';
import { legalStatus, userLoaded } from './sessionSlice';
import { LegalGate } from './LegalGate';

export const LOGIN_PATH = '/login-home/login';

/** The login path that brings the user back to `path` afterwards. */
export function loginRedirect(path: string): string {
  return `${LOGIN_PATH}?next=${encodeURIComponent(path)}`;
}

const KEEP_ON_EXPIRY = /^\/project\/\d+\/(builder|settings(\/parameters)?\/?$)/;

export function RequireAuth() {
  const location = useLocation();
  const dispatch = useAppDispatch();
  const { t } = useTranslation();
  const claims = decodeAccess(session.read().access);
  const expired = useAppSelector((s) => s.session.expired);
  const { data: user, error, isLoading } = useGetUserQuery(claims?.user_id ?? 0, { skip: claims === null });
  // Only a refusal ends the session: a network failure (offline) does not.
  const isError = error !== undefined && 'status' in error && (error.status === 401 || error.status === 403);
  const offline = error !== undefined && !isError;
  useEffect(() => {
    if (user) dispatch(userLoaded(user));
  }, [user, dispatch]);

  // A session that ends on the builder or parameters screen opens a login dialog over it instead of navigating,
  // so unsaved work stays (spec 000 §2).
  if (claims === null && expired && KEEP_ON_EXPIRY.test(location.pathname)) {
    return (
      <>
        <Outlet />
        <LoginDialog />
      </>
    );
  }
  if (claims === null || isError) {
    if (isError) session.clear();
    return <Navigate to={loginRedirect(location.pathname + location.search + location.hash)} replace />;
  }
  if (offline && !user) return <p className="banner error">{t('collect.offline')}</p>;
  if (isLoading || !user) return <div className="loading">{t('app.loading')}</div>;
  const legal = legalStatus(user);
  if (!legal.terms || !legal.privacy) return <LegalGate user={user} status={legal} />;
  return <Outlet />;
}
