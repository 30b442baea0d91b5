// set-password/{email}/{nonce} and reset-password/{email}/{nonce}: choose a password from a mailed link.
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { notify } from '../../components/noticesSlice';
import { bannerMessage, errorMessage, fieldErrors } from '../errors/messages';
import { useFinishLogin } from './finishLogin';
import { useLoginMutation, useSetPasswordMutation } from './sessionApi';
import { LOGIN_PATH } from './RequireAuth';

export function PasswordLinkPage({ mode }: { mode: 'set' | 'reset' }) {
  const { t } = useTranslation();
  const { email = '', nonce = '' } = useParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [setPassword, { isLoading, error }] = useSetPasswordMutation();
  const [login] = useLoginMutation();
  const finishLogin = useFinishLogin();
  const [password, setPw] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const fields = fieldErrors(error);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) return setMismatch(true);
    setMismatch(false);
    try {
      await setPassword({ email, nonce, password }).unwrap();
      dispatch(notify(t(mode === 'set' ? 'password.done' : 'password.resetDone')));
      if (mode === 'set') {
        // An invitation's link: the person just chose their password and joined, so they go straight in.
        const reply = await login({ username: email, password })
          .unwrap()
          .catch(() => undefined);
        if (reply) return await finishLogin(reply, null);
      }
      await navigate(LOGIN_PATH, { replace: true });
    } catch {
      // shown from the mutation's error
    }
  };

  return (
    <div className="login-page">
      <form className="card narrow" onSubmit={(e) => void submit(e)}>
        <h1>{t(mode === 'set' ? 'password.setTitle' : 'password.resetTitle')}</h1>
        <p className="muted">{email}</p>
        {error && Object.keys(fields).length === 0 && (
          <p className="banner error">{bannerMessage(error) || errorMessage(error)}</p>
        )}
        <label>
          {t('password.new')}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPw(e.target.value)}
          />
        </label>
        {fields.password && <p className="field-error">{fields.password}</p>}
        <label>
          {t('password.confirm')}
          <input
            name="confirm"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </label>
        {mismatch && <p className="field-error">{t('password.mismatch')}</p>}
        <button type="submit" data-testid="reset-submit" disabled={isLoading || password === ''}>
          {t('password.save')}
        </button>
      </form>
    </div>
  );
}
