// Sign in (spec 000 §4 Login), with the forgot-password flow. Errors: non_field_errors or detail as a banner,
// else field errors under username and password.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../components/LanguageSelect';
import { bannerMessage, errorMessage, fieldErrors } from '../errors/messages';
import { useLoginMutation, useRequestResetMutation } from './sessionApi';
import { useFinishLogin } from './finishLogin';
import { useIdentityProvidersQuery } from './identityApi';
import { IdentityProviderButtons } from './IdentityProviders';

export function LoginPage() {
  const { t } = useTranslation();
  const [forgot, setForgot] = useState(false);
  return (
    <div className="login-page">
      <div className="card narrow">
        <div className="login-head">
          <span className="brand">{t('app.name')}</span>
          <LanguageSelect />
        </div>
        {forgot ? <ForgotPassword onBack={() => setForgot(false)} /> : <LoginForm onForgot={() => setForgot(true)} />}
      </div>
    </div>
  );
}

function LoginForm({ onForgot }: { onForgot: () => void }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const finish = useFinishLogin();
  const { data: providers } = useIdentityProvidersQuery('');
  const [login, { isLoading, error }] = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const fields = fieldErrors(error);
  const banner = error && Object.keys(fields).length === 0 ? bannerMessage(error) || errorMessage(error) : '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const reply = await login({ username, password }).unwrap();
      await finish(reply, params.get('next'));
    } catch {
      // shown from the mutation's error
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <h1>{t('login.title')}</h1>
      {banner && (
        <p className="banner error" role="alert" data-testid="login-error">
          {banner}
        </p>
      )}
      <label>
        {t('login.username')}
        <input
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          aria-invalid={!!fields.username}
        />
      </label>
      {fields.username && <p className="field-error">{fields.username}</p>}
      <label>
        {t('login.password')}
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={!!fields.password}
        />
      </label>
      {fields.password && <p className="field-error">{fields.password}</p>}
      <button type="submit" data-testid="login-submit" disabled={isLoading}>
        {t('login.submit')}
      </button>
      <button type="button" className="link" data-testid="forgot-password" onClick={onForgot}>
        {t('login.forgot')}
      </button>
      <IdentityProviderButtons email={username} next={params.get('next')} />
      {providers?.signup_enabled && (
        <p>
          <Link
            to={`/login-home/signup${params.get('next') ? `?next=${encodeURIComponent(params.get('next')!)}` : ''}`}
            data-testid="to-signup"
            className="touch-link"
          >
            {t('identity.noAccount')}
          </Link>
        </p>
      )}
    </form>
  );
}

function ForgotPassword({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [requestReset, { isLoading, isSuccess, error }] = useRequestResetMutation();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void requestReset(email);
      }}
    >
      <h1>{t('login.forgotTitle')}</h1>
      {isSuccess ? (
        <p className="banner ok" data-testid="forgot-sent">
          {t('login.sent')}
        </p>
      ) : (
        <>
          <p>{t('login.forgotHelp')}</p>
          {error && <p className="banner error">{errorMessage(error)}</p>}
          <label>
            {t('login.email')}
            <input
              name="email"
              type="email"
              data-testid="forgot-email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <button type="submit" data-testid="forgot-submit" disabled={isLoading || email.trim() === ''}>
            {t('login.send')}
          </button>
        </>
      )}
      <button type="button" className="link" onClick={onBack}>
        {t('login.back')}
      </button>
    </form>
  );
}
