// What every screen shares: the notices and the 5-minute timer that records the last-login time.
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { Notices } from '../components/Notices';
import { session, SESSION_TIMER_MS } from './session';
import { useOneTimeToken } from '../features/session/useOneTimeToken';

export function AppShell() {
  useOneTimeToken();
  useEffect(() => {
    const timer = setInterval(() => session.recordLastLogin(), SESSION_TIMER_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      <Outlet />
      <Notices />
    </>
  );
}
