// Log in again without leaving the screen (the session ended on the builder or parameters screen).
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../app/hooks';
import { session } from '../../app/session';
import { Dialog } from '../../components/Dialog';
import { bannerMessage, errorMessage, fieldErrors } from '../errors/messages';
import { useLoginMutation } from './sessionApi';
import { loggedIn } from './sessionSlice';
import { api } from '../../app/api';

export function LoginDialog() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [login, { error, isLoading }] = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const fields = fieldErrors(error);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const reply = await login({ username, password }).unwrap();
      session.store(reply.access, reply.refresh);
      dispatch(loggedIn({ user: reply.user, organization: reply.organization }));
      // The screen under the dialog keeps its data; what was refused when the session ended is asked again.
      dispatch(api.util.invalidateTags(['User', 'Project', 'Organization', 'Response']));
    } catch {
      // shown below
    }
  };
  return (
    <Dialog title={t('login.title')} onClose={() => undefined} testId="login-dialog">
      <form onSubmit={(e) => void submit(e)}>
        {error && Object.keys(fields).length === 0 && (
          <p className="banner error">{bannerMessage(error) || errorMessage(error)}</p>
        )}
        <label>
          {t('login.username')}
          <input
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
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
          />
        </label>
        {fields.password && <p className="field-error">{fields.password}</p>}
        <button type="submit" disabled={isLoading}>
          {t('login.submit')}
        </button>
      </form>
    </Dialog>
  );
}
