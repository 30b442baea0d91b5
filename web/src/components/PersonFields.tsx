// A person's email, first and last name, as the workspace's "create user" dialog and a project's "add user" form ask
// for them; the inputs are named `{prefix}-email`, `-first` and `-last`.
import { useTranslation } from 'react-i18next';

export interface PersonForm {
  email: string;
  first_name: string;
  last_name: string;
}

export function PersonFields<F extends PersonForm>({
  prefix,
  form,
  onChange,
  emailRequired = false,
}: {
  prefix: string;
  form: F;
  onChange: (form: F) => void;
  emailRequired?: boolean;
}) {
  const { t } = useTranslation();
  const set = (key: keyof PersonForm) => (e: { target: { value: string } }) =>
    onChange({ ...form, [key]: e.target.value });
  return (
    <>
      <label>
        {t('settings.email')}
        <input
          name={`${prefix}-email`}
          type="email"
          required={emailRequired}
          value={form.email}
          onChange={set('email')}
        />
      </label>
      <label>
        {t('project.firstName')}
        <input name={`${prefix}-first`} value={form.first_name} onChange={set('first_name')} />
      </label>
      <label>
        {t('project.lastName')}
        <input name={`${prefix}-last`} value={form.last_name} onChange={set('last_name')} />
      </label>
    </>
  );
}
