import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type LanguageCode } from '../i18n';

export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-select">
      <span className="visually-hidden">{t('app.language')}</span>
      <select
        data-testid="language-select"
        aria-label={t('app.language')}
        value={i18n.language}
        onChange={(e) => void setLanguage(e.target.value as LanguageCode)}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
