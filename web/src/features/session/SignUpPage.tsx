// Sign-up where the deployment allows it (SIGNUP_ENABLED): a new account and the workspace it owns (spec 000 §7
// newOrgName, orgDescription), signed in at once; or through an identity provider. An address already in use is
// said so as soon as it is typed (accounts/email-check/), with the way to sign in or reset the password.
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../components/LanguageSelect';
import { bannerMessage, errorMessage, fieldErrors } from '../errors/messages';
import { useFinishLogin } from './finishLogin';
import { useIdentityProvidersQuery, useSignUpMutation } from './identityApi';
import { IdentityProviderButtons } from './IdentityProviders';

export function SignUpPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { data, isLoading: loadingProviders } = useIdentityProvidersQuery('');
  const [signUp, { isLoading, error }] = useSignUpMutation();
  const finish = useFinishLogin();
  const [form, setForm] = useState({ name: '', email: '', password: '', newOrgName: '', orgDescription: '' });
  const fields = fieldErrors(error);
  const banner = error && Object.keys(fields).length === 0 ? bannerMessage(error) || errorMessage(error) : '';
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const reply = await signUp({ ...form, email: form.email.trim() }).unwrap();
      await finish(reply, params.get('next'));
    } catch {
      // shown from the mutation's error
    }
  };

  const closed = !loadingProviders && data && !data.signup_enabled;
  return (
    <div className="login-page">
      <div className="card narrow" data-testid="signup-page">
        <div className="login-head">
          <span className="brand">{t('app.name')}</span>
          <LanguageSelect />
        </div>
        <h1>{t('identity.signupTitle')}</h1>
        {closed ? (
          <p className="banner warning" data-testid="signup-closed">
            {t('identity.signupClosed')}
          </p>
        ) : (
          <form onSubmit={(e) => void submit(e)} noValidate>
            {banner && (
              <p className="banner error" role="alert" data-testid="signup-error">
                {banner}
              </p>
            )}
            <Field label={t('identity.name')} error={fields.name}>
              <input
                name="name"
                autoComplete="name"
                value={form.name}
                onChange={set('name')}
                aria-invalid={!!fields.name}
              />
            </Field>
            <Field label={t('login.email')} error={fields.email} errorTestId="signup-email-error">
              <input
                name="email"
                type="email"
                autoComplete="email"
                value={form.email}
                onChange={set('email')}
                aria-invalid={!!fields.email}
              />
            </Field>
            <Field label={t('login.password')} error={fields.password}>
              <input
                name="password"
                type="password"
                autoComplete="new-password"
                value={form.password}
                onChange={set('password')}
                aria-invalid={!!fields.password}
              />
            </Field>
            <Field label={t('identity.workspaceName')} error={fields.newOrgName}>
              <input
                name="newOrgName"
                autoComplete="organization"
                value={form.newOrgName}
                onChange={set('newOrgName')}
                aria-invalid={!!fields.newOrgName}
              />
            </Field>
            <label>
              {t('identity.workspaceDescription')}
              <textarea name="orgDescription" rows={2} value={form.orgDescription} onChange={set('orgDescription')} />
            </label>
            <p className="hint">{t('identity.signupTerms')}</p>
            <button type="submit" data-testid="signup-submit" disabled={isLoading}>
              {t('identity.signupSubmit')}
            </button>
            <IdentityProviderButtons next={params.get('next')} label="identity.continueWith" />
          </form>
        )}
        <p>
          <Link to="/login-home/login" data-testid="to-login" className="touch-link">
            {t('identity.haveAccount')}
          </Link>
        </p>
      </div>
    </div>
  );
}

/** A labelled input and, below it, the server's message for that field. */
function Field({
  label,
  error,
  errorTestId,
  children,
}: {
  label: string;
  error: string | undefined;
  errorTestId?: string;
  children: ReactNode;
}) {
  return (
    <>
      <label>
        {label}
        {children}
      </label>
      {error && (
        <p className="field-error" data-testid={errorTestId}>
          {error}
        </p>
      )}
    </>
  );
}
