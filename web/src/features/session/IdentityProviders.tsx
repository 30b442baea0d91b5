// The identity providers of the deployment as buttons ("Sign in with …"): a click starts authorization code + PKCE
// and leaves for the provider's own sign-in page.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../errors/messages';
import { useIdentityProvidersQuery, useStartOidcMutation } from './identityApi';
import { newPkce, savePending } from './pkce';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email typed so far, once it looks like one and typing paused (domain providers are asked for it). */
function useSettledEmail(typed: string): string {
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const value = EMAIL.test(typed.trim()) ? typed.trim().toLowerCase() : '';
    const timer = setTimeout(() => setSettled(value), 400);
    return () => clearTimeout(timer);
  }, [typed]);
  return settled;
}

export function IdentityProviderButtons({
  email = '',
  next,
  label = 'identity.signInWith',
}: {
  email?: string;
  next: string | null;
  label?: 'identity.signInWith' | 'identity.continueWith';
}) {
  const { t } = useTranslation();
  const settled = useSettledEmail(email);
  const { data, isError, isFetching, refetch } = useIdentityProvidersQuery(settled);
  const [start, { isLoading, error }] = useStartOidcMutation();
  const [leaving, setLeaving] = useState(false);
  const providers = data?.results ?? [];
  // The list could not be had (too many requests, no network): say so and offer to ask again, rather than showing a
  // sign-in page that silently lacks the organisation's sign-in button.
  if (providers.length === 0 && isError)
    return (
      <p className="banner warning" role="status" data-testid="providers-unavailable">
        {t('identity.providersUnavailable')}{' '}
        <button type="button" className="link" disabled={isFetching} onClick={() => void refetch()}>
          {t('identity.providersRetry')}
        </button>
      </p>
    );
  if (providers.length === 0) return null;

  const signIn = async (provider: string) => {
    try {
      const { verifier, challenge } = await newPkce();
      const { authorization_url, state } = await start({
        identity_provider: provider,
        code_challenge: challenge,
      }).unwrap();
      savePending({ provider, verifier, state, next });
      setLeaving(true);
      window.location.assign(authorization_url);
    } catch {
      // shown from the mutation's error
    }
  };

  return (
    <div className="identity-providers" data-testid="identity-providers">
      <p className="divider">
        <span>{t('identity.or')}</span>
      </p>
      {error && (
        <p className="banner error" role="alert">
          {errorMessage(error)}
        </p>
      )}
      {providers.map((p) => (
        <button
          key={p.id}
          type="button"
          className="secondary identity-provider"
          data-testid={`provider-${p.id}`}
          disabled={isLoading || leaving}
          onClick={() => void signIn(p.id)}
        >
          {t(label, { name: p.name })}
        </button>
      ))}
    </div>
  );
}
