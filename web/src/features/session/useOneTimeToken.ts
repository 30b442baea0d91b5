// A one-time token in the address query is stored as the access token if none exists, removed from the query,
// and the user is redirected to the same address without it (spec 001 §2).
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { session } from '../../app/session';

export function useOneTimeToken(): void {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const token = params.get('token');
    if (token === null) return;
    if (!session.read().access && token !== '') session.storeAccessOnly(token);
    params.delete('token');
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
  }, [location, navigate]);
}
