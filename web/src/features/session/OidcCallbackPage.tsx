// Where the identity provider sends the browser back (/login-home/oauth?code&state&iss, or ?error): the code, this
// tab's PKCE verifier and the state go to oauth/code/, which answers as a login does, or refuses (a wrong or used
// state, a wrong verifier, no account) with a message shown here.
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { bannerMessage, errorMessage } from '../errors/messages';
import { useFinishLogin } from './finishLogin';
import { useOidcCodeMutation } from './identityApi';
import { takePending } from './pkce';

export function OidcCallbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [exchange, { error }] = useOidcCodeMutation();
  const finish = useFinishLogin();
  const [problem, setProblem] = useState('');
  const started = useRef(false);

  useEffect(() => {
    // Once: the code and the verifier are single-use (React's development double effect must not spend them twice).
    if (started.current) return;
    started.current = true;
    const pending = takePending();
    const providerError = params.get('error');
    if (providerError) {
      setProblem(t('identity.providerError', { error: params.get('error_description') || providerError }));
      return;
    }
    const code = params.get('code');
    if (!pending || !code) {
      setProblem(t('identity.noPending'));
      return;
    }
    void exchange({
      code,
      code_verifier: pending.verifier,
      identity_provider: pending.provider,
      state: params.get('state') ?? '',
      ...(params.get('iss') ? { iss: params.get('iss')! } : {}),
    })
      .unwrap()
      .then((reply) => finish(reply, pending.next))
      .catch(() => undefined);
  }, [exchange, finish, params, t]);

  const message = problem || (error ? bannerMessage(error) || errorMessage(error) : '');
  return (
    <div className="login-page">
      <div className="card narrow" data-testid="oidc-callback">
        <h1>{t('identity.callbackTitle')}</h1>
        {message ? (
          <>
            <p className="banner error" role="alert" data-testid="oidc-error">
              {message}
            </p>
            <Link to="/login-home/login" className="touch-link">
              {t('login.back')}
            </Link>
          </>
        ) : (
          <p aria-busy="true">{t('identity.signingIn')}</p>
        )}
      </div>
    </div>
  );
}
