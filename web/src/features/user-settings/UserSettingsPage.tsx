// Profile (the name is split into first and last word), invitations to other workspaces (an existing account joins
// one only by accepting), and change password (which ends at login).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { session } from '../../app/session';
import { notify } from '../../components/noticesSlice';
import { formatDate } from '../../i18n/format';
import { splitName } from '../../lib/text';
import { bannerMessage, errorMessage, fieldErrors } from '../errors/messages';
import {
  useAnswerInvitationMutation,
  useChangePasswordMutation,
  useInvitationsQuery,
  useUpdateUserMutation,
} from '../session/sessionApi';
import { loggedOut } from '../session/sessionSlice';
import { LOGIN_PATH } from '../session/RequireAuth';

export function UserSettingsPage() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.session.user);
  if (!user) return null;
  return (
    <section className="settings">
      <h1>{t('settings.title')}</h1>
      <Profile
        key={user.id}
        userId={user.id}
        initialName={`${user.first_name} ${user.last_name}`.trim()}
        email={user.email}
      />
      <p className="muted">
        {t('settings.lastLogin')}: {formatDate(user.last_login)}
      </p>
      <Invitations userId={user.id} />
      <ChangePassword email={user.email} />
    </section>
  );
}

function Invitations({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { data } = useInvitationsQuery(undefined);
  const [answer, { isLoading, error }] = useAnswerInvitationMutation();
  if (!data || data.results.length === 0) return null;
  const reply = async (organizationId: number, name: string, accept: boolean) => {
    try {
      await answer({ organizationId, userId, accept }).unwrap();
      dispatch(notify(accept ? t('settings.accepted', { name }) : t('settings.declined')));
    } catch {
      // shown below
    }
  };
  return (
    <div className="card" data-testid="invitations">
      <h2>{t('settings.invitations')}</h2>
      {error && <p className="banner error">{errorMessage(error)}</p>}
      <ul>
        {data.results.map((i) => (
          <li key={i.organization.id} data-testid="invitation">
            <strong>{i.organization.name}</strong>{' '}
            {i.invited_by && <span className="muted">({t('settings.invitedBy', { name: i.invited_by })})</span>}{' '}
            <button
              type="button"
              disabled={isLoading}
              onClick={() => void reply(i.organization.id, i.organization.name, true)}
            >
              {t('settings.accept')}
            </button>{' '}
            <button
              type="button"
              className="link"
              disabled={isLoading}
              onClick={() => void reply(i.organization.id, i.organization.name, false)}
            >
              {t('settings.decline')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Profile({ userId, initialName, email }: { userId: number; initialName: string; email: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [name, setName] = useState(initialName);
  const [update, { isLoading, error }] = useUpdateUserMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await update({ id: userId, ...splitName(name) }).unwrap();
      dispatch(notify(t('settings.saved')));
    } catch {
      // shown below
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)}>
      <h2>{t('settings.profile')}</h2>
      {error && <p className="banner error">{errorMessage(error)}</p>}
      <label>
        {t('settings.name')}
        <input name="name" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t('settings.email')}
        <input name="email" value={email} readOnly />
      </label>
      <button type="submit" data-testid="save-profile" disabled={isLoading}>
        {t('settings.save')}
      </button>
    </form>
  );
}

function ChangePassword({ email }: { email: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [change, { isLoading, error }] = useChangePasswordMutation();
  const fields = fieldErrors(error);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await change({ email, old_password: oldPassword, new_password: newPassword }).unwrap();
      // The server ended every session; a password change ends at login.
      session.clear();
      dispatch(loggedOut());
      dispatch(notify(t('settings.changed')));
      await navigate(LOGIN_PATH, { replace: true });
    } catch {
      // shown below
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)}>
      <h2>{t('settings.changePassword')}</h2>
      {error && Object.keys(fields).length === 0 && (
        <p className="banner error">{bannerMessage(error) || errorMessage(error)}</p>
      )}
      {fields.username && <p className="field-error">{fields.username}</p>}
      <label>
        {t('settings.oldPassword')}
        <input
          name="old_password"
          type="password"
          autoComplete="current-password"
          value={oldPassword}
          onChange={(e) => setOld(e.target.value)}
        />
      </label>
      {fields.old_password && <p className="field-error">{fields.old_password}</p>}
      <label>
        {t('settings.newPassword')}
        <input
          name="new_password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNew(e.target.value)}
        />
      </label>
      {fields.new_password && <p className="field-error">{fields.new_password}</p>}
      <button type="submit" data-testid="change-password" disabled={isLoading}>
        {t('settings.change')}
      </button>
    </form>
  );
}
